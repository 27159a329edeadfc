// Ports client-go util/workqueue/rate_limiting_queue.go: a delaying queue whose addRateLimited waits as long as
// the rate limiter says. forget() only clears the limiter's memory of the item; it never touches the queue.
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { DelayingQueue, type DelayingQueueOptions } from './delaying-queue';
import type { TypedRateLimiter, TypedRateLimitingInterface } from './interfaces';
import { defaultTypedControllerRateLimiter } from './rate-limiters';

export interface RateLimitingQueueOptions<T> extends DelayingQueueOptions<T> {
  /**
   * Default defaultTypedControllerRateLimiter built with this queue's keyOf and clock. A limiter you pass
   * must identify items the same way as keyOf.
   */
  rateLimiter?: TypedRateLimiter<T>;
}

/** The rate-limiting queue (client-go rateLimitingType). */
export class RateLimitingQueue<T> extends DelayingQueue<T> implements TypedRateLimitingInterface<T> {
  readonly rateLimiter: TypedRateLimiter<T>;

  constructor(opts: RateLimitingQueueOptions<T> = {}) {
    super(opts);
    this.rateLimiter =
      opts.rateLimiter ?? defaultTypedControllerRateLimiter<T>({ keyOf: this.keyOf, clock: this.clock });
  }

  addRateLimited(item: T, cause?: EnqueueCause): void {
    const delayMs = this.rateLimiter.when(item);
    this.addAfterWithRequeues(
      item,
      delayMs,
      cause,
      this.probe.enabled ? this.rateLimiter.numRequeues(item) : undefined,
    );
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
    if (this.probe.enabled) this.probe.emit({ kind: 'queue.forget', queue: this.name, key: this.keyOf(item) });
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}

/** NewTypedRateLimitingQueueWithConfig. */
export function newTypedRateLimitingQueueWithConfig<T>(opts: RateLimitingQueueOptions<T>): RateLimitingQueue<T> {
  return new RateLimitingQueue<T>(opts);
}
