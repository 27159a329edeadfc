// One key's story, built for reading top to bottom: what is pending now, then each reconcile (newest first)
// with every cause it absorbed, its result and the writes it made, and the hot-loop evidence when there is one.
import { isFailedOutcome } from '../../../shared/protocol/reconcile-outcomes';
import type { EnqueueCause } from '../../../shared/protocol/events';
import type { ControllerView, KeyView, ReconcileRecord, WriteRecord } from '../../../shared/protocol/view';
import { refKey } from '../../../shared/protocol/view';
import type { ChartPoint } from '../../components/TimeSeriesChart';

/** A cause in one line: "update of v1/Pod default/web-1 @rv 1042", "errorBackoff: conflict ...". */
export function describeCause(c: EnqueueCause): string {
  const parts: string[] = [c.type];
  if (c.eventType) parts.push(c.eventType);
  if (c.source) {
    parts.push(`${c.source.gvk} ${refKey(c.source)}`);
    if (c.source.resourceVersion) parts.push(`@rv ${c.source.resourceVersion}`);
  }
  if (c.detail) parts.push(`— ${c.detail}`);
  return parts.join(' ');
}

export function describeWrite(w: WriteRecord): string {
  return `${w.verb} ${w.ref.gvk} ${refKey(w.ref)}${w.ref.resourceVersion ? ` → rv ${w.ref.resourceVersion}` : ''}${
    w.code ? ` (${w.code})` : ''
  }${w.error ? ` failed: ${w.error}` : ''}`;
}

export interface CauseGroup {
  label: string;
  type: EnqueueCause['type'];
  count: number;
  /** true when this cause is an event about an object the controller itself wrote just before. */
  self: boolean;
}

/** Collapses identical causes ("update of default/web-1" ×5) while keeping order of first appearance. */
export function groupCauses(causes: readonly EnqueueCause[], selfSource?: EnqueueCause): CauseGroup[] {
  const out = new Map<string, CauseGroup>();
  for (const c of causes) {
    const label = describeCause(c);
    const g = out.get(label);
    if (g) g.count++;
    else
      out.set(label, {
        label,
        type: c.type,
        count: 1,
        self: selfSource !== undefined && c.source !== undefined && describeCause(selfSource) === label,
      });
  }
  return [...out.values()];
}

export interface TraceEntry {
  rec: ReconcileRecord;
  causes: CauseGroup[];
  /** Gap since the previous reconcile of this key ended, ms. */
  sincePrevMs?: number;
}

export function traceEntries(k: KeyView): TraceEntry[] {
  const hist = k.history;
  return hist
    .map((rec, i) => {
      const prev = i > 0 ? hist[i - 1] : undefined;
      const e: TraceEntry = { rec, causes: groupCauses(rec.causes, rec.selfCause?.cause) };
      if (prev?.endTs !== undefined) e.sincePrevMs = rec.startTs - prev.endTs;
      return e;
    })
    .reverse();
}

/** The controller's remembered writes to this key's object (and writes made while reconciling this key). */
export function writesForKey(c: ControllerView, key: string): WriteRecord[] {
  return Object.values(c.writes)
    .filter((w) => w.key === key || refKey(w.ref) === key)
    .sort((a, b) => b.ts - a.ts)
    .slice(0, 30);
}

/** Reconcile starts per second for this key over its recent history, to show a loop's cadence. */
export function cadenceSeries(k: KeyView, bucketMs = 1000): ChartPoint[] {
  if (k.history.length === 0) return [];
  const first = Math.floor((k.history[0] as ReconcileRecord).startTs / bucketMs) * bucketMs;
  const last = Math.floor((k.history[k.history.length - 1] as ReconcileRecord).startTs / bucketMs) * bucketMs;
  const points = new Map<number, ChartPoint>();
  for (let t = first; t <= last; t += bucketMs) points.set(t, { t, reconciles: 0, selfCaused: 0, failed: 0 });
  for (const r of k.history) {
    const p = points.get(Math.floor(r.startTs / bucketMs) * bucketMs) as ChartPoint;
    p.reconciles = (p.reconciles ?? 0) + 1;
    if (r.selfCaused) p.selfCaused = (p.selfCaused ?? 0) + 1;
    if (r.outcome && isFailedOutcome(r.outcome)) p.failed = (p.failed ?? 0) + 1;
  }
  return [...points.values()];
}

/** Keys worth tracing first: hot loops, then retrying, then most reconciled. */
export function interestingKeys(c: ControllerView, limit = 200): string[] {
  const hot = new Set(c.hotLoops.map((h) => h.key));
  return Object.values(c.keys)
    .sort(
      (a, b) =>
        Number(hot.has(b.key)) - Number(hot.has(a.key)) ||
        b.requeues - a.requeues ||
        b.reconciles - a.reconciles ||
        a.key.localeCompare(b.key),
    )
    .slice(0, limit)
    .map((k) => k.key);
}
