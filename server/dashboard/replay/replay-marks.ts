// The notable moments of a recording, for the replay timeline: 410s, relists, reconcile errors and hot loops,
// found by the same reducer that builds the view (so a mark is exactly what the Overview's notable list said
// at that point). Many marks are thinned to one per stretch of the timeline, keeping the most severe.
import type { ReplayMark, ReplayMarkKind } from '../../../shared/protocol/commands';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import type { NotableEntry, ViewLimits } from '../../../shared/protocol/view';
import { createView } from '../../../shared/protocol/view';

const SEVERITY: Record<ReplayMarkKind, number> = { hotLoop: 4, '410': 3, error: 2, relist: 1 };

export function markKind(n: NotableEntry): ReplayMarkKind | undefined {
  if (/hot loop/.test(n.text)) return /hot loop ended/.test(n.text) ? undefined : 'hotLoop';
  if (/\b410\b/.test(n.text)) return '410';
  if (/relist/.test(n.text)) return 'relist';
  if (n.level === 'error' || /reconcile (error|terminalError|panic)/.test(n.text)) return 'error';
  return undefined;
}

export function replayMarks(events: readonly StampedEvent[], limits: Partial<ViewLimits>, max = 240): ReplayMark[] {
  const marks: ReplayMark[] = [];
  let view = createView(limits);
  let seen = 0;
  // Small chunks: the view keeps only the newest notable entries, so read them before they roll off.
  const CHUNK = Math.max(1, Math.floor(view.limits.maxNotable / 2));
  for (let i = 0; i < events.length; i += CHUNK) {
    view = reduce(view, events.slice(i, i + CHUNK));
    for (const n of view.notable) {
      if (n.seq <= seen) continue;
      const kind = markKind(n);
      if (kind) marks.push({ seq: n.seq, ts: n.ts, kind, text: n.text });
    }
    seen = view.lastSeq;
  }
  marks.sort((a, b) => a.seq - b.seq);
  return thin(marks, events[0]?.seq ?? 0, events[events.length - 1]?.seq ?? 0, max);
}

/** At most max marks: one per equal stretch of seqs, the most severe (then the first) of each. */
function thin(marks: ReplayMark[], first: number, last: number, max: number): ReplayMark[] {
  if (marks.length <= max) return marks;
  const width = Math.max(1, (last - first + 1) / max);
  const buckets = new Map<number, ReplayMark>();
  for (const m of marks) {
    const b = Math.floor((m.seq - first) / width);
    const had = buckets.get(b);
    if (!had || SEVERITY[m.kind] > SEVERITY[had.kind]) buckets.set(b, m);
  }
  return [...buckets.values()].sort((a, b) => a.seq - b.seq);
}
