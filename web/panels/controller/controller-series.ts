// Chart and table models for the controller panel: reconciles by outcome, the duration histogram in
// controller-runtime's buckets, quantiles, throughput over time, and the worker pool.
import type { ReconcileOutcome } from '../../../shared/protocol/events';
import type { ControllerView, Histogram } from '../../../shared/protocol/view';
import { RECONCILE_OUTCOMES } from '../../../shared/protocol/reconcile-outcomes';
import type { HistogramBar } from '../../components/Bars';
import type { BreakdownRow } from '../../components/Bars';
import type { ChartPoint } from '../../components/TimeSeriesChart';
import { OUTCOME_COLOR } from '../../components/colors';
import { fmtBucket } from '../../components/format';

/**
 * Prometheus-style quantile estimate: linear interpolation inside the bucket holding the rank. Returns seconds,
 * or undefined with no observations. Observations in +Inf report the highest finite bound.
 */
export function histogramQuantile(h: Histogram, q: number): number | undefined {
  if (h.count === 0) return undefined;
  const rank = q * h.count;
  let cum = 0;
  for (let i = 0; i < h.counts.length; i++) {
    const n = h.counts[i] ?? 0;
    if (cum + n >= rank && n > 0) {
      if (i >= h.buckets.length) return h.buckets[h.buckets.length - 1];
      const lo = i === 0 ? 0 : (h.buckets[i - 1] as number);
      const hi = h.buckets[i] as number;
      return lo + (hi - lo) * ((rank - cum) / n);
    }
    cum += n;
  }
  return h.buckets[h.buckets.length - 1];
}

/** One bar per bucket, trimmed after the last non-empty one (keeping at least 12 so the axis reads). */
export function histogramBars(h: Histogram): HistogramBar[] {
  const bars: HistogramBar[] = h.counts.map((count, i) => {
    const hi = i < h.buckets.length ? (h.buckets[i] as number) : Infinity;
    const lo = i === 0 ? 0 : (h.buckets[i - 1] as number);
    return { label: fmtBucket(hi), count, title: `${fmtBucket(lo)} – ${fmtBucket(hi)}: ${count}` };
  });
  let last = 0;
  bars.forEach((b, i) => {
    if (b.count > 0) last = i;
  });
  return bars.slice(0, Math.max(12, last + 2));
}

export function outcomeRows(c: ControllerView): BreakdownRow[] {
  return RECONCILE_OUTCOMES.map((o: ReconcileOutcome) => ({
    label: o,
    value: c.reconciles[o],
    color: OUTCOME_COLOR[o],
  }));
}

/** Reconciles, errors and retries per bucket, and the mean duration of reconciles ended in the bucket. */
export function throughputSeries(c: ControllerView): ChartPoint[] {
  return c.series.map((p) => ({
    t: p.t,
    reconciles: p.reconciles,
    errors: p.errors,
    retries: p.retries,
    adds: p.adds,
    meanMs: p.durationCount > 0 ? p.durationSumMs / p.durationCount : 0,
    activeWorkers: p.activeWorkers,
  }));
}

export interface WorkerRow {
  worker: number;
  key?: string;
  busyMs?: number;
  idleMs?: number;
}

export function workerRows(c: ControllerView, now: number): WorkerRow[] {
  const rows: WorkerRow[] = [];
  const seen = new Set<number>();
  for (const w of Object.values(c.workerStates)) {
    seen.add(w.worker);
    rows.push(
      w.key !== undefined
        ? { worker: w.worker, key: w.key, busyMs: now - w.since }
        : { worker: w.worker, idleMs: now - w.since },
    );
  }
  // Workers that never reconciled yet still exist; show them idle.
  for (let i = 0; i < c.workers; i++) if (!seen.has(i)) rows.push({ worker: i });
  return rows.sort((a, b) => a.worker - b.worker);
}

export interface HandlerRow {
  handler: string;
  events: number;
  filtered: number;
  enqueued: number;
  lastFilteredBy?: string;
}

export function handlerRows(c: ControllerView): HandlerRow[] {
  return Object.entries(c.handlers)
    .map(([handler, h]) => ({ handler, ...h }))
    .sort((a, b) => b.events - a.events);
}
