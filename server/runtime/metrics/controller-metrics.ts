// Ports controller-runtime pkg/internal/controller/metrics/metrics.go: the per-controller reconcile metrics,
// under upstream's names, labels and buckets.
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RECONCILE_TIME_BUCKETS } from '../../../shared/models/reconcile-time-buckets';
import { counterOn, gaugeOn, histogramOn, registry as defaultRegistry } from './registry';

export { RECONCILE_TIME_BUCKETS };

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
      [...RECONCILE_TIME_BUCKETS],
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
