// controller-runtime pkg/metrics: `metrics.registry` and the metric families this layer owns.
export { registry, newRegistry } from './registry';
export { controllerMetrics, RECONCILE_TIME_BUCKETS, type ControllerMetrics } from './controller-metrics';
export { leaderElectionMetrics, type LeaderElectionMetrics } from './leaderelection-metrics';
export {
  restClientMetrics,
  registerRESTClientMetrics,
  REST_CLIENT_LATENCY_BUCKETS,
  type RestClientMetrics,
  type RESTClientMetric,
} from './client-go-adapter';
