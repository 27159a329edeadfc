// One source of truth for queued keys: the real priority queue's events, reduced by the shared reducer, give
// per-key states whose counts equal the depth the queue itself reports, under any interleaving of adds,
// delayed adds, rate-limited adds, gets, dones and time passing. The Overview shows the queue's depth and the
// Workqueue panel's filters count keys, so a disagreement here is two numbers disagreeing on screen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../shared/protocol/events';
import { keyCounts, queueCounts } from '../../shared/protocol/queue-counts';
import { reduce } from '../../shared/protocol/reduce';
import { createView } from '../../shared/protocol/view';
import type { RuntimeView } from '../../shared/protocol/view';
import { PriorityQueue } from '../../server/runtime/workqueue/priority-queue';
import { FakeClock } from '../../server/runtime/testing/fake-clock';

type Op =
  | { op: 'add'; key: number }
  | { op: 'addAfter'; key: number; ms: number }
  | { op: 'addRateLimited'; key: number }
  | { op: 'get' }
  | { op: 'done'; which: number }
  | { op: 'step'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), key: fc.integer({ min: 0, max: 5 }) }),
  fc.record({
    op: fc.constant('addAfter' as const),
    key: fc.integer({ min: 0, max: 5 }),
    ms: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({ op: fc.constant('addRateLimited' as const), key: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ op: fc.constant('get' as const) }),
  fc.record({ op: fc.constant('done' as const), which: fc.nat() }),
  fc.record({ op: fc.constant('step' as const), ms: fc.integer({ min: 1, max: 60 }) }),
);

async function run(
  ops: readonly Op[],
): Promise<{ view: RuntimeView; depth: ReturnType<PriorityQueue<string>['depth']> }> {
  const clock = new FakeClock();
  let seq = 0;
  const events: StampedEvent[] = [];
  const probe = {
    enabled: true,
    emit: (ev: RuntimeEvent) => events.push({ ...ev, seq: ++seq, ts: clock.now() } as StampedEvent),
  };
  const q = new PriorityQueue<string>({ name: 'c', clock, probe });
  const held: string[] = [];
  for (const o of ops) {
    switch (o.op) {
      case 'add':
        q.add(`k${o.key}`);
        break;
      case 'addAfter':
        q.addAfter(`k${o.key}`, o.ms);
        break;
      case 'addRateLimited':
        q.addRateLimited(`k${o.key}`);
        break;
      case 'get':
        // A worker asks; it may wait (nothing ready, or only keys that are being processed) and takes the
        // next item handed out, as a controller's idle worker does.
        void q.get().then((r) => {
          if (!r.shutdown) held.push(r.item);
        });
        break;
      case 'done':
        if (held.length > 0) q.done(held.splice(o.which % held.length, 1)[0] as string);
        break;
      case 'step':
        clock.step(o.ms);
        break;
    }
    for (let i = 0; i < 3; i++) await Promise.resolve();
  }
  return { view: reduce(createView(), events), depth: q.depth() };
}

describe('queued keys: per-key states agree with the queue depth', () => {
  it('a key re-added while a worker holds it is counted ready, as the queue counts it', async () => {
    const { view, depth } = await run([{ op: 'add', key: 1 }, { op: 'get' }, { op: 'add', key: 1 }]);
    const c = view.controllers.c;
    expect(depth).toEqual({ ready: 1, waiting: 0, processing: 1 });
    expect(c && keyCounts(c)).toEqual({ ready: 1, waiting: 0, processing: 1, queued: 1 });
    expect(c && queueCounts(c)).toEqual(c && keyCounts(c));
  });

  it('under any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 60 }), async (ops) => {
        const { view, depth } = await run(ops);
        const c = view.controllers.c;
        if (!c) return;
        expect(c.depth).toEqual(depth);
        expect(keyCounts(c)).toEqual(queueCounts(c));
      }),
      { numRuns: 500 },
    );
  });
});
