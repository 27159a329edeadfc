// Scenarios of client-go util/workqueue/delaying_queue_test.go on a FakeClock, plus causes and probe events.
import { describe, expect, it } from 'vitest';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { DelayingQueue } from './delaying-queue';

async function drain(q: DelayingQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const r = await q.get();
    out.push(r.item as string);
    q.done(r.item as string);
  }
  return out;
}

describe('delaying queue (client-go delaying_queue_test)', () => {
  it('TestSimpleQueue', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('foo', 50);
    expect(q.len()).toBe(0);
    clock.step(60);
    expect(q.len()).toBe(1);
    const r = await q.get();
    q.done(r.item as string);
    // Past the upstream 10s heartbeat: nothing more is added.
    clock.step(10_000);
    expect(q.len()).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('TestDeduping', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    expect(q.len()).toBe(0);
    clock.step(60);
    expect(q.len()).toBe(1);
    q.done((await q.get()).item as string);
    clock.step(20);
    expect(q.len()).toBe(0);

    // This time the earlier time overrides.
    q.addAfter('foo', 50);
    q.addAfter('foo', 30);
    expect(q.len()).toBe(0);
    clock.step(40);
    expect(q.len()).toBe(1);
    q.done((await q.get()).item as string);
    clock.step(20);
    expect(q.len()).toBe(0);
  });

  it('TestAddTwoFireEarly', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 50);
    clock.step(60);
    expect(q.len()).toBe(1);
    const first = await q.get();
    expect(first.item).toBe('bar');
    q.done('bar');
    q.addAfter('baz', 2000);
    clock.step(1000);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('foo');
    q.done('foo');
    clock.step(2000);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('baz');
  });

  it('TestCopyShifting: items come out in ready order, not insertion order', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 500);
    q.addAfter('baz', 250);
    clock.step(2000);
    expect(q.len()).toBe(3);
    expect(await drain(q)).toEqual(['baz', 'bar', 'foo']);
  });

  it('a non-positive delay adds at once', () => {
    const q = new DelayingQueue<string>({ clock: new FakeClock() });
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    expect(q.len()).toBe(2);
  });

  it('keeps one timer for the earliest entry and none when nothing waits', () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    for (let i = 0; i < 10; i++) q.addAfter(`k${i}`, 100 + i);
    expect(clock.pendingTimers).toBe(1);
    q.addAfter('early', 10);
    expect(clock.pendingTimers).toBe(1);
    clock.step(10);
    expect(q.len()).toBe(1);
    clock.step(200);
    expect(q.len()).toBe(11);
    expect(clock.pendingTimers).toBe(0);
  });

  it('an item added after being taken is added again when its delay ends', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.add('foo');
    q.addAfter('foo', 10);
    const r = await q.get();
    q.done(r.item as string);
    expect(q.len()).toBe(0);
    clock.step(10);
    expect(q.len()).toBe(1);
  });

  it('discards waiting items at shutdown and ignores later addAfter', () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('foo', 10);
    q.shutDown();
    q.addAfter('bar', 10);
    expect(clock.pendingTimers).toBe(0);
    clock.step(100);
    expect(q.len()).toBe(0);
    expect(q.depth()).toEqual({ ready: 0, waiting: 0, processing: 0 });
  });
});

describe('delaying queue causes and probe events', () => {
  const after = (ms: number): EnqueueCause => ({ type: 'requeueAfter', detail: `${ms}ms` });

  it('absorbs the causes of duplicate addAfter calls into the one run', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock, trackCauses: true });
    q.addAfter('foo', 50, after(50));
    q.addAfter('foo', 70, after(70));
    clock.step(50);
    q.add('foo', { type: 'event', eventType: 'update' });
    const r = await q.get();
    expect(r.causes).toEqual([after(50), after(70), { type: 'event', eventType: 'update' }]);
  });

  it('emits addAfter with the effective ready time and the waiting depth, then add when it matures', () => {
    const clock = new FakeClock(1_000_000);
    const probe = new RecordingProbe();
    const q = new DelayingQueue<string>({ name: 'd', clock, probe });
    q.addAfter('foo', 50, after(50));
    q.addAfter('foo', 70, after(70));
    clock.step(50);
    expect(probe.events).toEqual([
      {
        kind: 'queue.addAfter',
        queue: 'd',
        key: 'foo',
        cause: after(50),
        delayMs: 50,
        readyAt: 1_000_050,
        depth: { ready: 0, waiting: 1, processing: 0 },
      },
      {
        kind: 'queue.addAfter',
        queue: 'd',
        key: 'foo',
        cause: after(70),
        delayMs: 70,
        readyAt: 1_000_050,
        depth: { ready: 0, waiting: 1, processing: 0 },
      },
      {
        kind: 'queue.add',
        queue: 'd',
        key: 'foo',
        cause: after(50),
        queued: true,
        dirtyWhileProcessing: false,
        matured: true,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
    ]);
  });
});
