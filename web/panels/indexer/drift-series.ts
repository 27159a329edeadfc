// Cache drift, for reading: one row per key that differs (why it differs, both resourceVersions), and what the
// reflector's history says about it — the list the cache was built from and the watch that should have
// carried every change since.
import type { DriftEntry, DriftReport } from '../../../shared/protocol/drift';
import { compareResourceVersions } from '../../../shared/protocol/drift';
import type { InformerView, ReflectorSessionEntry } from '../../../shared/protocol/view';

export type DriftKind = 'missing' | 'extra' | 'stale';

export interface DriftRow extends DriftEntry {
  kind: DriftKind;
}

export const DRIFT_MEANING: Record<DriftKind, string> = {
  missing: 'on the server, not in the cache: a create the cache never got',
  extra: 'in the cache, gone from the server: a delete the cache never got',
  stale: 'in both, the cache older: an update the cache never got',
};

export function driftRows(r: DriftReport): DriftRow[] {
  return [
    ...r.missing.map((e) => ({ ...e, kind: 'missing' as const })),
    ...r.extra.map((e) => ({ ...e, kind: 'extra' as const })),
    ...r.stale.map((e) => ({ ...e, kind: 'stale' as const })),
  ];
}

export interface DriftExplanation {
  /** The reflector history entries that explain the drift, newest last (the list, the watch after it). */
  entries: ReflectorSessionEntry[];
  text: string;
}

type WatchEntry = Extract<ReflectorSessionEntry, { type: 'watch' }>;
type ListEntry = Extract<ReflectorSessionEntry, { type: 'list' }>;

/**
 * What the reflector was doing while the cache fell behind: the cache holds what the last list gave it plus
 * what watches delivered since; a change on the server after the watch's resourceVersion that the watch did
 * not deliver is missing from the cache until the watch ends and the reflector lists again.
 */
export function explainDrift(r: DriftReport, inf: InformerView | undefined): DriftExplanation {
  const drifted = r.missing.length + r.extra.length + r.stale.length;
  if (!inf) return { entries: [], text: 'This informer has not reported its history.' };
  const history = inf.history;
  const lastList = [...history].reverse().find((h): h is ListEntry => h.type === 'list');
  const watch = [...history].reverse().find((h): h is WatchEntry => h.type === 'watch');
  const entries = [lastList, watch]
    .filter((e): e is ListEntry | WatchEntry => e !== undefined)
    .sort((a, b) => a.seq - b.seq);
  if (drifted === 0) {
    return {
      entries,
      text: `In sync: all ${r.serverCount} objects at the LIST's resourceVersion ${r.listResourceVersion} are in the cache at the same version.`,
    };
  }
  if (watch && watch.endTs === undefined) {
    const behind =
      inf.lastResourceVersion !== undefined
        ? compareResourceVersions(inf.lastResourceVersion, r.listResourceVersion)
        : undefined;
    return {
      entries,
      text:
        `The watch open since rv ${watch.resourceVersion} has delivered ${watch.events} events and ${watch.bookmarks} bookmarks, ` +
        `yet the server is at rv ${r.listResourceVersion}${behind !== undefined && behind < 0 ? ` and the cache's last seen rv is ${inf.lastResourceVersion}` : ''}: ` +
        `changes after the watch's resourceVersion did not arrive (a stalled watch looks exactly like this). ` +
        `The cache catches up when this watch ends — by timeout, error or 410 — and the reflector watches or lists again.`,
    };
  }
  if (inf.state === 'backoff' || inf.state === 'relisting' || inf.state === 'listing') {
    return {
      entries,
      text: `The reflector is ${inf.state}: no watch is delivering changes now, so the cache lags until it lists and watches again.`,
    };
  }
  return {
    entries,
    text: 'The reflector is not watching: changes made since its last list or watch have not reached the cache.',
  };
}
