// Ports the queue defaulting of controller-runtime pkg/controller/controller.go: the priority queue named
// after the controller (default since v0.23), or client-go's rate-limiting queue, both reporting
// workqueue_* metrics to the controller's registry.
import { requestKey, type Request } from '../reconcile/reconcile';
import { newPriorityQueue, newTypedRateLimitingQueueWithConfig, PrometheusMetricsProvider } from '../workqueue/index';
import type { ControllerQueue, NewQueue } from './options';

export function defaultNewQueue(usePriorityQueue: boolean): NewQueue {
  return (name, rateLimiter, ctx): ControllerQueue => {
    const common = {
      name,
      keyOf: (r: Request) => requestKey(r),
      clock: ctx.clock,
      probe: ctx.probe,
      metrics: new PrometheusMetricsProvider({ registry: ctx.registry }),
    };
    if (usePriorityQueue) return newPriorityQueue<Request>({ ...common, rateLimiter });
    return newTypedRateLimitingQueueWithConfig<Request>({ ...common, rateLimiter });
  };
}
