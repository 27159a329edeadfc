// The priority queue's probe events, run through the dashboard reducer: the per-key state the UI shows must be
// the state the queue is in. Regression: a RequeueAfter delay cancelled by an event add left the key shown as
// 'waiting' (then "due Xs ago") although the queue held nothing for it.
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { createView, type KeyView } from '../../../shared/protocol/view';
import type { Probe } from '../instrumentation/probe';
import { FakeClock } from '../testing/fake-clock';
import { PriorityQueue } from './priority-queue';

const Q = 'flaky';
const K = 'demo/churn-1';

function setup(): {
  clock: FakeClock;
  q: PriorityQueue<string>;
  key: () => KeyView | undefined;
  events: StampedEvent[];
} {
  const clock = new FakeClock(1_000);
  const events: StampedEvent[] = [];
  const probe: Probe = {
    enabled: true,
    emit: (e) => events.push({ ...e, seq: events.length + 1, ts: clock.now() } as StampedEvent),
  };
  const q = new PriorityQueue<string>({ name: Q, clock, probe });
  const key = (): KeyView | undefined => reduce(createView(), events).controllers[Q]?.keys[K];
  return { clock, q, key, events };
}

describe('priority queue events reduce to the queue state', () => {
  it('an event add during a RequeueAfter delay cancels it: after the reconcile the key is idle', async () => {
    const { clock, q, key, events } = setup();
    q.add(K, { type: 'event', eventType: 'create' });
    await q.getWithPriority();
    clock.step(60);
    q.forget(K);
    q.addWithOpts({ after: 5_000, cause: { type: 'requeueAfter' } }, K);
    q.done(K);
    expect(key()).toMatchObject({ state: 'waiting', nextRetryAt: 1_060 + 5_000 });

    clock.step(2_400);
    q.add(K, { type: 'event', eventType: 'update' });
    expect(events.at(-1)).toMatchObject({ kind: 'queue.add', queued: true, delayCancelled: true });
    expect(q.depth()).toEqual({ ready: 1, waiting: 0, processing: 0 });
    const r = await q.getWithPriority();
    expect(r.causes?.map((c) => c.type)).toEqual(['requeueAfter', 'event']);
    clock.step(90);
    q.forget(K);
    q.done(K);
    expect(q.depth()).toEqual({ ready: 0, waiting: 0, processing: 0 });
    expect(key()?.state).toBe('idle');
    expect(key()?.nextRetryAt).toBeUndefined();
    // Nothing fires when the old delay would have ended.
    const before = events.length;
    clock.step(5_000);
    expect(events.length).toBe(before);
  });

  it('an add while processing cancels a pending backoff too: after the requeued run the key is idle', async () => {
    const { clock, q, key, events } = setup();
    q.add(K, { type: 'event' });
    await q.getWithPriority();
    q.addWithOpts({ after: 1_000, cause: { type: 'errorBackoff' } }, K);
    q.add(K, { type: 'event', eventType: 'update' });
    expect(events.at(-1)).toMatchObject({
      kind: 'queue.add',
      queued: false,
      dirtyWhileProcessing: true,
      delayCancelled: true,
    });
    q.done(K);
    expect(key()).toMatchObject({ state: 'ready' });
    await q.getWithPriority();
    clock.step(10);
    q.done(K);
    expect(key()?.state).toBe('idle');
  });

  it('a backoff still pending after the reconcile shows as waiting, then ready when it matures', async () => {
    const { clock, q, key } = setup();
    q.add(K, { type: 'event' });
    await q.getWithPriority();
    q.addWithOpts({ ratelimited: true, cause: { type: 'errorBackoff' } }, K);
    q.done(K);
    expect(key()).toMatchObject({ state: 'waiting', requeues: 1, nextRetryAt: 1_005 });
    clock.step(5);
    expect(key()?.state).toBe('ready');
    expect(key()?.nextRetryAt).toBeUndefined();
  });

  it('a second delay does not cancel the first: the earlier ready time stands and no flag is set', async () => {
    const { q, key, events } = setup();
    q.addWithOpts({ after: 100, cause: { type: 'requeueAfter' } }, K);
    q.addWithOpts({ after: 50, cause: { type: 'requeueAfter' } }, K);
    q.addWithOpts({ after: 500, cause: { type: 'requeueAfter' } }, K);
    expect(events.some((e) => e.kind === 'queue.add')).toBe(false);
    expect(key()).toMatchObject({ state: 'waiting', nextRetryAt: 1_050 });
  });
});
