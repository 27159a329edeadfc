// The reducer faces whatever order the runtime (or a truncated ring, or a resumed client) produces: ends
// without starts, pops without deltas, unknown keys. It must never throw and must stay within its caps.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RuntimeEvent, StampedEvent } from './events';
import type { DeltaType } from './events-cache';
import { eventProblem } from './event-check';
import { reduce, ReduceSession } from './reduce';
import { createView } from './view';

const key = fc.constantFrom('a/x', 'a/y', 'b/z', 'w', 'a/q', 'b/r');
const ref = key.map((k) => {
  const [ns, name] = k.includes('/') ? k.split('/') : [undefined, k];
  return { gvk: 'v1/Pod', name: name as string, ...(ns ? { namespace: ns } : {}), resourceVersion: '1' };
});
const depth = fc.record({ ready: fc.nat(5), waiting: fc.nat(5), processing: fc.nat(5) });
const cause = fc.record({
  type: fc.constantFrom('event', 'owner', 'requeue', 'errorBackoff', 'resync', 'manual' as const),
  eventType: fc.constantFrom('create', 'update', 'delete' as const),
  source: ref,
});
const ctl = fc.constantFrom('c1', 'c2');
const inf = fc.constantFrom('v1/Pod', 'apps/v1/Deployment');

const event: fc.Arbitrary<RuntimeEvent> = fc.oneof(
  fc.record({
    kind: fc.constant('queue.add' as const),
    queue: ctl,
    key,
    cause,
    queued: fc.boolean(),
    dirtyWhileProcessing: fc.boolean(),
    depth,
  }),
  fc.record({
    kind: fc.constant('queue.addAfter' as const),
    queue: ctl,
    key,
    cause,
    delayMs: fc.nat(1000),
    readyAt: fc.nat(),
    requeues: fc.nat(10),
    depth,
  }),
  fc.record({ kind: fc.constant('queue.get' as const), queue: ctl, key, waitMs: fc.nat(10), depth }),
  fc.record({
    kind: fc.constant('queue.done' as const),
    queue: ctl,
    key,
    processingMs: fc.nat(10),
    requeued: fc.boolean(),
    depth,
  }),
  fc.record({ kind: fc.constant('queue.forget' as const), queue: ctl, key }),
  fc.record({
    kind: fc.constant('reconcile.start' as const),
    controller: ctl,
    key,
    worker: fc.nat(3),
    causes: fc.array(cause, { maxLength: 4 }),
    attempt: fc.nat(5),
  }),
  fc.record({
    kind: fc.constant('reconcile.end' as const),
    controller: ctl,
    key,
    worker: fc.nat(3),
    durationMs: fc.nat(100_000),
    outcome: fc.constantFrom('success', 'requeue', 'requeueAfter', 'error', 'terminalError', 'panic' as const),
  }),
  fc.record({
    kind: fc.constant('client.request' as const),
    controller: ctl,
    verb: fc.constantFrom('update', 'updateStatus', 'get' as const),
    ref,
    cached: fc.boolean(),
    durationMs: fc.nat(5),
  }),
  fc.record({
    kind: fc.constant('fifo.delta' as const),
    informer: inf,
    delta: fc.constantFrom('Added', 'Updated', 'Deleted', 'Replaced', 'Sync' as const),
    key,
    ref,
    pendingForKey: fc.nat(4),
    queueLength: fc.nat(9),
  }),
  fc.record({
    kind: fc.constant('fifo.pop' as const),
    informer: inf,
    key,
    deltas: fc.constant([] as DeltaType[]),
    queueLength: fc.nat(9),
    durationMs: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('reflector.watchEnd' as const),
    informer: inf,
    resourceVersion: fc.constant('9'),
    events: fc.nat(9),
    durationMs: fc.nat(9),
    reason: fc.constantFrom('expired', 'timeout'),
  }),
  fc.record({
    kind: fc.constant('reflector.listEnd' as const),
    informer: inf,
    resourceVersion: fc.constant('9'),
    items: fc.nat(9),
    pages: fc.nat(2),
    durationMs: fc.nat(9),
    relist: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('reflector.error' as const),
    informer: inf,
    code: fc.constantFrom(0, 410, 500),
    reason: fc.constant('r'),
    message: fc.constant('m'),
  }),
  fc.record({
    kind: fc.constant('reflector.watchStart' as const),
    informer: inf,
    resourceVersion: fc.constant('1'),
    timeoutSeconds: fc.constant(300),
  }),
);

describe('reduce under arbitrary event orders', () => {
  it('never throws and respects every cap', () => {
    const limits = {
      maxKeysPerController: 4,
      maxPendingKeysPerInformer: 3,
      maxReconcilesPerKey: 2,
      maxCausesPerReconcile: 3,
      maxSessionHistory: 3,
      maxLogEntries: 10,
      seriesPoints: 5,
      maxWritesPerController: 2,
      hotLoopThreshold: 2,
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(event, fc.nat(3000)), { maxLength: 300 }), fc.nat(20), (items, batch) => {
        let ts = 1_000_000;
        const stamped = items.map(([e, dt], i) => ({ ...e, seq: i + 1, ts: (ts += dt) }) as StampedEvent);
        let v = createView(limits);
        const size = batch + 1;
        for (let i = 0; i < stamped.length; i += size) v = reduce(v, stamped.slice(i, i + size));
        expect(v.log.length).toBeLessThanOrEqual(10);
        for (const c of Object.values(v.controllers)) {
          expect(Object.keys(c.keys).length).toBe(c.keyCount);
          expect(c.keyCount).toBeLessThanOrEqual(4);
          expect(c.series.length).toBeLessThanOrEqual(5);
          expect(Object.keys(c.writes).length).toBeLessThanOrEqual(2);
          expect(c.activeWorkers).toBeLessThanOrEqual(4);
          for (const k of Object.values(c.keys)) {
            expect(k.history.length).toBeLessThanOrEqual(2);
            expect(k.pendingCauses.length).toBeLessThanOrEqual(3);
            for (const r of k.history) expect(r.causes.length).toBeLessThanOrEqual(3);
          }
          expect(c.histogram.counts.reduce((a, b) => a + b, 0)).toBe(c.histogram.count);
        }
        for (const i of Object.values(v.informers)) {
          expect(Object.keys(i.pending).length).toBe(i.pendingKeys);
          expect(i.pendingKeys).toBeLessThanOrEqual(3);
          expect(i.history.length).toBeLessThanOrEqual(3);
          expect(i.pendingOverflow).toBeGreaterThanOrEqual(0);
        }
        expect(JSON.parse(JSON.stringify(v))).toEqual(v);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same view for trusted events (no shape check) as for checked ones', () => {
    const limits = { maxKeysPerController: 4, maxPendingKeysPerInformer: 3, maxLogEntries: 10, seriesPoints: 5 };
    fc.assert(
      fc.property(fc.array(fc.tuple(event, fc.nat(3000)), { maxLength: 200 }), fc.nat(20), (items, batch) => {
        let ts = 1_000_000;
        const stamped = items.map(([e, dt], i) => ({ ...e, seq: i + 1, ts: (ts += dt) }) as StampedEvent);
        // What the runtime emits: every event well-formed.
        for (const ev of stamped) expect(eventProblem(ev)).toBeUndefined();
        const size = batch + 1;
        const session = new ReduceSession();
        let checked = createView(limits);
        let trusted = createView(limits);
        for (let i = 0; i < stamped.length; i += size) {
          const chunk = stamped.slice(i, i + size);
          checked = reduce(checked, chunk);
          trusted = reduce(trusted, chunk, session, { trusted: true });
        }
        expect(trusted).toEqual(checked);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same view through a private session, and never changes a view after share()', () => {
    const limits = { maxKeysPerController: 4, maxPendingKeysPerInformer: 3, maxLogEntries: 10, seriesPoints: 5 };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, fc.nat(3000)), { maxLength: 200 }),
        fc.nat(20),
        fc.nat(5),
        (items, batch, shareEvery) => {
          let ts = 1_000_000;
          const stamped = items.map(([e, dt], i) => ({ ...e, seq: i + 1, ts: (ts += dt) }) as StampedEvent);
          const size = batch + 1;
          const session = new ReduceSession();
          let plain = createView(limits);
          let owned = createView(limits);
          const handedOut: { view: ReturnType<typeof createView>; json: string }[] = [];
          for (let i = 0, n = 0; i < stamped.length; i += size, n++) {
            const chunk = stamped.slice(i, i + size);
            plain = reduce(plain, chunk);
            owned = reduce(owned, chunk, session);
            if (n % (shareEvery + 1) === 0) {
              session.share();
              handedOut.push({ view: owned, json: JSON.stringify(owned) });
            }
          }
          expect(owned).toEqual(plain);
          for (const h of handedOut) expect(JSON.stringify(h.view)).toBe(h.json);
        },
      ),
      { numRuns: 150 },
    );
  });
});
