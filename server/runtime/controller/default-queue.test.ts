// The controller on its real default queues (priority queue; rate-limiting queue by option), on a fake clock.
import { describe, expect, it } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc, requestKey, type Result } from '../reconcile/reconcile';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { setRuntimeDefaults } from '../upstream';
import { PriorityQueue } from '../workqueue/priority-queue';
import { Controller } from './controller';

for (const usePriorityQueue of [true, false]) {
  describe(`controller on the ${usePriorityQueue ? 'priority' : 'rate-limiting'} queue`, () => {
    it('retries an error after the backoff, then forgets; reports queue metrics under the controller name', async () => {
      const clock = new FakeClock();
      const registry = newRegistry(false);
      const probe = new RecordingProbe();
      const results: (Result | Error)[] = [new Error('first'), {}];
      const seen: number[] = [];
      const c = new Controller({
        name: 'real-queue',
        registry,
        clock,
        probe,
        usePriorityQueue,
        reconciler: reconcileFunc(async () => {
          seen.push(clock.now());
          const r = results.shift() ?? {};
          if (r instanceof Error) throw r;
          return r;
        }),
      });
      const ac = new AbortController();
      const run = c.start(ac.signal);
      await flushMicrotasks();
      c.requeue('ns/a');
      await clock.advance(1);
      expect(seen).toHaveLength(1);
      await clock.advance(5);
      await flushMicrotasks();
      expect(seen).toHaveLength(2);
      expect((seen[1] ?? 0) - (seen[0] ?? 0)).toBeGreaterThanOrEqual(5);
      const starts = probe.ofKind('reconcile.start');
      expect(starts[1]).toMatchObject({ attempt: 2, causes: [{ type: 'errorBackoff', detail: 'first' }] });
      expect(c.getQueue()?.numRequeues({ namespace: 'ns', name: 'a' })).toBe(0);
      const adds = await registry.getSingleMetric('workqueue_adds_total')?.get();
      expect(adds?.values.find((v) => v.labels.name === 'real-queue')?.value).toBe(2);
      ac.abort();
      await run;
      expect(requestKey({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    });
  });
}

describe('the queue a controller gets without options', () => {
  it('is the priority queue (v0.23 and later), and the rate-limiting queue with the v0.21 defaults', async () => {
    const build = async () => {
      const c = new Controller({
        name: 'q',
        registry: newRegistry(false),
        clock: new FakeClock(),
        reconciler: reconcileFunc(async () => ({})),
      });
      const ac = new AbortController();
      const run = c.start(ac.signal);
      await flushMicrotasks();
      const q = c.getQueue();
      ac.abort();
      await run;
      return q;
    };
    expect(await build()).toBeInstanceOf(PriorityQueue);
    const saved = setRuntimeDefaults('v0.21');
    try {
      expect(await build()).not.toBeInstanceOf(PriorityQueue);
    } finally {
      setRuntimeDefaults(saved);
    }
  });
});
