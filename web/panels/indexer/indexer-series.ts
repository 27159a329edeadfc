// Models for the cache browser: the keys to list (from the server's indexer when it answers, otherwise the
// keys this page has seen in events), recent indexer writes from the event log, and versions rendered as
// readable diff lines.
import type { IndexerUpdateEvent, StampedEvent } from '../../../shared/protocol/events';
import { lookup } from '../../../shared/protocol/records';
import type { DiffOp, ObjectVersion } from '../../../shared/protocol/socket';
import type { RuntimeView } from '../../../shared/protocol/view';
import { refKey } from '../../../shared/protocol/view';

/** Keys of the informer's objects this page has seen: pending deltas, recent log entries, controller keys. */
export function knownKeys(view: RuntimeView, informer: string, search = ''): string[] {
  const keys = new Set<string>();
  const inf = lookup(view.informers, informer);
  if (inf) for (const k of Object.keys(inf.pending)) keys.add(k);
  const deleted = new Set<string>();
  for (const ev of view.log) {
    if (ev.kind === 'indexer.update' && ev.informer === informer) {
      if (ev.op === 'delete') {
        keys.delete(ev.key);
        deleted.add(ev.key);
      } else {
        keys.add(ev.key);
        deleted.delete(ev.key);
      }
    }
  }
  for (const c of Object.values(view.controllers)) {
    if (c.forKind !== informer) continue;
    for (const k of Object.values(c.keys)) {
      // A queue key outlives its object; the last event it saw tells whether the object is still there.
      const causes = k.pendingCauses.length > 0 ? k.pendingCauses : (k.lastReconcile?.causes ?? []);
      const lastEvent = causes.filter((x) => x.eventType !== undefined).pop();
      if (!deleted.has(k.key) && lastEvent?.eventType !== 'delete') keys.add(k.key);
    }
  }
  const q = search.trim().toLowerCase();
  return [...keys].filter((k) => !q || k.toLowerCase().includes(q)).sort();
}

/** The keys lowercased once per list, so each search compares without lowercasing 100,000 strings again. */
export function lowerKeys(keys: readonly string[]): string[] {
  return keys.map((k) => k.toLowerCase());
}

/** Whether two key lists hold the same keys in the same order (a refresh of an unchanged cache). */
export function sameKeys(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The keys containing `search` (trimmed, any case), in list order; `lower` is lowerKeys(keys). */
export function filterKeys(keys: readonly string[], lower: readonly string[], search: string): readonly string[] {
  const q = search.trim().toLowerCase();
  if (!q) return keys;
  const out: string[] = [];
  for (let i = 0; i < keys.length; i++) if ((lower[i] as string).includes(q)) out.push(keys[i] as string);
  return out;
}

export interface CacheOpRow {
  seq: number;
  ts: number;
  op: IndexerUpdateEvent['op'];
  key: string;
  resourceVersion?: string;
  size: number;
}

/** The newest indexer writes for this informer, newest first. */
export function recentOps(log: readonly StampedEvent[], informer: string, limit = 40): CacheOpRow[] {
  const out: CacheOpRow[] = [];
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const ev = log[i] as StampedEvent;
    if (ev.kind !== 'indexer.update' || ev.informer !== informer) continue;
    const row: CacheOpRow = { seq: ev.seq, ts: ev.ts, op: ev.op, key: ev.key || refKey(ev.ref), size: ev.size };
    if (ev.ref.resourceVersion !== undefined) row.resourceVersion = ev.ref.resourceVersion;
    out.push(row);
  }
  return out;
}

export interface DiffLine {
  sign: '+' | '-' | '~';
  path: string;
  text: string;
}

function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

/** One line per change; a replace shows old → new. The first version's whole-object add is summarised. */
export function diffLines(ops: readonly DiffOp[]): DiffLine[] {
  return ops.map((op) => {
    if (op.op === 'add' && op.path === '') return { sign: '+', path: '(object)', text: 'first version seen' };
    if (op.op === 'add') return { sign: '+', path: op.path, text: show(op.value) };
    if (op.op === 'remove') return { sign: '-', path: op.path, text: show(op.old) };
    return { sign: '~', path: op.path, text: `${show(op.old)} → ${show(op.value)}` };
  });
}

/** Newest first, for reading what changed most recently. */
export function versionsNewestFirst(versions: readonly ObjectVersion[]): ObjectVersion[] {
  return versions.slice().reverse();
}

/** "default/web-1" → { namespace: "default", name: "web-1" }; cluster-scoped keys have no namespace. */
export function splitKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
