// Scenarios of client-go util/workqueue/default_rate_limiters_test.go, plus the token bucket and the default
// controller limiter's worked examples from the spec.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import type { TypedRateLimiter } from './interfaces';
import {
  BucketRateLimiter,
  defaultPriorityQueueRateLimiter,
  defaultTypedControllerRateLimiter,
  defaultTypedItemBasedRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  WithMaxWaitRateLimiter,
} from './rate-limiters';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The upstream test's StepRateLimiter: baseDelay for the first threshold calls, then maxDelay. */
class StepRateLimiter<T> implements TypedRateLimiter<T> {
  private count = 0;
  constructor(
    private readonly baseDelayMs: number,
    private readonly maxDelayMs: number,
    private readonly threshold: number,
  ) {}
  when(): number {
    this.count++;
    return this.count <= this.threshold ? this.baseDelayMs : this.maxDelayMs;
  }
  numRequeues(): number {
    return 0;
  }
  forget(): void {}
}

describe('rate limiters (client-go default_rate_limiters_test)', () => {
  it('TestItemExponentialFailureRateLimiter', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: SECOND });
    expect([1, 2, 3, 4, 5].map(() => limiter.when('one'))).toEqual([1, 2, 4, 8, 16]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect([limiter.when('two'), limiter.when('two')]).toEqual([1, 2]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(1);
  });

  it('TestItemExponentialFailureRateLimiterOverFlow', () => {
    let limiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 1000 * SECOND });
    for (let i = 0; i < 5; i++) limiter.when('one');
    expect(limiter.when('one')).toBe(32);
    for (let i = 0; i < 1000; i++) limiter.when('overflow1');
    expect(limiter.when('overflow1')).toBe(1000 * SECOND);

    limiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: MINUTE, maxDelayMs: 1000 * HOUR });
    for (let i = 0; i < 2; i++) limiter.when('two');
    expect(limiter.when('two')).toBe(4 * MINUTE);
    for (let i = 0; i < 1000; i++) limiter.when('overflow2');
    expect(limiter.when('overflow2')).toBe(1000 * HOUR);
  });

  it('TestItemFastSlowRateLimiter', () => {
    const limiter = new ItemFastSlowRateLimiter<string>({
      fastDelayMs: 5,
      slowDelayMs: 10 * SECOND,
      maxFastAttempts: 3,
    });
    expect([1, 2, 3, 4, 5].map(() => limiter.when('one'))).toEqual([5, 5, 5, 10 * SECOND, 10 * SECOND]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect([limiter.when('two'), limiter.when('two')]).toEqual([5, 5]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(5);
  });

  it('TestMaxOfRateLimiter', () => {
    const limiter = new MaxOfRateLimiter<string>(
      new ItemFastSlowRateLimiter({ fastDelayMs: 5, slowDelayMs: 3 * SECOND, maxFastAttempts: 3 }),
      new ItemExponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: SECOND }),
    );
    expect([1, 2, 3, 4, 5].map(() => limiter.when('one'))).toEqual([5, 5, 5, 3 * SECOND, 3 * SECOND]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect([limiter.when('two'), limiter.when('two')]).toEqual([5, 5]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(5);
  });

  it('TestWithMaxWaitRateLimiter', () => {
    const limiter = new WithMaxWaitRateLimiter<number>(new StepRateLimiter(5, 1000 * SECOND, 100), 500 * SECOND);
    for (let i = 0; i < 100; i++) expect(limiter.when(i)).toBe(5);
    for (let i = 100; i < 200; i++) expect(limiter.when(i)).toBe(500 * SECOND);
  });
});

describe('BucketRateLimiter (golang.org/x/time/rate reservations)', () => {
  it('starts full, then every call at one instant waits one more token', () => {
    const limiter = new BucketRateLimiter<string>({ qps: 10, burst: 100, clock: new FakeClock() });
    const delays = Array.from({ length: 103 }, (_, i) => limiter.when(`item${i}`));
    expect(delays.slice(0, 100).every((d) => d === 0)).toBe(true);
    expect(delays.slice(100)).toEqual([100, 200, 300]);
    expect(limiter.numRequeues('item0')).toBe(0);
  });

  it('refills at the rate, up to the burst, paying off debt first', () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter<string>({ qps: 10, burst: 2, clock });
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([0, 0, 100]);
    clock.step(150); // +1.5 tokens: balance 0.5
    expect(limiter.when('a')).toBe(50);
    clock.step(10 * SECOND); // refills to the burst, no more
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([0, 0, 100]);
  });
});

describe('default limiters', () => {
  it('defaultTypedControllerRateLimiter: a single failing item backs off exponentially from 5ms', () => {
    const limiter = defaultTypedControllerRateLimiter<string>({ clock: new FakeClock() });
    expect([1, 2, 3, 4].map(() => limiter.when('x'))).toEqual([5, 10, 20, 40]);
  });

  it('defaultTypedControllerRateLimiter: 150 different items at once — the bucket dominates after 100', () => {
    const limiter = defaultTypedControllerRateLimiter<string>({ clock: new FakeClock() });
    const delays = Array.from({ length: 150 }, (_, i) => limiter.when(`item${i}`));
    expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
    expect(delays[100]).toBe(100);
    expect(delays[101]).toBe(200);
    expect(delays[149]).toBe(5 * SECOND);
  });

  it('the exponential 5ms sequence reaches 1000s on the 19th failure', () => {
    const limiter = defaultPriorityQueueRateLimiter<string>();
    const delays = Array.from({ length: 20 }, () => limiter.when('x'));
    expect(delays.slice(0, 18)).toEqual([
      5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 20480, 40960, 81920, 163840, 327680, 655360,
    ]);
    expect(delays.slice(18)).toEqual([1000 * SECOND, 1000 * SECOND]);
  });

  it('defaultTypedItemBasedRateLimiter starts at 1ms', () => {
    const limiter = defaultTypedItemBasedRateLimiter<string>();
    expect([limiter.when('x'), limiter.when('x')]).toEqual([1, 2]);
  });

  it('per-item limiters identify items through keyOf', () => {
    const limiter = new ItemExponentialFailureRateLimiter<{ name: string }>({
      baseDelayMs: 1,
      maxDelayMs: SECOND,
      keyOf: (r) => r.name,
    });
    limiter.when({ name: 'a' });
    expect(limiter.when({ name: 'a' })).toBe(2);
    expect(limiter.numRequeues({ name: 'b' })).toBe(0);
  });
});
