// The notable log: the few events a person should see without filtering (errors, 410s, relists, syncs,
// lifecycle, hot loops), kept apart from the raw log so churn cannot push them out.
import type { Draft } from './reduce-draft';
import type { NotableEntry, NotableLevel } from './view';

export function notable(
  d: Draft,
  ev: { seq: number; ts: number; kind: string },
  level: NotableLevel,
  text: string,
  scope: Pick<NotableEntry, 'informer' | 'controller' | 'key'> = {},
): void {
  d.ring(d.view, 'notable', d.view.limits.maxNotable).push({
    seq: ev.seq,
    ts: ev.ts,
    level,
    kind: ev.kind,
    text,
    ...scope,
  });
}
