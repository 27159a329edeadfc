// Error backoff a user can see: the reducer keeps every rate-limited requeue of a key from the events, so a
// 5–40 ms backoff (gone long before a 250 ms render samples the queue) is still there to read afterwards.
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from './events';
import type { QueueDepth } from './events-workqueue';
import { reduce } from './reduce';
import { createView } from './view';

const depth: QueueDepth = { ready: 0, waiting: 0, processing: 0 };

function backoffSession(): StampedEvent[] {
  const evs: StampedEvent[] = [];
  let seq = 0;
  let ts = 1_000;
  const push = (e: Record<string, unknown>) => evs.push({ ...e, seq: ++seq, ts } as unknown as StampedEvent);
  push({
    kind: 'queue.add',
    queue: 'flaky',
    key: 'demo/a',
    cause: { type: 'event' },
    queued: true,
    dirtyWhileProcessing: false,
    depth,
  });
  for (let n = 1; n <= 4; n++) {
    push({ kind: 'queue.get', queue: 'flaky', key: 'demo/a', waitMs: 0, depth });
    const delayMs = 5 * 2 ** (n - 1);
    push({
      kind: 'queue.addAfter',
      queue: 'flaky',
      key: 'demo/a',
      cause: { type: 'errorBackoff', detail: `boom ${n}` },
      delayMs,
      readyAt: ts + delayMs,
      requeues: n,
      depth,
    });
    push({ kind: 'queue.done', queue: 'flaky', key: 'demo/a', processingMs: 1, requeued: false, depth });
    ts += delayMs;
    push({
      kind: 'queue.add',
      queue: 'flaky',
      key: 'demo/a',
      cause: { type: 'errorBackoff' },
      queued: true,
      dirtyWhileProcessing: false,
      matured: true,
      depth,
    });
  }
  push({ kind: 'queue.get', queue: 'flaky', key: 'demo/a', waitMs: 0, depth });
  push({ kind: 'queue.forget', queue: 'flaky', key: 'demo/a' });
  push({ kind: 'queue.done', queue: 'flaky', key: 'demo/a', processingMs: 1, requeued: false, depth });
  return evs;
}

describe('backoff history per key', () => {
  it('keeps every rate-limited requeue with its delay and error, after the key is long ready again', () => {
    const k = reduce(createView(), backoffSession()).controllers.flaky?.keys['demo/a'];
    expect(k?.backoff?.map((b) => [b.requeues, b.delayMs, b.error])).toEqual([
      [1, 5, 'boom 1'],
      [2, 10, 'boom 2'],
      [3, 20, 'boom 3'],
      [4, 40, 'boom 4'],
    ]);
    expect(k?.nextRetryAt).toBeUndefined();
    expect(k?.requeues).toBe(0);
    expect(k?.backoffResetAt).toBe(1_075);
  });

  it('is the same however the events are batched (server and browser agree)', () => {
    const evs = backoffSession();
    const whole = reduce(createView(), evs);
    let split = createView();
    for (const e of evs) split = reduce(split, [e]);
    expect(split.controllers.flaky?.keys['demo/a']).toEqual(whole.controllers.flaky?.keys['demo/a']);
  });

  it('keeps at most maxReconcilesPerKey steps, newest last', () => {
    const k = reduce(createView({ maxReconcilesPerKey: 2 }), backoffSession()).controllers.flaky?.keys['demo/a'];
    expect(k?.backoff?.map((b) => b.requeues)).toEqual([3, 4]);
  });

  it('leaves a key idle once its delay matured, even when the add is stamped just before readyAt', () => {
    // A Go process computes readyAt to the microsecond and stamps events in whole milliseconds, so the
    // add that says the delay fired can carry a ts a fraction of a millisecond before readyAt.
    const at = (seq: number, e: Record<string, unknown>) => ({ ...e, seq, ts: 2_000 }) as unknown as StampedEvent;
    const q = { queue: 'flaky', key: 'demo/a', depth };
    const k = reduce(createView(), [
      at(1, { kind: 'queue.addAfter', ...q, cause: { type: 'requeueAfter' }, delayMs: 30, readyAt: 2_000.4 }),
      at(2, {
        kind: 'queue.add',
        ...q,
        cause: { type: 'requeueAfter' },
        queued: true,
        dirtyWhileProcessing: false,
        matured: true,
      }),
      at(3, { kind: 'queue.get', ...q, waitMs: 0 }),
      at(4, { kind: 'queue.done', ...q, processingMs: 0, requeued: false }),
    ]).controllers.flaky?.keys['demo/a'];
    expect(k?.nextRetryAt).toBeUndefined();
    expect(k?.state).toBe('idle');
  });
});
