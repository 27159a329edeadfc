// The workqueue contracts (client-go util/workqueue, Typed[T] generation). Go compares items by value;
// TypeScript cannot, so every queue knows an item's identity through a keyOf function.
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';

export type KeyOf<T> = (item: T) => string;

export type GetResult<T> =
  | { shutdown: false; item: T; /** every cause absorbed since the item was last taken */ causes: EnqueueCause[] }
  | { shutdown: true; item?: undefined; causes?: undefined };

/** workqueue.TypedInterface */
export interface TypedInterface<T> {
  add(item: T, cause?: EnqueueCause): void;
  len(): number;
  /** Blocks until an item is ready or the queue shuts down. */
  get(): Promise<GetResult<T>>;
  done(item: T): void;
  shutDown(): void;
  /** Shuts down, then waits until every item being processed is done. */
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

/** workqueue.TypedDelayingInterface */
export interface TypedDelayingInterface<T> extends TypedInterface<T> {
  addAfter(item: T, delayMs: number, cause?: EnqueueCause): void;
}

/** workqueue.TypedRateLimiter: delays are in milliseconds. */
export interface TypedRateLimiter<T> {
  when(item: T): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** workqueue.TypedRateLimitingInterface */
export interface TypedRateLimitingInterface<T> extends TypedDelayingInterface<T> {
  addRateLimited(item: T, cause?: EnqueueCause): void;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** controller-runtime priorityqueue.AddOpts, plus the cause this add records. */
export interface AddOpts {
  /** Delay before the item is ready; ≤ 0 means now. */
  after?: number;
  /** Ask the rate limiter for a delay (the shorter of it and `after` when both are set). */
  ratelimited?: boolean;
  /** Higher runs sooner. Default 0. */
  priority?: number;
  cause?: EnqueueCause;
}

export type PriorityGetResult<T> =
  | { shutdown: false; item: T; priority: number; causes: EnqueueCause[] }
  | { shutdown: true; item?: undefined; priority: 0; causes?: undefined };

/** controller-runtime priorityqueue.PriorityQueue. */
export interface PriorityQueueInterface<T> extends TypedRateLimitingInterface<T> {
  addWithOpts(opts: AddOpts, ...items: T[]): void;
  getWithPriority(): Promise<PriorityGetResult<T>>;
}
