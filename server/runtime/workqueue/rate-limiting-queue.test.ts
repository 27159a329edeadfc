// Scenario of client-go util/workqueue/rate_limiting_queue_test.go: the ready time of each rate-limited add,
// read here from the probe's addAfter events instead of the Go test's internal channel.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { RateLimitingQueue } from './rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from './rate-limiters';

describe('rate-limiting queue (client-go rate_limiting_queue_test)', () => {
  it('TestRateLimitingQueue', () => {
    const clock = new FakeClock();
    const probe = new RecordingProbe();
    const q = new RateLimitingQueue<string>({
      clock,
      probe,
      rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: 1000 }),
    });
    const lastDelay = (): number => {
      const e = probe.ofKind('queue.addAfter').at(-1);
      return (e?.readyAt ?? NaN) - clock.now();
    };
    // Upstream reads each entry from the channel before the next add; stepping past it does the same here.
    const next = (): void => clock.step(10);

    q.addRateLimited('one');
    expect(lastDelay()).toBe(1);
    next();
    q.addRateLimited('one');
    expect(lastDelay()).toBe(2);
    expect(q.numRequeues('one')).toBe(2);
    next();

    q.addRateLimited('two');
    expect(lastDelay()).toBe(1);
    next();
    q.addRateLimited('two');
    expect(lastDelay()).toBe(2);
    next();

    q.forget('one');
    expect(q.numRequeues('one')).toBe(0);
    q.addRateLimited('one');
    expect(lastDelay()).toBe(1);
  });

  it('reports the requeue count on rate-limited adds, and forget', () => {
    const clock = new FakeClock();
    const probe = new RecordingProbe();
    const q = new RateLimitingQueue<string>({
      name: 'c',
      clock,
      probe,
      rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }),
    });
    q.addRateLimited('k', { type: 'errorBackoff', detail: 'boom' });
    q.addAfter('k', 1);
    q.forget('k');
    expect(probe.events.map((e) => [e.kind, 'requeues' in e ? e.requeues : undefined])).toEqual([
      ['queue.addAfter', 1],
      ['queue.addAfter', undefined],
      ['queue.forget', undefined],
    ]);
  });

  it('forget does not touch the queue', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    q.addRateLimited('a');
    q.forget('a');
    clock.step(5);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('a');
  });

  it('the default limiter uses the queue keyOf and clock (exponential 5ms and a 10qps/100 bucket)', () => {
    const clock = new FakeClock();
    const probe = new RecordingProbe();
    const q = new RateLimitingQueue<{ ns: string; name: string }>({ clock, probe, keyOf: (r) => `${r.ns}/${r.name}` });
    q.addRateLimited({ ns: 'a', name: 'x' });
    q.addRateLimited({ ns: 'a', name: 'x' });
    expect(q.numRequeues({ ns: 'a', name: 'x' })).toBe(2);
    expect(q.numRequeues({ ns: 'a', name: 'y' })).toBe(0);
    expect(probe.ofKind('queue.addAfter').map((e) => e.delayMs)).toEqual([5, 10]);
  });
});
