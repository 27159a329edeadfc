// Ports client-go util/workqueue/default_rate_limiters.go. Delays are milliseconds; Go's nanosecond durations
// are reproduced by truncating to whole nanoseconds where upstream converts a float to a Duration.
import { realClock, type Clock } from '../util/clock';
import type { KeyOf, TypedRateLimiter } from './interfaces';
import { defaultKeyOf } from './key-of';
import { TokenBucket } from './token-bucket';

const MS = 1;
const SECOND = 1000 * MS;
/** Go's math.MaxInt64 nanoseconds, the ceiling of a time.Duration. */
const MAX_DURATION_NS = 2 ** 63;

/** float nanoseconds → milliseconds, truncated to a whole nanosecond as time.Duration(float) does. */
function nsToMs(ns: number): number {
  return Math.trunc(ns) / 1e6;
}

export interface ItemExponentialFailureRateLimiterOptions<T> {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Item identity for the per-item failure count. Default String(item). */
  keyOf?: KeyOf<T>;
}

/** Per item: baseDelay × 2^failures, capped at maxDelay. */
export class ItemExponentialFailureRateLimiter<T> implements TypedRateLimiter<T> {
  private readonly failures = new Map<string, number>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly keyOf: KeyOf<T>;

  constructor(opts: ItemExponentialFailureRateLimiterOptions<T>) {
    this.baseDelayMs = opts.baseDelayMs;
    this.maxDelayMs = opts.maxDelayMs;
    this.keyOf = opts.keyOf ?? defaultKeyOf;
  }

  when(item: T): number {
    const key = this.keyOf(item);
    const exp = this.failures.get(key) ?? 0;
    this.failures.set(key, exp + 1);
    const backoffNs = this.baseDelayMs * 1e6 * 2 ** exp;
    if (backoffNs >= MAX_DURATION_NS) return this.maxDelayMs;
    const delay = nsToMs(backoffNs);
    return delay > this.maxDelayMs ? this.maxDelayMs : delay;
  }

  numRequeues(item: T): number {
    return this.failures.get(this.keyOf(item)) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(this.keyOf(item));
  }
}

export interface ItemFastSlowRateLimiterOptions<T> {
  fastDelayMs: number;
  slowDelayMs: number;
  maxFastAttempts: number;
  /** Default String(item). */
  keyOf?: KeyOf<T>;
}

/** Per item: fastDelay for the first maxFastAttempts failures, slowDelay after. */
export class ItemFastSlowRateLimiter<T> implements TypedRateLimiter<T> {
  private readonly failures = new Map<string, number>();
  private readonly keyOf: KeyOf<T>;

  constructor(private readonly opts: ItemFastSlowRateLimiterOptions<T>) {
    this.keyOf = opts.keyOf ?? defaultKeyOf;
  }

  when(item: T): number {
    const key = this.keyOf(item);
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    return failures <= this.opts.maxFastAttempts ? this.opts.fastDelayMs : this.opts.slowDelayMs;
  }

  numRequeues(item: T): number {
    return this.failures.get(this.keyOf(item)) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(this.keyOf(item));
  }
}

export interface BucketRateLimiterOptions {
  /** Tokens added per second. */
  qps: number;
  /** Bucket size; the bucket starts full. */
  burst: number;
  /** Default realClock. */
  clock?: Clock;
}

/**
 * One token bucket shared by every item (golang.org/x/time/rate Reserve().Delay()): each call takes a token,
 * going into debt when none is left, so a burst of failures gets ever later slots. Never forgets.
 */
export class BucketRateLimiter<T> implements TypedRateLimiter<T> {
  private readonly bucket: TokenBucket;

  constructor(opts: BucketRateLimiterOptions) {
    this.bucket = new TokenBucket({ limit: opts.qps, burst: opts.burst, clock: opts.clock ?? realClock });
  }

  when(_item: T): number {
    return this.bucket.reserveDelayMs();
  }

  numRequeues(_item: T): number {
    return 0;
  }

  forget(_item: T): void {}
}

/** Asks every limiter (each records the failure) and waits the longest. */
export class MaxOfRateLimiter<T> implements TypedRateLimiter<T> {
  private readonly limiters: TypedRateLimiter<T>[];

  constructor(...limiters: TypedRateLimiter<T>[]) {
    this.limiters = limiters;
  }

  // Indexed loops: these run on every addRateLimited/forget, and an iterator per call is measurable there.
  when(item: T): number {
    const limiters = this.limiters;
    let max = 0;
    for (let i = 0; i < limiters.length; i++) {
      max = Math.max(max, (limiters[i] as TypedRateLimiter<T>).when(item));
    }
    return max;
  }

  numRequeues(item: T): number {
    const limiters = this.limiters;
    let max = 0;
    for (let i = 0; i < limiters.length; i++) {
      max = Math.max(max, (limiters[i] as TypedRateLimiter<T>).numRequeues(item));
    }
    return max;
  }

  forget(item: T): void {
    const limiters = this.limiters;
    for (let i = 0; i < limiters.length; i++) (limiters[i] as TypedRateLimiter<T>).forget(item);
  }
}

/** Caps another limiter's delay at maxDelay. */
export class WithMaxWaitRateLimiter<T> implements TypedRateLimiter<T> {
  constructor(
    private readonly limiter: TypedRateLimiter<T>,
    private readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    return Math.min(this.limiter.when(item), this.maxDelayMs);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  forget(item: T): void {
    this.limiter.forget(item);
  }
}

export interface DefaultRateLimiterOptions<T> {
  /** Item identity for the per-item part. Default String(item). */
  keyOf?: KeyOf<T>;
  /** Clock for the token bucket. Default realClock. */
  clock?: Clock;
}

/**
 * DefaultTypedControllerRateLimiter: max(per-item 5ms·2^n ≤ 1000s, 10 qps burst 100 shared bucket).
 * client-go's default, and controller-runtime's for a non-priority queue.
 */
export function defaultTypedControllerRateLimiter<T>(opts: DefaultRateLimiterOptions<T> = {}): TypedRateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>({ baseDelayMs: 5 * MS, maxDelayMs: 1000 * SECOND, keyOf: opts.keyOf }),
    new BucketRateLimiter<T>({ qps: 10, burst: 100, clock: opts.clock }),
  );
}

/** DefaultControllerRateLimiter: the untyped name for the same limiter. */
export const defaultControllerRateLimiter = defaultTypedControllerRateLimiter;

/** DefaultTypedItemBasedRateLimiter: per-item 1ms·2^n ≤ 1000s. */
export function defaultTypedItemBasedRateLimiter<T>(opts: { keyOf?: KeyOf<T> } = {}): TypedRateLimiter<T> {
  return new ItemExponentialFailureRateLimiter<T>({
    baseDelayMs: 1 * MS,
    maxDelayMs: 1000 * SECOND,
    keyOf: opts.keyOf,
  });
}

/** controller-runtime's priority-queue default since v0.23: per-item 5ms·2^n ≤ 1000s, no bucket. */
export function defaultPriorityQueueRateLimiter<T>(opts: { keyOf?: KeyOf<T> } = {}): TypedRateLimiter<T> {
  return new ItemExponentialFailureRateLimiter<T>({
    baseDelayMs: 5 * MS,
    maxDelayMs: 1000 * SECOND,
    keyOf: opts.keyOf,
  });
}
