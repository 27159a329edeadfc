// Scenarios of client-go util/workqueue/queue_test.go, on a FakeClock, plus the probe events and causes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { defaultQueue, type Queue } from './fifo';
import type { TypedInterface } from './interfaces';
import { WorkQueue } from './queue';
import { flushMicrotasks, track } from '../testing/workqueue-helpers';

/** traceQueue: records which items were touched. */
class TraceQueue<T> implements Queue<T> {
  readonly inner = defaultQueue<T>();
  readonly touched = new Set<T>();
  touch(item: T): void {
    this.inner.touch(item);
    this.touched.add(item);
  }
  push(item: T): void {
    this.inner.push(item);
  }
  len(): number {
    return this.inner.len();
  }
  pop(): T {
    return this.inner.pop();
  }
}

async function addTakeDone(q: WorkQueue<{ data: string }>): Promise<WeakRef<object>> {
  const big = { data: 'hello'.repeat(2) };
  const ref = new WeakRef(big);
  q.add(big);
  // A second item keeps the FIFO's backing array alive, so a slot not cleared on pop would leak.
  q.add({ data: 'other' });
  const r = await q.get();
  if (r.shutdown) throw new Error('unexpected shutdown');
  q.done(r.item);
  return ref;
}

type ShutDownFn = (q: TypedInterface<string | number>) => unknown;
const shutDowns: [string, ShutDownFn][] = [
  ['shutDown', (q) => q.shutDown()],
  ['shutDownWithDrain', (q) => q.shutDownWithDrain()],
];

describe('queue (client-go queue_test)', () => {
  it.each(shutDowns)('TestBasic: 50 producers, 10 consumers, then %s', async (_, shutDown) => {
    const clock = new FakeClock();
    const q = new WorkQueue<string | number>({ clock });
    const producers: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      producers.push(
        (async () => {
          for (let j = 0; j < 50; j++) {
            q.add(i);
            await clock.sleep(1);
          }
        })(),
      );
    }
    const processed: (string | number)[] = [];
    const consumers: Promise<void>[] = [];
    for (let c = 0; c < 10; c++) {
      consumers.push(
        (async () => {
          for (;;) {
            const r = await q.get();
            if (r.item === 'added after shutdown!') throw new Error('got an item added after shutdown');
            if (r.shutdown) return;
            processed.push(r.item);
            await clock.sleep(3);
            q.done(r.item);
          }
        })(),
      );
    }
    const producing = track(Promise.all(producers));
    while (!producing.settled) await clock.advance(1);
    const shutting = track(Promise.resolve(shutDown(q)));
    q.add('added after shutdown!');
    const consuming = track(Promise.all(consumers));
    while (!consuming.settled) await clock.advance(1);
    expect(shutting.settled).toBe(true);
    expect(q.len()).toBe(0);
    expect(new Set(processed).size).toBe(50);
  });

  it.each(shutDowns)('TestAddWhileProcessing: every consumer re-adds each item once, then %s', async (_, shutDown) => {
    const q = new WorkQueue<string | number>();
    for (let i = 0; i < 50; i++) q.add(i);
    const seen = new Map<string | number, number>();
    const consumers: Promise<void>[] = [];
    for (let c = 0; c < 10; c++) {
      consumers.push(
        (async () => {
          const counters = new Map<string | number, number>();
          for (;;) {
            const r = await q.get();
            if (r.shutdown) return;
            const n = (counters.get(r.item) ?? 0) + 1;
            counters.set(r.item, n);
            seen.set(r.item, (seen.get(r.item) ?? 0) + 1);
            if (n < 2) q.add(r.item);
            q.done(r.item);
          }
        })(),
      );
    }
    await flushMicrotasks(20);
    expect(q.len()).toBe(0);
    for (let i = 0; i < 50; i++) expect(seen.get(i)).toBeGreaterThanOrEqual(2);
    await shutDown(q);
    await Promise.all(consumers);
    expect(q.len()).toBe(0);
  });

  it('TestLen', () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    expect(q.len()).toBe(1);
    q.add('bar');
    expect(q.len()).toBe(2);
    q.add('foo');
    expect(q.len()).toBe(2);
  });

  it('TestReinsert', async () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    const first = await q.get();
    expect(first.item).toBe('foo');
    q.add('foo');
    q.done('foo');
    const again = await q.get();
    expect(again.item).toBe('foo');
    q.done('foo');
    expect(q.len()).toBe(0);
  });

  it('TestCollapse', async () => {
    const tq = new TraceQueue<string>();
    const q = new WorkQueue<string>({ queue: tq });
    q.add('bar');
    q.add('bar');
    const r = await q.get();
    expect(r.item).toBe('bar');
    q.done('bar');
    expect(q.len()).toBe(0);
    expect(tq.touched.has('bar')).toBe(true);
  });

  it('TestCollapseWhileProcessing', async () => {
    const tq = new TraceQueue<string>();
    const q = new WorkQueue<string>({ queue: tq });
    q.add('foo');
    expect((await q.get()).item).toBe('foo');
    q.add('foo');
    q.add('foo');
    const second = track(q.get());
    await flushMicrotasks();
    expect(second.settled).toBe(false);
    q.done('foo');
    await flushMicrotasks();
    expect(second.settled).toBe(true);
    expect(second.value?.item).toBe('foo');
    q.done('foo');
    expect(q.len()).toBe(0);
    expect(tq.touched.has('foo')).toBe(false);
  });

  it('TestQueueDrainageUsingShutDownWithDrain', async () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    q.add('bar');
    const first = await q.get();
    const second = await q.get();
    const draining = track(q.shutDownWithDrain());
    expect((await q.get()).shutdown).toBe(true);
    await flushMicrotasks();
    expect(draining.settled).toBe(false);
    q.done(first.item as string);
    await flushMicrotasks();
    expect(draining.settled).toBe(false);
    q.done(second.item as string);
    await flushMicrotasks();
    expect(draining.settled).toBe(true);
  });

  it('TestNoQueueDrainageUsingShutDown', async () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    q.add('bar');
    await q.get();
    await q.get();
    q.shutDown();
    expect(q.shuttingDown()).toBe(true);
    expect((await q.get()).shutdown).toBe(true);
  });

  it('TestForceQueueShutdownUsingShutDown', async () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    q.add('bar');
    await q.get();
    await q.get();
    const draining = track(q.shutDownWithDrain());
    expect((await q.get()).shutdown).toBe(true);
    await flushMicrotasks();
    expect(draining.settled).toBe(false);
    q.shutDown();
    await flushMicrotasks();
    expect(draining.settled).toBe(true);
  });

  it('TestQueueDrainageUsingShutDownWithDrainWithDirtyItem', async () => {
    const q = new WorkQueue<string>();
    q.add('foo');
    const gotten = await q.get();
    q.add('foo');
    const draining = track(q.shutDownWithDrain());
    expect((await q.get()).shutdown).toBe(true);
    q.done(gotten.item as string);
    const again = await q.get();
    expect(again.shutdown).toBe(false);
    expect(again.item).toBe('foo');
    await flushMicrotasks();
    expect(draining.settled).toBe(false);
    q.done('foo');
    expect((await q.get()).shutdown).toBe(true);
    await flushMicrotasks();
    expect(draining.settled).toBe(true);
  });

  it('TestGarbageCollection: an item added, taken and done is not retained', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const leakQueue = new WorkQueue<{ data: string }>({ keyOf: (o) => o.data });
    const ref = await addTakeDone(leakQueue);
    // WeakRef targets stay alive until the current job ends; give the collector a few turns.
    for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
      await new Promise<void>((r) => setImmediate(r));
      gc();
    }
    expect(ref.deref()).toBeUndefined();
    expect(leakQueue.len()).toBe(1);
  });

  it('get() on a shut-down queue keeps returning queued items until it is empty', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    q.shutDown();
    q.add('c');
    expect((await q.get()).item).toBe('a');
    expect((await q.get()).item).toBe('b');
    expect((await q.get()).shutdown).toBe(true);
  });

  it('shutDown releases every blocked getter', async () => {
    const q = new WorkQueue<string>();
    const getters = [track(q.get()), track(q.get())];
    await flushMicrotasks();
    expect(getters.some((g) => g.settled)).toBe(false);
    q.shutDown();
    await flushMicrotasks();
    expect(getters.map((g) => g.value?.shutdown)).toEqual([true, true]);
  });

  it('items are identified by keyOf, and the first item object added is the one handed out', async () => {
    const q = new WorkQueue<{ ns: string; name: string; v: number }>({ keyOf: (r) => `${r.ns}/${r.name}` });
    q.add({ ns: 'a', name: 'x', v: 1 });
    q.add({ ns: 'a', name: 'x', v: 2 });
    expect(q.len()).toBe(1);
    const r = await q.get();
    expect(r.item?.v).toBe(1);
    q.add({ ns: 'a', name: 'x', v: 3 });
    q.done({ ns: 'a', name: 'x', v: 99 });
    expect((await q.get()).item?.v).toBe(3);
  });
});

describe('queue causes and probe events', () => {
  const ev = (detail: string): EnqueueCause => ({ type: 'event', eventType: 'update', detail });

  it('does not track causes without a probe or trackCauses', async () => {
    const q = new WorkQueue<string>();
    q.add('foo', ev('1'));
    expect((await q.get()).causes).toEqual([]);
  });

  it('returns every cause absorbed since the key was last taken, including adds while processing', async () => {
    const q = new WorkQueue<string>({ trackCauses: true });
    q.add('foo', ev('1'));
    q.add('foo', ev('2'));
    q.add('foo');
    const first = await q.get();
    expect(first.causes).toEqual([ev('1'), ev('2'), { type: 'unknown' }]);
    q.add('foo', ev('3'));
    q.add('foo', ev('4'));
    q.done('foo');
    expect((await q.get()).causes).toEqual([ev('3'), ev('4')]);
  });

  it('emits add (queued / de-duplicated / dirty while processing), get, done and shutdown with depth', async () => {
    const clock = new FakeClock();
    const probe = new RecordingProbe();
    const q = new WorkQueue<string>({ name: 'q', clock, probe });
    q.add('foo', ev('1'));
    q.add('foo', ev('2'));
    clock.step(40);
    const r = await q.get();
    expect(r.causes).toEqual([ev('1'), ev('2')]);
    q.add('foo', ev('3'));
    clock.step(25);
    q.done('foo');
    q.shutDown();
    expect(probe.events).toEqual([
      {
        kind: 'queue.add',
        queue: 'q',
        key: 'foo',
        cause: ev('1'),
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      {
        kind: 'queue.add',
        queue: 'q',
        key: 'foo',
        cause: ev('2'),
        queued: false,
        dirtyWhileProcessing: false,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      { kind: 'queue.get', queue: 'q', key: 'foo', waitMs: 40, depth: { ready: 0, waiting: 0, processing: 1 } },
      {
        kind: 'queue.add',
        queue: 'q',
        key: 'foo',
        cause: ev('3'),
        queued: false,
        dirtyWhileProcessing: true,
        depth: { ready: 0, waiting: 0, processing: 1 },
      },
      {
        kind: 'queue.done',
        queue: 'q',
        key: 'foo',
        processingMs: 25,
        requeued: true,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      { kind: 'queue.shutdown', queue: 'q', drain: false },
    ]);
  });

  it('records no causes and emits nothing for an add after shutdown', () => {
    const probe = new RecordingProbe();
    const q = new WorkQueue<string>({ probe });
    q.shutDown();
    probe.clear();
    q.add('foo');
    expect(probe.events).toEqual([]);
    expect(q.len()).toBe(0);
  });
});
