// Token bucket behaviour (client-go util/flowcontrol throttle_test: burst first, then qps) on a fake clock.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { TokenBucketRateLimiter } from './flowcontrol';

describe('TokenBucketRateLimiter', () => {
  it('lets a burst through, then one per 1/qps seconds', () => {
    const clock = new FakeClock();
    const rl = new TokenBucketRateLimiter({ qps: 2, burst: 3, clock });
    expect([rl.tryAccept(), rl.tryAccept(), rl.tryAccept(), rl.tryAccept()]).toEqual([true, true, true, false]);
    clock.step(499);
    expect(rl.tryAccept()).toBe(false);
    clock.step(1);
    expect(rl.tryAccept()).toBe(true);
  });

  it('wait() queues callers in arrival order', async () => {
    const clock = new FakeClock();
    const rl = new TokenBucketRateLimiter({ qps: 1, burst: 1, clock });
    const done: number[] = [];
    await rl.wait();
    const a = rl.wait().then(() => done.push(1));
    const b = rl.wait().then(() => done.push(2));
    await clock.advance(999);
    expect(done).toEqual([]);
    await clock.advance(1);
    expect(done).toEqual([1]);
    await clock.advance(1000);
    await Promise.all([a, b]);
    expect(done).toEqual([1, 2]);
  });

  it('an aborted wait gives its token back', async () => {
    const clock = new FakeClock();
    const rl = new TokenBucketRateLimiter({ qps: 1, burst: 1, clock });
    expect(rl.tryAccept()).toBe(true);
    const ac = new AbortController();
    const p = rl.wait(ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(p).rejects.toThrow('cancelled');
    clock.step(1000);
    expect(rl.tryAccept()).toBe(true);
  });
});
