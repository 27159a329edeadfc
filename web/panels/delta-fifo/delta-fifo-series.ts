// Models for the DeltaFIFO panel: pending deltas per key (what the informer has been told but not yet
// processed), the delta mix, and queue length over time.
import type { DeltaType, StampedEvent } from '../../../shared/protocol/events';
import type { InformerView, PendingDeltas } from '../../../shared/protocol/view';
import type { BreakdownRow } from '../../components/Bars';
import type { ChartPoint } from '../../components/TimeSeriesChart';
import { DELTA_COLOR } from '../../components/colors';
import { DELTA_TYPES } from '../../../shared/protocol/events-cache';

export interface PendingRow extends PendingDeltas {
  ageMs: number;
}

/** Oldest first: the key at the head of the FIFO is the one the informer's pop loop will process next. */
export function pendingRows(inf: InformerView, now: number): PendingRow[] {
  return Object.values(inf.pending)
    .map((p) => ({ ...p, ageMs: Math.max(0, now - p.since) }))
    .sort((a, b) => a.since - b.since || a.key.localeCompare(b.key));
}

export function deltaMix(inf: InformerView): BreakdownRow[] {
  return DELTA_TYPES.map((t) => ({ label: t, value: inf.counters.deltas[t], color: DELTA_COLOR[t] }));
}

export function fifoSeries(inf: InformerView): ChartPoint[] {
  return inf.series.map((p) => ({ t: p.t, fifoLength: p.fifoLength, deltas: p.deltas, pops: p.pops }));
}

export interface PopRow {
  seq: number;
  ts: number;
  key: string;
  deltas: DeltaType[];
  queueLength: number;
  /** Absent when the processing time cannot be seen (a queue followed from outside). */
  durationMs?: number;
  requeued: boolean;
  error?: string;
}

/** The newest pops for this informer, newest first: which deltas each key delivered together. */
export function recentPops(log: readonly StampedEvent[], informer: string, limit = 40): PopRow[] {
  const out: PopRow[] = [];
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const ev = log[i] as StampedEvent;
    if (ev.kind !== 'fifo.pop' || ev.informer !== informer) continue;
    const row: PopRow = {
      seq: ev.seq,
      ts: ev.ts,
      key: ev.key,
      deltas: ev.deltas,
      queueLength: ev.queueLength,
      requeued: ev.requeued ?? false,
    };
    if (ev.durationMs !== undefined) row.durationMs = ev.durationMs;
    if (ev.error !== undefined) row.error = ev.error;
    out.push(row);
  }
  return out;
}
