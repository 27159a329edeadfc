import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { Backoff, BackoffManager, REFLECTOR_BACKOFF } from './backoff';
import { RetryWithDeadline } from './retry-with-deadline';

describe('backoff (apimachinery wait.Backoff / DelayWithReset)', () => {
  it('reflector defaults: 0.8s doubling to a 30s cap, 38 steps', () => {
    const b = new Backoff({ ...REFLECTOR_BACKOFF, jitter: 0 });
    expect(Array.from({ length: 9 }, () => b.step())).toEqual([
      800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000,
    ]);
    expect(REFLECTOR_BACKOFF.steps).toBe(38);
  });

  it('jitter 1 spreads each delay over [d, 2d)', () => {
    expect(new Backoff(REFLECTOR_BACKOFF, () => 0).step()).toBe(800);
    expect(new Backoff(REFLECTOR_BACKOFF, () => 0.5).step()).toBe(1200);
    expect(new Backoff(REFLECTOR_BACKOFF, () => 0.999999).step()).toBeLessThan(1600);
  });

  it('once steps run out the delay stops growing', () => {
    const b = new Backoff({ durationMs: 1, factor: 2, jitter: 0, capMs: 0, steps: 3, resetIntervalMs: 0 });
    expect(Array.from({ length: 5 }, () => b.step())).toEqual([1, 2, 4, 8, 8]);
  });

  it('TestBackoffDelayWithResetExponential: {1, ×2, cap 10, reset 10} → 1,2,4,8,10,10,10; after 11 → 1', () => {
    const clock = new FakeClock();
    const m = new BackoffManager({
      durationMs: 1,
      factor: 2,
      jitter: 0,
      capMs: 10,
      steps: 100,
      resetIntervalMs: 10,
      clock,
    });
    expect(Array.from({ length: 7 }, () => m.step())).toEqual([1, 2, 4, 8, 10, 10, 10]);
    clock.step(11);
    expect(m.step()).toBe(1);
  });

  it('the reset clock is not refreshed by each failure (saw-tooth under continuous failure)', () => {
    const clock = new FakeClock();
    const m = new BackoffManager({ jitter: 0, clock });
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      const d = m.step();
      seen.push(d);
      clock.step(d);
    }
    // 0.8+1.6+3.2+6.4+12.8+25.6+30+30 = 110.4s, then the 2-minute window has passed.
    expect(seen).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 800]);
  });
});

describe('retry_with_deadline_test', () => {
  it('retries a retryable error for the max duration, resetting after a quiet period', () => {
    const clock = new FakeClock();
    const r = new RetryWithDeadline(5000, 60_000, (e) => e === 'retry', clock);
    r.after('retry');
    expect(r.shouldRetry()).toBe(true);
    clock.step(5000);
    r.after('retry');
    expect(r.shouldRetry()).toBe(true);
    clock.step(1);
    expect(r.shouldRetry()).toBe(false);
    r.after('other');
    clock.step(60_000);
    r.after('retry');
    expect(r.shouldRetry()).toBe(true);
    expect(new RetryWithDeadline(0, 60_000, () => true, clock).shouldRetry()).toBe(false);
  });
});
