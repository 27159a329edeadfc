// One key's story, built for reading top to bottom: what is pending now, then each reconcile (newest first)
// with every cause it absorbed, its result and the writes it made, and the hot-loop evidence when there is one.
import { isFailedOutcome } from '../../../shared/protocol/reconcile-outcomes';
import type { EnqueueCause } from '../../../shared/protocol/events';
import type {
  CauseAttribution,
  ControllerView,
  KeyView,
  ReconcileRecord,
  WriteRecord,
} from '../../../shared/protocol/view';
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

/** Who wrote the version a cause delivered, in words, and how that was decided. */
export interface WriterLabel {
  text: string;
  /** 'exact' (by resourceVersion, or by absence), 'inferred', or 'unknown'. */
  how: 'exact' | 'inferred' | 'unknown';
  /** One sentence on how the label was decided, for the tooltip. */
  why: string;
  /** Its own write, decided exactly: the reconcile is self-caused. */
  self: boolean;
}

export function describeWriter(a: CauseAttribution): WriterLabel {
  const rv = a.write?.resourceVersion;
  switch (a.writer) {
    case 'self':
      if (a.basis === 'rv')
        return {
          text: `its own ${a.write?.verb ?? 'write'}`,
          how: 'exact',
          why: `exact: the event carried rv ${rv}, the version this controller's ${a.write?.verb} produced`,
          self: true,
        };
      if (a.basis === 'span')
        return {
          text: `folded in its own ${a.write?.verb ?? 'write'} (rv ${rv})`,
          how: 'inferred',
          why: `inferred: this controller's write made rv ${rv}, inside the versions this update spans`,
          self: false,
        };
      return {
        text: `after its own ${a.write?.verb ?? 'delete'}`,
        how: 'inferred',
        why: 'inferred: this controller deleted the same object, and its client never saw the resulting version',
        self: false,
      };
    case 'controller':
      return {
        text: `${a.controller}'s ${a.write?.verb ?? 'write'}`,
        how: 'exact',
        why: `exact: the event carried rv ${rv}, the version controller ${a.controller} wrote`,
        self: false,
      };
    case 'other':
      return {
        text: "another client's write",
        how: 'exact',
        why: 'exact by absence: every write this controller made to the object is known, and none made this version',
        self: false,
      };
    default:
      return { text: 'unknown writer', how: 'unknown', why: `cannot tell: ${a.why ?? 'not enough seen'}`, self: false };
  }
}

export interface CauseGroup {
  label: string;
  type: EnqueueCause['type'];
  count: number;
  /** Who made the version the cause delivered, when the cause is an event. */
  writer?: WriterLabel;
  /** true when the cause delivered exactly the version of this controller's own write. */
  self: boolean;
}

/** Collapses identical causes ("update of default/web-1" ×5) while keeping order of first appearance. */
export function groupCauses(
  causes: readonly EnqueueCause[],
  attributions?: readonly (CauseAttribution | null)[],
): CauseGroup[] {
  const out = new Map<string, CauseGroup>();
  causes.forEach((c, i) => {
    const a = attributions?.[i];
    const writer = a ? describeWriter(a) : undefined;
    const label = describeCause(c);
    const id = writer ? `${label}\u0000${writer.text}\u0000${writer.how}` : label;
    const g = out.get(id);
    if (g) g.count++;
    else out.set(id, { label, type: c.type, count: 1, self: writer?.self ?? false, ...(writer ? { writer } : {}) });
  });
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
      const e: TraceEntry = { rec, causes: groupCauses(rec.causes, rec.attributions) };
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
