import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { recordedView } from '../../fixtures/recorded-view';
import { latestJourney } from './learn-series';

describe('latestJourney', () => {
  const view = recordedView();

  it('follows one object from the watch event to the end of its reconcile, in order', () => {
    const j = latestJourney(view.log, 'pod-counter');
    expect(j).toBeDefined();
    const blocks = j?.steps.map((s) => s.block) ?? [];
    expect(blocks[0]).toBe('Reflector');
    const order = ['Reflector', 'DeltaFIFO', 'Indexer', 'Informer', 'Handler', 'Workqueue', 'Worker', 'Reconciler'];
    let last = -1;
    for (const b of order) {
      const i = blocks.indexOf(b as (typeof blocks)[number]);
      expect(i, b).toBeGreaterThan(last);
      last = i;
    }
    // Every step about the object carries the version the reconcile's cause names.
    const rv = /at rv (\d+)/.exec(j?.steps[0]?.text ?? '')?.[1];
    expect(rv).toBeDefined();
    for (const s of j?.steps ?? []) {
      if (['Reflector', 'DeltaFIFO', 'Indexer', 'Informer', 'Handler'].includes(s.block) && /rv \d+/.test(s.text))
        expect(s.text, s.text).toContain(`rv ${rv}`);
    }
  });

  it('walks a delete through the delete’s own events: DELETED at its RV, not the MODIFIED before it', () => {
    const depth = { ready: 0, waiting: 0, processing: 0 };
    const change = (del: boolean, rv: string): RuntimeEvent[] => {
      const ref = { gvk: 'v1/ConfigMap', namespace: 'demo', name: 'cm', uid: 'u', resourceVersion: rv };
      const cause = { type: 'event', eventType: del ? 'delete' : 'update', source: ref } as const;
      const informer = 'v1/ConfigMap';
      // As the TS runtime emits them: the watch event after its delta, the pop after the cache op.
      return [
        {
          kind: 'fifo.delta',
          informer,
          delta: del ? 'Deleted' : 'Updated',
          key: 'demo/cm',
          ref,
          pendingForKey: 1,
          queueLength: 1,
        },
        { kind: 'reflector.event', informer, type: del ? 'DELETED' : 'MODIFIED', ref },
        { kind: 'indexer.update', informer, op: del ? 'delete' : 'update', key: 'demo/cm', ref, size: 1 },
        {
          kind: 'fifo.pop',
          informer,
          key: 'demo/cm',
          deltas: [del ? 'Deleted' : 'Updated'],
          queueLength: 0,
          durationMs: 0,
        },
        {
          kind: 'informer.notify',
          informer,
          handler: 'w / EnqueueRequestForObject',
          type: del ? 'delete' : 'update',
          ref,
        },
        { kind: 'queue.add', queue: 'w', key: 'demo/cm', cause, queued: true, dirtyWhileProcessing: false, depth },
        { kind: 'queue.get', queue: 'w', key: 'demo/cm', waitMs: 0, depth },
        { kind: 'reconcile.start', controller: 'w', key: 'demo/cm', worker: 0, causes: [cause], attempt: 1 },
        { kind: 'reconcile.end', controller: 'w', key: 'demo/cm', worker: 0, durationMs: 1, outcome: 'success' },
      ];
    };
    // The update reached the handler and a predicate dropped it (so no reconcile ended in between).
    const log = [...change(false, '196').slice(0, 5), ...change(true, '197')].map(
      (e, i) => ({ ...e, seq: i + 1, ts: i }) as StampedEvent,
    );
    const texts = latestJourney(log, 'w')?.steps.map((s) => s.text) ?? [];
    expect(texts.slice(0, 5)).toEqual([
      'watch delivered DELETED v1/ConfigMap demo/cm at rv 197',
      'queued a Deleted delta at rv 197 (1 pending for this key, 1 keys queued)',
      'popped [Deleted] for processing',
      'delete at rv 197 in the cache (now 1 objects)',
      'told handler w / EnqueueRequestForObject: onDelete at rv 197',
    ]);
  });

  it('starts from the watch event when the reflector reports it after queueing its delta, as the runtime does', () => {
    // Move every watch event to just after the delta it caused, and drop the pops (RealFIFO reports none
    // per key in this order).
    const log = view.log.filter((e) => e.kind !== 'fifo.pop');
    for (let i = 0; i < log.length; i++) {
      const ev = log[i];
      if (ev?.kind !== 'reflector.event') continue;
      const j = log.findIndex((e, k) => k > i && e.kind === 'fifo.delta');
      if (j < 0) continue;
      log.splice(i, 1);
      log.splice(j, 0, ev);
    }
    const j = latestJourney(log, 'pod-counter');
    expect(j?.steps[0]?.block).toBe('Reflector');
    expect(j?.steps[1]?.block).toBe('DeltaFIFO');
  });

  it('only includes events of the chosen controller', () => {
    const j = latestJourney(view.log, 'pod-counter');
    for (const s of j?.steps ?? []) expect(s.text).not.toMatch(/^(flaky|hot-loop):/);
  });

  it('passes over skipped (hot-looping) keys', () => {
    const j = latestJourney(view.log, 'hot-loop', new Set(['default/web-001']));
    expect(j?.key).not.toBe('default/web-001');
  });

  it('is undefined before any reconcile ended', () => {
    expect(latestJourney([])).toBeUndefined();
  });
});
