// Scenarios of controller-runtime pkg/controller/priorityqueue/priorityqueue_test.go on a FakeClock. The
// metrics maps show depth per priority as upstream's fakeMetricsProvider does.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import type { TimerHandle } from '../util/clock';
import { PriorityQueue } from './priority-queue';
import { ItemExponentialFailureRateLimiter } from './rate-limiters';
import { FakePriorityMetricsProvider, flushMicrotasks, track } from '../testing/workqueue-helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A FakeClock that remembers the delay of every timer requested (upstream overrides q.tick to check it). */
class TickRecordingClock extends FakeClock {
  readonly ticks: number[] = [];
  override setTimer(fn: () => void, ms: number): TimerHandle {
    this.ticks.push(ms);
    return super.setTimer(fn, ms);
  }
}

function newQueue(clock = new TickRecordingClock()) {
  const metrics = new FakePriorityMetricsProvider();
  const q = new PriorityQueue<string>({ name: 'test', clock, metrics, unfinishedWorkUpdatePeriodMs: HOUR });
  clock.ticks.length = 0; // only the queue's ready timers matter, not the metrics updater's
  return { q, metrics, clock };
}

describe('priority queue (controller-runtime priorityqueue_test)', () => {
  it('returns an item', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    const r = await q.getWithPriority();
    expect(r.item).toBe('foo');
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(1);
    expect(metrics.retries.test).toBe(0);
  });

  it('returns items in order', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    q.addWithOpts({}, 'bar');
    expect((await q.getWithPriority()).item).toBe('foo');
    expect((await q.getWithPriority()).item).toBe('bar');
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(2);
  });

  it("doesn't return an item that is currently locked", async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    expect((await q.getWithPriority()).item).toBe('foo');
    q.addWithOpts({}, 'foo');
    q.addWithOpts({}, 'bar');
    expect((await q.getWithPriority()).item).toBe('bar');
    expect(metrics.depth.test).toEqual({ 0: 1 });
    expect(metrics.adds.test).toBe(3);
  });

  it('returns an item as soon as its unlocked', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    expect((await q.getWithPriority()).item).toBe('foo');
    q.addWithOpts({}, 'foo');
    q.addWithOpts({}, 'bar');
    expect((await q.getWithPriority()).item).toBe('bar');
    q.addWithOpts({}, 'baz');
    q.done('foo');
    expect((await q.getWithPriority()).item).toBe('foo');
    expect(metrics.depth.test).toEqual({ 0: 1 });
    expect(metrics.adds.test).toBe(4);
  });

  it('de-duplicates items', () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    q.addWithOpts({}, 'foo');
    expect(q.len()).toBe(1);
    expect(q.depth().processing).toBe(0);
    expect(metrics.depth.test).toEqual({ 0: 1 });
    expect(metrics.adds.test).toBe(1);
  });

  it('enqueues a locked item', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    expect(q.len()).toBe(1);
    let r = await q.getWithPriority();
    expect([r.item, r.priority, r.shutdown]).toEqual(['foo', 0, false]);
    q.addWithOpts({}, 'foo');
    expect(q.len()).toBe(1);
    q.done('foo');
    r = await q.getWithPriority();
    expect([r.item, r.priority, r.shutdown]).toEqual(['foo', 0, false]);
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(2);
  });

  it('retains the highest priority', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ priority: 1 }, 'foo');
    q.addWithOpts({ priority: 2 }, 'foo');
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['foo', 2]);
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({ 1: 0, 2: 0 });
    expect(metrics.adds.test).toBe(1);
  });

  it('will not decrease the priority', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ priority: 2 }, 'foo');
    q.addWithOpts({ priority: 1 }, 'foo');
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['foo', 2]);
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({ 2: 0 });
    expect(metrics.adds.test).toBe(1);
  });

  it('gets pushed to the front if the priority increases', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({}, 'foo');
    q.addWithOpts({}, 'bar');
    q.addWithOpts({}, 'baz');
    q.addWithOpts({ priority: 1 }, 'baz');
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['baz', 1]);
    expect(q.len()).toBe(2);
    expect(metrics.depth.test).toEqual({ 0: 2, 1: 0 });
    expect(metrics.adds.test).toBe(3);
  });

  it('retains the lowest after duration', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ after: 0 }, 'foo');
    q.addWithOpts({ after: HOUR }, 'foo');
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['foo', 0]);
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(1);
  });

  it("doesn't include non-ready items in Len()", () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ after: MINUTE }, 'foo');
    q.addWithOpts({}, 'baz');
    q.addWithOpts({ after: MINUTE }, 'bar');
    q.addWithOpts({}, 'bal');
    expect(q.len()).toBe(2);
    expect(Object.keys(metrics.depth)).toHaveLength(1);
    expect(metrics.depth.test).toEqual({ 0: 2 });
  });

  it('Get from priority queue might get stuck when the priority queue is shut down', async () => {
    const { q } = newQueue();
    q.add('baz');
    q.shutDown();
    q.addWithOpts({ after: SECOND }, 'foo');
    for (let i = 0; i < 2; i++) {
      const r = await q.getWithPriority();
      expect([r.item, r.priority, r.shutdown]).toEqual([undefined, 0, true]);
    }
  });

  it('returns many items', async () => {
    const { q, clock } = newQueue();
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 1000; i++) {
        const rn = rand(100);
        if (rn < 10) q.addWithOpts({ after: rn }, `foo${i}`);
        else q.addWithOpts({ priority: rn }, `foo${i}`);
      }
      const workers = Array.from({ length: 100 }, async () => {
        for (let n = 0; n < 10; n++) {
          const r = await q.getWithPriority();
          if (r.shutdown) throw new Error('unexpected shutdown');
          q.done(r.item);
        }
      });
      const all = track(Promise.all(workers));
      while (!all.settled) await clock.advance(1);
    }
    q.shutDown();
  });

  it('updates metrics correctly for an item that gets initially added with after and then without', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ after: HOUR }, 'foo');
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({});
    q.addWithOpts({}, 'foo');
    expect(q.len()).toBe(1);
    expect(metrics.depth.test).toEqual({ 0: 1 });
    expect((await q.get()).item).toBe('foo');
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({ 0: 0 });
  });

  it('updates metrics correctly when an item with after is re-added with higher priority and no after', async () => {
    const { q, metrics } = newQueue();
    q.addWithOpts({ after: HOUR, priority: 0 }, 'foo');
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({});
    q.addWithOpts({ priority: 1 }, 'foo');
    expect(q.len()).toBe(1);
    expect(metrics.depth.test).toEqual({ 1: 1 });
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['foo', 1]);
    expect(q.len()).toBe(0);
    expect(Object.values(metrics.depth.test ?? {}).every((d) => d === 0)).toBe(true);
  });

  it('follows FIFO order in the new priority queue when item priority changes', async () => {
    const { q } = newQueue();
    q.addWithOpts({ priority: 0 }, 'foo');
    q.addWithOpts({ priority: 1 }, 'bar');
    q.addWithOpts({ priority: 1 }, 'foo');
    expect(q.len()).toBe(2);
    let r = await q.getWithPriority();
    expect([r.item, r.priority, q.len()]).toEqual(['bar', 1, 1]);
    r = await q.getWithPriority();
    expect([r.item, r.priority, q.len()]).toEqual(['foo', 1, 0]);
  });
});

describe('priority queue (controller-runtime priorityqueue_test, Test* functions)', () => {
  it.each([-SECOND, 0, SECOND])(
    'TestHighPriorityItemsAreReturnedBeforeLowPriorityItemMultipleTimes after=%dms',
    async (after) => {
      const { q, metrics, clock } = newQueue();
      const itemsPerPriority = 1000;
      const classes: [string, number][] = [
        ['high', 10],
        ['upperMiddle', 5],
        ['middle', 0],
        ['lowMiddle', -5],
        ['low', -10],
      ];
      for (let i = 0; i < itemsPerPriority; i++) {
        for (const [prefix, priority] of classes) q.addWithOpts({ priority, after }, `${prefix}-${i}`);
      }
      if (after > 0) clock.step(after);
      const expected: string[] = [];
      const got: string[] = [];
      for (const [prefix, priority] of classes) {
        for (let i = 0; i < itemsPerPriority; i++) {
          expected.push(`${prefix}-${i}@${priority}`);
          const r = await q.getWithPriority();
          got.push(`${r.item}@${r.priority}`);
        }
      }
      expect(got).toEqual(expected);
      expect(metrics.depth.test).toEqual({ [-10]: 0, [-5]: 0, 0: 0, 5: 0, 10: 0 });
      expect(metrics.adds.test).toBe(itemsPerPriority * 5);
      expect(metrics.retries.test).toBe(after > 0 ? itemsPerPriority * 5 : 0);
    },
  );

  it('TestItemIsOnlyReturnedAfterAfterHasPassed', async () => {
    const { q, metrics, clock } = newQueue();
    const retrieved = track(q.getWithPriority());
    q.addWithOpts({ after: SECOND }, 'foo');
    await flushMicrotasks();
    expect(retrieved.settled).toBe(false);
    expect(clock.ticks).toEqual([SECOND]);
    clock.step(SECOND);
    await flushMicrotasks();
    expect(retrieved.settled).toBe(true);
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(1);
    expect(metrics.retries.test).toBe(1);
  });

  it('TestHighPriorityItemThatBecameReadyIsReturnedBeforeLowPriorityItem', async () => {
    const { q, metrics, clock } = newQueue();
    q.addWithOpts({ after: 0, priority: -100 }, 'foo');
    q.addWithOpts({ after: SECOND, priority: 0 }, 'prio');
    expect(clock.ticks).toEqual([SECOND]);
    clock.step(SECOND);
    const r = await q.getWithPriority();
    expect([r.item, r.priority]).toEqual(['prio', 0]);
    expect(metrics.depth.test).toEqual({ [-100]: 1, 0: 0 });
    expect(metrics.adds.test).toBe(2);
    expect(metrics.retries.test).toBe(1);
  });

  it('TestItemIsReturnedAsSoonAsPossible', async () => {
    const { q, metrics } = newQueue();
    const retrieved = track(q.getWithPriority());
    await flushMicrotasks();
    q.addWithOpts({}, 'foo');
    await flushMicrotasks();
    expect(retrieved.settled).toBe(true);
    expect(retrieved.value?.item).toBe('foo');
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(1);
  });

  it('TestWaitingItemIsReturnedRightAfterReadWithoutAfter', async () => {
    const { q, metrics } = newQueue();
    const retrieved = track(q.getWithPriority());
    await flushMicrotasks();
    q.addWithOpts({ after: MINUTE }, 'foo');
    await flushMicrotasks();
    expect(retrieved.settled).toBe(false);
    q.addWithOpts({}, 'foo');
    await flushMicrotasks();
    expect(retrieved.settled).toBe(true);
    expect(retrieved.value?.item).toBe('foo');
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(1);
  });

  it('TestMultipleItemsWithAfterAreReturnedInCorrectOrder', async () => {
    const { q, metrics, clock } = newQueue();
    const order: string[] = [];
    const consumer = track(
      (async () => {
        for (let i = 0; i < 2; i++) order.push((await q.getWithPriority()).item as string);
      })(),
    );
    q.addWithOpts({ after: SECOND }, 'foo');
    q.addWithOpts({ after: 200 }, 'bar');
    await flushMicrotasks();
    expect(order).toEqual([]);
    await clock.advance(SECOND);
    expect(consumer.settled).toBe(true);
    expect(order).toEqual(['bar', 'foo']);
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(2);
  });

  it('TestGetFromPriorityQueueIsUnblockedOnShutdown', async () => {
    const { q } = newQueue();
    const blocked = track(q.getWithPriority());
    await flushMicrotasks();
    expect(blocked.settled).toBe(false);
    q.shutDown();
    await flushMicrotasks();
    expect(blocked.settled).toBe(true);
    expect(blocked.value).toEqual({ shutdown: true, priority: 0 });
  });

  it('TestItemsAreInludedInLenAndMetricsOnceTheyAreReady', async () => {
    const { q, metrics, clock } = newQueue();
    for (let round = 0; round < 2; round++) {
      q.addWithOpts({ after: 500 }, 'foo');
      q.addWithOpts({}, 'baz');
      q.addWithOpts({ after: 500 }, 'bar');
      q.addWithOpts({}, 'bal');
      expect(q.len()).toBe(2);
      expect(metrics.depth.test).toEqual({ 0: 2 });
      clock.step(SECOND);
      expect(q.len()).toBe(4);
      expect(metrics.depth.test).toEqual({ 0: 4 });
      for (let i = 0; i < 4; i++) q.done((await q.get()).item as string);
      expect(q.len()).toBe(0);
      expect(metrics.depth.test).toEqual({ 0: 0 });
    }
  });

  it('TestMetricsAreUpdatedForItemWhoseRequeueAfterExpiredThatGetsAddedAgainWithoutRequeueAfter', async () => {
    const { q, metrics, clock } = newQueue();
    q.addWithOpts({ after: 50 }, 'foo');
    clock.step(50);
    expect(q.len()).toBe(1);
    expect(metrics.depth.test).toEqual({ 0: 1 });
    q.addWithOpts({}, 'foo');
    expect(q.len()).toBe(1);
    expect(metrics.depth.test).toEqual({ 0: 1 });
    expect((await q.get()).item).toBe('foo');
    expect(q.len()).toBe(0);
    expect(metrics.depth.test).toEqual({ 0: 0 });
  });

  it('TestWhenAddingMultipleItemsWithRatelimitTrueTheyDontAffectEachOther', async () => {
    const clock = new TickRecordingClock();
    const metrics = new FakePriorityMetricsProvider();
    const rateLimiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1000 * SECOND });
    const q = new PriorityQueue<string>({
      name: 'test',
      clock,
      metrics,
      rateLimiter,
      unfinishedWorkUpdatePeriodMs: HOUR,
    });
    clock.ticks.length = 0;
    const order: string[] = [];
    void (async () => {
      for (let i = 0; i < 2; i++) order.push((await q.getWithPriority()).item as string);
    })();
    // After 7 failures the next When("bar") is 640ms.
    for (let i = 0; i < 7; i++) rateLimiter.when('bar');
    q.addWithOpts({ ratelimited: true }, 'foo', 'bar');
    await flushMicrotasks();
    expect(order).toEqual([]);
    clock.step(5);
    await flushMicrotasks();
    expect(order).toEqual(['foo']);
    clock.step(635);
    await flushMicrotasks();
    expect(order).toEqual(['foo', 'bar']);
    expect(clock.ticks).toEqual([5, 635]);
    expect(metrics.depth.test).toEqual({ 0: 0 });
    expect(metrics.adds.test).toBe(2);
    expect(metrics.retries.test).toBe(2);
  });

  it('TestPriorityQueueDoesNotDeadlockOnShutdownWhileHandingOutItems', async () => {
    for (let round = 0; round < 50; round++) {
      const q = new PriorityQueue<string>({ name: 'test' });
      let n = round;
      const workers = Array.from({ length: 20 }, async () => {
        for (;;) {
          n = (n * 31 + 7) % 1000;
          q.addWithOpts({ priority: n % 100 }, String(n));
          if ((await q.getWithPriority()).shutdown) return;
        }
      });
      await flushMicrotasks(1);
      q.shutDown();
      await Promise.all(workers);
    }
  });
});

describe('priority queue probe events and causes', () => {
  it('reports add with priority, addAfter with requeues, get, done (requeued) and keeps every cause', async () => {
    const clock = new FakeClock(0);
    const probe = new RecordingProbe();
    const q = new PriorityQueue<string>({ name: 'p', clock, probe });
    q.addWithOpts({ priority: -100, cause: { type: 'event', eventType: 'create' } }, 'a');
    q.addWithOpts({ priority: 0, cause: { type: 'manual' } }, 'a');
    clock.step(3);
    const r = await q.getWithPriority();
    expect(r.causes).toEqual([{ type: 'event', eventType: 'create' }, { type: 'manual' }]);
    q.addWithOpts({ ratelimited: true, priority: 0, cause: { type: 'errorBackoff' } }, 'a');
    clock.step(5);
    q.done('a');
    expect(probe.events).toEqual([
      {
        kind: 'queue.add',
        queue: 'p',
        key: 'a',
        cause: { type: 'event', eventType: 'create' },
        queued: true,
        dirtyWhileProcessing: false,
        priority: -100,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      {
        kind: 'queue.add',
        queue: 'p',
        key: 'a',
        cause: { type: 'manual' },
        queued: false,
        dirtyWhileProcessing: false,
        priority: 0,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      { kind: 'queue.get', queue: 'p', key: 'a', waitMs: 3, depth: { ready: 0, waiting: 0, processing: 1 } },
      {
        kind: 'queue.addAfter',
        queue: 'p',
        key: 'a',
        cause: { type: 'errorBackoff' },
        delayMs: 5,
        readyAt: 8,
        requeues: 1,
        depth: { ready: 0, waiting: 1, processing: 1 },
      },
      {
        kind: 'queue.add',
        queue: 'p',
        key: 'a',
        cause: { type: 'errorBackoff' },
        queued: false,
        dirtyWhileProcessing: true,
        priority: 0,
        matured: true,
        depth: { ready: 1, waiting: 0, processing: 1 },
      },
      {
        kind: 'queue.done',
        queue: 'p',
        key: 'a',
        processingMs: 5,
        requeued: true,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
    ]);
    expect((await q.getWithPriority()).causes).toEqual([{ type: 'errorBackoff' }]);
  });

  it('get() drops the priority; shutDownWithDrain is shutDown', async () => {
    const q = new PriorityQueue<string>({});
    q.add('x');
    expect(await q.get()).toEqual({ shutdown: false, item: 'x', causes: [] });
    await q.shutDownWithDrain();
    expect(q.shuttingDown()).toBe(true);
    expect(await q.get()).toEqual({ shutdown: true });
  });
});
