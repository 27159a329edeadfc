import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reduce } from './reduce';
import { EventScript } from './testing/synthetic';
import { RECONCILE_TIME_BUCKETS } from '../models/reconcile-time-buckets';
import { createView } from './view';
import type { RuntimeView } from './view';
import type { StampedEvent } from './events';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

const json = (v: RuntimeView): unknown => JSON.parse(JSON.stringify(v));

describe('reduce basics', () => {
  it('returns the same view for no events and skips events at or below lastSeq', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    const v0 = createView();
    expect(reduce(v0, [])).toBe(v0);
    const v1 = reduce(v0, s.events);
    expect(v1.lastSeq).toBe(s.seq);
    expect(reduce(v1, s.events)).toBe(v1);
    expect(reduce(v1, s.events.slice(-2))).toBe(v1);
  });

  it('never mutates its input (a deep-frozen view reduces without throwing)', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    s.reconcileCycle('pods', 'default/obj-1', { outcome: 'error', error: 'boom' });
    const v1 = deepFreeze(reduce(createView(), s.events));
    const before = json(v1);
    const from = s.events.length;
    s.reconcileCycle('pods', 'default/obj-1', { attempt: 2 });
    s.emit({
      kind: 'reflector.watchEnd',
      informer: 'v1/Pod',
      resourceVersion: '300',
      events: 0,
      durationMs: 10,
      reason: 'expired',
    });
    const v2 = reduce(v1, s.since(from));
    expect(json(v1)).toEqual(before);
    expect(v2).not.toBe(v1);
  });

  it('keeps identity of untouched parts so the UI can skip re-rendering them', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 2);
    s.reconcileCycle('pods', 'default/a');
    const v1 = reduce(createView(), s.events);
    const from = s.events.length;
    s.reconcileCycle('pods', 'default/b');
    const v2 = reduce(v1, s.since(from));
    expect(v2.informers['v1/Pod']).toBe(v1.informers['v1/Pod']);
    expect(v2.controllers.pods?.keys['default/a']).toBe(v1.controllers.pods?.keys['default/a']);
  });

  it('keeps unknown kinds from a newer server in the log and otherwise ignores them', () => {
    const ev = { kind: 'future.thing', seq: 1, ts: 5 } as unknown as StampedEvent;
    const v = reduce(createView(), [ev]);
    expect(v.log).toHaveLength(1);
    expect(v.lastSeq).toBe(1);
  });
});

describe('informer view', () => {
  it('follows the initial list, the sync and the watch', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 5);
    const inf = reduce(createView(), s.events).informers['v1/Pod'];
    expect(inf).toMatchObject({
      state: 'watching',
      synced: true,
      syncedItems: 5,
      storeSize: 5,
      fifoLength: 0,
      pendingKeys: 0,
    });
    expect(inf?.counters).toMatchObject({ lists: 1, relists: 0, watches: 1 });
    expect(inf?.counters.deltas.Replaced).toBe(5);
    expect(inf?.history.map((h) => h.type)).toEqual(['list', 'watch']);
    expect(inf?.lastResourceVersion).toBe('200');
  });

  it('counts a 410 by its error alone (the watch end marks its session) and brackets the relist', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 2);
    const I = 'v1/Pod';
    s.emit({
      kind: 'reflector.event',
      informer: I,
      type: 'MODIFIED',
      ref: { gvk: 'v1/Pod', namespace: 'default', name: 'obj-0', resourceVersion: '201' },
    });
    s.emit({ kind: 'reflector.bookmark', informer: I, resourceVersion: '250' });
    s.emit({ kind: 'reflector.error', informer: I, code: 410, reason: 'Expired', message: 'too old resource version' });
    s.emit({
      kind: 'reflector.watchEnd',
      informer: I,
      resourceVersion: '250',
      events: 1,
      durationMs: 100,
      reason: 'expired',
    });
    s.emit({ kind: 'reflector.state', informer: I, from: 'watching', to: 'relisting', reason: '410 Expired' });
    s.emit({ kind: 'reflector.listBegin', informer: I, resourceVersion: '', relist: true, cause: '410 Expired' });
    s.emit({
      kind: 'reflector.listEnd',
      informer: I,
      resourceVersion: '400',
      items: 3112,
      pages: 4,
      durationMs: 90,
      relist: true,
      deletedFromRelist: 2,
    });
    s.emit({ kind: 'reflector.backoff', informer: I, delayMs: 800 });
    const inf = reduce(createView(), s.events).informers[I];
    expect(inf?.counters).toMatchObject({
      expired: 1,
      errors: 1,
      relists: 1,
      relistReplaced: 3112,
      relistDeleted: 2,
      bookmarks: 1,
      watchEvents: 1,
      backoffs: 1,
    });
    const watch = inf?.history.find((h) => h.type === 'watch');
    expect(watch).toMatchObject({ expired: true, bookmarks: 1, lastBookmarkRv: '250', events: 1, reason: 'expired' });
    const relist = inf?.history.find((h) => h.type === 'list' && h.relist);
    expect(relist).toMatchObject({ replaced: 3112, deleted: 2, cause: '410 Expired' });
    expect(inf?.backoffUntil).toBe(s.ts + 800);
    expect(inf?.state).toBe('relisting');
  });

  it('a watch 410, as the runtime reports it (the watch ends expired, then the error), is one notable and one count', () => {
    const s = new EventScript();
    const I = 'v1/Pod';
    s.informerStartup(I, I, 2);
    const from = s.events.length;
    s.emit({
      kind: 'reflector.watchEnd',
      informer: I,
      resourceVersion: '250',
      events: 0,
      durationMs: 9,
      reason: 'expired',
    });
    s.emit({ kind: 'reflector.error', informer: I, code: 410, reason: 'Expired', message: 'too old resource version' });
    const view = reduce(createView(), s.events);
    const about410 = view.notable.filter((n) => n.seq > (s.events[from - 1]?.seq ?? 0) && /\b410\b/.test(n.text));
    expect(about410).toHaveLength(1);
    expect(view.informers[I]?.counters.expired).toBe(1);
    expect(view.informers[I]?.history.find((h) => h.type === 'watch')).toMatchObject({ expired: true });
  });

  it('a 410 on a list (its version compacted away) counts as expired too', () => {
    const s = new EventScript();
    const I = 'v1/Pod';
    s.informerStartup(I, I, 2);
    s.emit({ kind: 'reflector.listBegin', informer: I, resourceVersion: '10', relist: true, cause: 'watch closed' });
    s.emit({ kind: 'reflector.error', informer: I, code: 410, reason: 'Expired', message: 'too old resource version' });
    expect(reduce(createView(), s.events).informers[I]?.counters.expired).toBe(1);
  });

  it('tracks pending deltas per key until popped, within the cap', () => {
    const s = new EventScript();
    const I = 'v1/ConfigMap';
    const ref = (n: string) => ({ gvk: 'v1/ConfigMap', namespace: 'ns', name: n });
    s.emit({
      kind: 'fifo.delta',
      informer: I,
      delta: 'Added',
      key: 'ns/a',
      ref: ref('a'),
      pendingForKey: 1,
      queueLength: 1,
    });
    s.emit({
      kind: 'fifo.delta',
      informer: I,
      delta: 'Updated',
      key: 'ns/a',
      ref: ref('a'),
      pendingForKey: 2,
      queueLength: 1,
    });
    s.emit({
      kind: 'fifo.delta',
      informer: I,
      delta: 'Deleted',
      key: 'ns/b',
      ref: ref('b'),
      pendingForKey: 1,
      queueLength: 2,
      tombstone: true,
    });
    s.emit({
      kind: 'fifo.delta',
      informer: I,
      delta: 'Added',
      key: 'ns/c',
      ref: ref('c'),
      pendingForKey: 1,
      queueLength: 3,
    });
    const v = reduce(createView({ maxPendingKeysPerInformer: 2 }), s.events);
    const inf = v.informers[I];
    expect(inf?.pending['ns/a']).toMatchObject({ count: 2, types: ['Added', 'Updated'] });
    expect(inf?.pending['ns/b']?.tombstone).toBe(true);
    expect(inf?.pendingKeys).toBe(2);
    expect(inf?.pendingOverflow).toBe(1);
    const from = s.events.length;
    s.emit({ kind: 'fifo.pop', informer: I, key: 'ns/a', deltas: ['Added', 'Updated'], queueLength: 2, durationMs: 1 });
    s.emit({ kind: 'fifo.pop', informer: I, key: 'ns/c', deltas: ['Added'], queueLength: 1, durationMs: 1 });
    const inf2 = reduce(v, s.since(from)).informers[I];
    expect(Object.keys(inf2?.pending ?? {})).toEqual(['ns/b']);
    expect(inf2).toMatchObject({ pendingKeys: 1, pendingOverflow: 0, fifoLength: 1 });
    expect(inf2?.counters.tombstones).toBe(1);
  });
});

describe('controller view', () => {
  it('moves a key through ready, processing (dirty), ready, idle and waiting', () => {
    const s = new EventScript();
    const C = 'pods';
    const K = 'default/a';
    const depth = { ready: 0, waiting: 0, processing: 0 };
    let v = createView();
    const step = (ev: Parameters<EventScript['emit']>[0]) => {
      v = reduce(v, [s.emit(ev)]);
      return v.controllers[C]?.keys[K];
    };
    expect(
      step({
        kind: 'queue.add',
        queue: C,
        key: K,
        cause: { type: 'event', eventType: 'create' },
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ...depth, ready: 1 },
      })?.state,
    ).toBe('ready');
    expect(
      step({
        kind: 'queue.add',
        queue: C,
        key: K,
        cause: { type: 'resync' },
        queued: false,
        dirtyWhileProcessing: false,
        depth: { ...depth, ready: 1 },
      })?.pendingCauses,
    ).toHaveLength(2);
    expect(step({ kind: 'queue.get', queue: C, key: K, waitMs: 3, depth: { ...depth, processing: 1 } })?.state).toBe(
      'processing',
    );
    const dirty = step({
      kind: 'queue.add',
      queue: C,
      key: K,
      cause: { type: 'owner', eventType: 'update' },
      queued: false,
      dirtyWhileProcessing: true,
      depth: { ...depth, processing: 1 },
    });
    expect(dirty).toMatchObject({ state: 'processing', dirty: true });
    expect(
      step({ kind: 'queue.done', queue: C, key: K, processingMs: 5, requeued: true, depth: { ...depth, ready: 1 } }),
    ).toMatchObject({ state: 'ready', dirty: false });
    step({ kind: 'queue.get', queue: C, key: K, waitMs: 0, depth: { ...depth, processing: 1 } });
    expect(step({ kind: 'queue.done', queue: C, key: K, processingMs: 5, requeued: false, depth })?.state).toBe('idle');
    const waiting = step({
      kind: 'queue.addAfter',
      queue: C,
      key: K,
      cause: { type: 'errorBackoff', detail: 'x' },
      delayMs: 40,
      readyAt: s.ts + 40,
      requeues: 3,
      depth: { ...depth, waiting: 1 },
    });
    expect(waiting).toMatchObject({ state: 'waiting', requeues: 3, nextRetryAt: s.ts + 40 });
    expect(step({ kind: 'queue.forget', queue: C, key: K })?.requeues).toBe(0);
    const c = v.controllers[C];
    expect(c).toMatchObject({ adds: 3, dedupedAdds: 2, retries: 1, depth: { waiting: 1 } });
    expect(c?.causes).toMatchObject({ event: 1, resync: 1, owner: 1, errorBackoff: 1 });
  });

  it('records every cause a reconcile absorbed, outcomes, the histogram and active workers', () => {
    const s = new EventScript();
    s.reconcileCycle('pods', 'default/a', {
      cause: { type: 'event', eventType: 'update', source: { gvk: 'v1/Pod', namespace: 'default', name: 'a' } },
      extraCauses: [{ type: 'owner', eventType: 'update' }, { type: 'resync' }],
      durationMs: 30,
    });
    s.reconcileCycle('pods', 'default/a', { outcome: 'error', error: 'conflict', durationMs: 70_000, attempt: 1 });
    const c = reduce(createView(), s.events).controllers.pods;
    const k = c?.keys['default/a'];
    expect(k?.history).toHaveLength(2);
    expect(k?.history[0]?.causes.map((x) => x.type)).toEqual(['event', 'owner', 'resync']);
    expect(k?.history[0]).toMatchObject({ outcome: 'success', durationMs: 30 });
    expect(k?.lastReconcile).toMatchObject({ outcome: 'error', error: 'conflict' });
    expect(k).toMatchObject({ state: 'waiting', requeues: 1, reconciles: 2 });
    expect(c?.reconciles).toMatchObject({ success: 1, error: 1 });
    expect(c?.histogram.buckets).toEqual(RECONCILE_TIME_BUCKETS);
    expect(c?.histogram.counts[RECONCILE_TIME_BUCKETS.indexOf(0.05)]).toBe(1); // 30 ms <= 50 ms
    expect(c?.histogram.counts[RECONCILE_TIME_BUCKETS.length]).toBe(1); // 70 s → +Inf
    expect(c?.histogram.count).toBe(2);
    expect(c?.activeWorkers).toBe(0);
    expect(c?.lastError).toBe('conflict');
  });

  it("does not absorb a matured delayed entry's cause twice", () => {
    const s = new EventScript();
    const depth = { ready: 0, waiting: 1, processing: 0 };
    const cause = { type: 'requeueAfter' as const };
    s.emit({ kind: 'queue.addAfter', queue: 'c', key: 'k', cause, delayMs: 10, readyAt: s.ts + 10, depth });
    s.advance(10);
    s.emit({
      kind: 'queue.add',
      queue: 'c',
      key: 'k',
      cause,
      queued: true,
      dirtyWhileProcessing: false,
      matured: true,
      depth: { ...depth, waiting: 0, ready: 1 },
    });
    const c = reduce(createView(), s.events).controllers.c;
    expect(c?.keys.k?.pendingCauses).toEqual([cause]);
    expect(c?.keys.k?.state).toBe('ready');
    expect(c?.causes.requeueAfter).toBe(1);
    expect(c?.adds).toBe(1);
  });

  it('forgets a delay an add cancelled (priority queue) but keeps one that still fires (delaying queue)', () => {
    const run = (delayCancelled: boolean) => {
      const s = new EventScript();
      const depth = { ready: 0, waiting: 0, processing: 0 };
      const readyAt = s.ts + 5_000;
      const cause = { type: 'requeueAfter' as const };
      s.emit({ kind: 'queue.addAfter', queue: 'c', key: 'k', cause, delayMs: 5_000, readyAt, depth });
      s.advance(2_000);
      s.emit({
        kind: 'queue.add',
        queue: 'c',
        key: 'k',
        cause: { type: 'event', eventType: 'update' },
        queued: true,
        dirtyWhileProcessing: false,
        ...(delayCancelled ? { delayCancelled } : {}),
        depth: { ...depth, ready: 1 },
      });
      s.emit({ kind: 'queue.get', queue: 'c', key: 'k', waitMs: 0, depth: { ...depth, processing: 1 } });
      s.advance(80);
      s.emit({ kind: 'queue.done', queue: 'c', key: 'k', processingMs: 80, requeued: false, depth });
      return { k: reduce(createView(), s.events).controllers.c?.keys.k, readyAt };
    };
    const cancelled = run(true);
    expect(cancelled.k?.state).toBe('idle');
    expect(cancelled.k?.nextRetryAt).toBeUndefined();
    const pending = run(false);
    expect(pending.k).toMatchObject({ state: 'waiting', nextRetryAt: pending.readyAt });
  });

  it('shows a worker busy between reconcile start and end', () => {
    const s = new EventScript();
    s.emit({ kind: 'reconcile.start', controller: 'c', key: 'k', worker: 2, causes: [], attempt: 1 });
    const v = reduce(createView(), s.events);
    expect(v.controllers.c?.activeWorkers).toBe(1);
    expect(v.controllers.c?.workerStates['2']).toMatchObject({ key: 'k' });
  });
});

describe('hot-loop detection', () => {
  const own = { gvk: 'demo.io/v1/Widget', namespace: 'default', name: 'w' };

  it('flags a key re-triggered by its own status writes, with the write as evidence', () => {
    const s = new EventScript();
    // Each reconcile's status write makes the version the next reconcile's event delivers.
    for (let i = 0; i < 12; i++) {
      s.reconcileCycle('widgets', 'default/w', {
        cause: { type: 'event', eventType: 'update', source: { ...own, resourceVersion: String(i) } },
        writes: [{ verb: 'updateStatus', ref: { ...own, resourceVersion: String(i + 1) } }],
      });
      s.advance(200);
    }
    const c = reduce(createView(), s.events).controllers.widgets;
    const loop = c?.keys['default/w']?.hotLoop;
    expect(loop).toBeDefined();
    expect(loop?.reconcilesInWindow).toBeGreaterThan(10);
    // The first two reconciles only start the chain (an outside event, then the first self-caused one).
    expect(loop?.selfRatio).toBeGreaterThanOrEqual(0.8);
    expect(loop?.evidence.at(-1)?.write).toMatchObject({ verb: 'updateStatus', key: 'default/w' });
    expect(c?.hotLoops.map((h) => h.key)).toEqual(['default/w']);
    expect(c?.keys['default/w']?.lastReconcile?.writes).toBe(1);
  });

  it('does not flag a controller that writes once per outside event and then settles', () => {
    // The replicaset-owner pattern: an outside change makes it write; its own write wakes it once more and it
    // finds nothing to do. Half its reconciles are self-caused, but none continues a chain.
    const s = new EventScript();
    const other = { gvk: 'v1/Pod', namespace: 'default', name: 'p' };
    for (let i = 0; i < 12; i++) {
      s.reconcileCycle('widgets', 'default/w', {
        cause: { type: 'owner', eventType: 'update', source: { ...other, resourceVersion: String(2 * i + 1) } },
        writes: [{ verb: 'patch', ref: { ...own, resourceVersion: String(2 * i + 2) } }],
      });
      s.advance(100);
      s.reconcileCycle('widgets', 'default/w', {
        cause: { type: 'event', eventType: 'update', source: { ...own, resourceVersion: String(2 * i + 2) } },
      });
      s.advance(100);
    }
    const c = reduce(createView(), s.events).controllers.widgets;
    expect(c?.keys['default/w']?.history.some((r) => r.selfCaused)).toBe(true);
    expect(c?.keys['default/w']?.hotLoop).toBeUndefined();
    expect(c?.hotLoops).toEqual([]);
  });

  it('does not flag a key reconciled often because of other actors', () => {
    const s = new EventScript();
    for (let i = 0; i < 15; i++) {
      s.reconcileCycle('widgets', 'default/w', { cause: { type: 'event', eventType: 'update', source: own } });
      s.advance(200);
    }
    expect(reduce(createView(), s.events).controllers.widgets?.keys['default/w']?.hotLoop).toBeUndefined();
  });

  it('clears the flag once the loop calms down', () => {
    const s = new EventScript();
    for (let i = 0; i < 12; i++) {
      s.reconcileCycle('widgets', 'default/w', {
        cause: { type: 'event', eventType: 'update', source: { ...own, resourceVersion: String(i) } },
        writes: [{ verb: 'updateStatus', ref: { ...own, resourceVersion: String(i + 1) } }],
      });
      s.advance(100);
    }
    const v = reduce(createView(), s.events);
    expect(v.controllers.widgets?.hotLoops).toHaveLength(1);
    const from = s.events.length;
    s.advance(60_000);
    s.reconcileCycle('widgets', 'default/w', { cause: { type: 'event', eventType: 'update', source: own } });
    const v2 = reduce(v, s.since(from));
    expect(v2.controllers.widgets?.hotLoops).toHaveLength(0);
    expect(v2.controllers.widgets?.keys['default/w']?.hotLoop).toBeUndefined();
    expect(v2.notable.some((n) => n.text.includes('hot loop ended'))).toBe(true);
  });
});

describe('bounds', () => {
  it('caps keys per controller, history, log, notable and series', () => {
    const s = new EventScript();
    for (let i = 0; i < 300; i++) {
      s.reconcileCycle('c', `ns/k${i % 120}`, { outcome: i % 7 === 0 ? 'error' : 'success' });
      s.advance(1500);
    }
    const limits = {
      maxKeysPerController: 50,
      maxReconcilesPerKey: 2,
      maxLogEntries: 40,
      seriesPoints: 30,
      maxNotable: 5,
    };
    const v = reduce(createView(limits), s.events);
    const c = v.controllers.c;
    expect(Object.keys(c?.keys ?? {}).length).toBeLessThanOrEqual(50);
    expect(c?.keyCount).toBe(Object.keys(c?.keys ?? {}).length);
    expect(c?.evictedKeys).toBeGreaterThan(0);
    for (const k of Object.values(c?.keys ?? {})) expect(k.history.length).toBeLessThanOrEqual(2);
    expect(v.log).toHaveLength(40);
    expect(v.log.at(-1)?.seq).toBe(s.seq);
    expect(c?.series).toHaveLength(30);
    expect(v.notable.length).toBeLessThanOrEqual(5);
    expect(c?.totalReconciles).toBe(300);
  });

  it('fills series gaps with empty points and keeps gauges', () => {
    const s = new EventScript({ ts: 1_000_000 });
    s.reconcileCycle('c', 'k');
    s.advance(5_000);
    s.reconcileCycle('c', 'k');
    const series = reduce(createView(), s.events).controllers.c?.series ?? [];
    const ts = series.map((p) => p.t);
    for (let i = 1; i < ts.length; i++) expect((ts[i] as number) - (ts[i - 1] as number)).toBe(1000);
    expect(series.reduce((n, p) => n + p.reconciles, 0)).toBe(2);
  });
});

describe('batching does not change the result', () => {
  function workload(): StampedEvent[] {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 30);
    const own = { gvk: 'v1/Pod', namespace: 'default', name: 'obj-1' };
    for (let i = 0; i < 60; i++) {
      s.reconcileCycle('pods', `default/obj-${i % 25}`, {
        outcome: i % 9 === 0 ? 'error' : 'success',
        worker: i % 3,
        cause: { type: 'event', eventType: 'update', source: own },
        writes: i % 2 ? [{ verb: 'updateStatus', ref: own }] : [],
      });
      s.advance(i % 10 === 0 ? 3000 : 150);
    }
    s.emit({ kind: 'reflector.error', informer: 'v1/Pod', code: 410, reason: 'Expired', message: 'gone' });
    return s.events;
  }
  const events = workload();
  const limits = {
    maxKeysPerController: 12,
    maxLogEntries: 50,
    seriesPoints: 20,
    maxWritesPerController: 3,
    hotLoopThreshold: 4,
  };
  const whole = json(reduce(createView(limits), events));

  it('any split into batches reaches the same view as one batch, also across a JSON round trip', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: events.length - 1 }), { maxLength: 12 }),
        fc.boolean(),
        (cuts, viaJson) => {
          const points = [0, ...cuts.sort((a, b) => a - b), events.length];
          let v = createView(limits);
          for (let i = 0; i + 1 < points.length; i++) {
            v = reduce(v, events.slice(points[i], points[i + 1]));
            if (viaJson) v = JSON.parse(JSON.stringify(v)) as RuntimeView;
          }
          expect(json(v)).toEqual(whole);
        },
      ),
      { numRuns: 40 },
    );
  });
});
