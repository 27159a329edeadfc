// What a failed key goes through before it comes back, per queue kind: the one home of these facts, read by
// every panel that explains backoff. Upstream, controller-runtime's NewTypedUnmanaged picks the default:
// with UsePriorityQueue, NewTypedItemExponentialFailureRateLimiter(5ms, 1000s) alone (priorityqueue.New
// defaults to the same); without it, client-go's DefaultTypedControllerRateLimiter, the max of that
// per-item exponential and an overall 10 qps / 100 burst token bucket shared by every key.
import type { ControllerQueueKind } from './events-controller';

export interface ExponentialFacts {
  /** The first failure's delay; each further failure of the same key doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface BucketFacts {
  qps: number;
  burst: number;
}

export interface RateLimiterFacts {
  /** Upstream's name for this limiter. */
  name: string;
  perItem: ExponentialFacts;
  /** The overall token bucket, when the limiter has one (only the classic queue's default). */
  bucket?: BucketFacts;
  /** One sentence for the UI. */
  summary: string;
}

const PER_ITEM: ExponentialFacts = { baseDelayMs: 5, maxDelayMs: 1_000_000 };

/** The default limiter of each queue kind whose default is known. */
export const DEFAULT_RATE_LIMITERS: Record<Exclude<ControllerQueueKind, 'custom'>, RateLimiterFacts> = {
  priority: {
    name: 'ItemExponentialFailureRateLimiter(5ms, 1000s)',
    perItem: PER_ITEM,
    summary:
      'a per-key exponential backoff only (5ms, 10ms, 20ms… up to 1000s): no overall token bucket, so many failing keys retry as fast as their own backoff allows',
  },
  rateLimiting: {
    name: 'DefaultTypedControllerRateLimiter',
    perItem: PER_ITEM,
    bucket: { qps: 10, burst: 100 },
    summary:
      'the larger of a per-key exponential backoff (5ms, 10ms, 20ms… up to 1000s) and an overall token bucket (10 per second, bursts of 100) shared by every key',
  },
};

/**
 * The limiter a controller's failed keys go through, from its queue kind and limiter as the runtime
 * reported them; undefined when that is not known (a producer that does not report it, a custom queue or a
 * custom limiter): then nothing about buckets or delays may be claimed.
 */
export function rateLimiterOf(c: {
  queueKind?: ControllerQueueKind;
  rateLimiter?: 'default' | 'custom';
}): RateLimiterFacts | undefined {
  if (c.rateLimiter !== 'default' || c.queueKind === undefined || c.queueKind === 'custom') return undefined;
  return DEFAULT_RATE_LIMITERS[c.queueKind];
}

/** The delay the per-item exponential gives a key's n-th requeue (n from 0), as client-go computes it. */
export function exponentialDelayMs(f: ExponentialFacts, n: number): number {
  const d = f.baseDelayMs * 2 ** n;
  return d > f.maxDelayMs ? f.maxDelayMs : d;
}
