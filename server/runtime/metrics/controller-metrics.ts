// Ports controller-runtime pkg/internal/controller/metrics/metrics.go: the per-controller reconcile metrics,
// under upstream's names, labels and buckets.
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { counterOn, gaugeOn, histogramOn, registry as defaultRegistry } from './registry';

/** Upstream's reconcile_time_seconds buckets. */
export const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

export const RESULT_LABELS = ['success', 'error', 'requeue', 'requeue_after'] as const;
export type ResultLabel = (typeof RESULT_LABELS)[number];

export interface ControllerMetrics {
  reconcileTotal: Counter<string>;
  reconcileErrors: Counter<string>;
  terminalReconcileErrors: Counter<string>;
  reconcilePanics: Counter<string>;
  reconcileTimeouts: Counter<string>;
  reconcileTime: Histogram<string>;
  workerCount: Gauge<string>;
  activeWorkers: Gauge<string>;
}

export function controllerMetrics(reg: Registry = defaultRegistry): ControllerMetrics {
  const c = ['controller'];
  return {
    reconcileTotal: counterOn(
      reg,
      'controller_runtime_reconcile_total',
      'Total number of reconciliations per controller',
      ['controller', 'result'],
    ),
    reconcileErrors: counterOn(
      reg,
      'controller_runtime_reconcile_errors_total',
      'Total number of reconciliation errors per controller',
      c,
    ),
    terminalReconcileErrors: counterOn(
      reg,
      'controller_runtime_terminal_reconcile_errors_total',
      'Total number of terminal reconciliation errors per controller',
      c,
    ),
    reconcilePanics: counterOn(
      reg,
      'controller_runtime_reconcile_panics_total',
      'Total number of reconciliation panics per controller',
      c,
    ),
    reconcileTimeouts: counterOn(
      reg,
      'controller_runtime_reconcile_timeouts_total',
      'Total number of reconciliation timeouts per controller',
      c,
    ),
    reconcileTime: histogramOn(
      reg,
      'controller_runtime_reconcile_time_seconds',
      'Length of time per reconciliation per controller',
      c,
      RECONCILE_TIME_BUCKETS,
    ),
    workerCount: gaugeOn(
      reg,
      'controller_runtime_max_concurrent_reconciles',
      'Maximum number of concurrent reconciles per controller',
      c,
    ),
    activeWorkers: gaugeOn(
      reg,
      'controller_runtime_active_workers',
      'Number of currently used workers per controller',
      c,
    ),
  };
}

/** What Start does first: every series for this controller exists at zero (upstream initMetrics). */
export function initControllerMetrics(m: ControllerMetrics, controller: string, workers: number): void {
  for (const result of RESULT_LABELS) m.reconcileTotal.inc({ controller, result }, 0);
  m.reconcileErrors.inc({ controller }, 0);
  m.terminalReconcileErrors.inc({ controller }, 0);
  m.reconcilePanics.inc({ controller }, 0);
  m.reconcileTimeouts.inc({ controller }, 0);
  m.workerCount.set({ controller }, workers);
  m.activeWorkers.set({ controller }, 0);
}
