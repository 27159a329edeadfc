// controller-runtime's controller_runtime_reconcile_time_seconds histogram buckets, in seconds: an upstream
// fact both sides need (the runtime's Prometheus histogram and the view's reconcile-duration histogram), kept
// here because the runtime may import only types from shared/protocol.
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
