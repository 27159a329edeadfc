// The workqueue block: client-go util/workqueue and controller-runtime's priority queue.
export type * from './interfaces';
export { defaultQueue, type Queue } from './fifo';
export { Heap, type HeapEntry } from './heap';
export { newTyped, newTypedWithConfig, UNKNOWN_CAUSE, WorkQueue, type QueueOptions } from './queue';
export { DelayingQueue, newTypedDelayingQueueWithConfig, type DelayingQueueOptions } from './delaying-queue';
export {
  newTypedRateLimitingQueueWithConfig,
  RateLimitingQueue,
  type RateLimitingQueueOptions,
} from './rate-limiting-queue';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  defaultPriorityQueueRateLimiter,
  defaultTypedControllerRateLimiter,
  defaultTypedItemBasedRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  WithMaxWaitRateLimiter,
  type BucketRateLimiterOptions,
  type DefaultRateLimiterOptions,
  type ItemExponentialFailureRateLimiterOptions,
  type ItemFastSlowRateLimiterOptions,
} from './rate-limiters';
export { TokenBucket, type TokenBucketOptions } from './token-bucket';
export { LOW_PRIORITY, newPriorityQueue, PriorityQueue, type PriorityQueueOptions } from './priority-queue';
export {
  DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS,
  hasPriorityDepth,
  NOOP_METRICS_PROVIDER,
  type CounterMetric,
  type DepthMetricWithPriority,
  type GaugeMetric,
  type HistogramMetric,
  type MetricsProvider,
  type MetricsProviderWithPriority,
  type SettableGaugeMetric,
} from './metrics';
export {
  MAX_RECOMMENDED_UNIQUE_PRIORITIES,
  PRIORITY_CARDINALITY_EXCEEDED,
  PrometheusMetricsProvider,
  type PrometheusMetricsProviderOptions,
} from './prometheus-metrics';
