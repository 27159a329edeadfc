// A controller's writes as the view remembers them: per object, the latest write and a few earlier ones,
// each with the uid and resourceVersion its response carried, and the reconcile that made it. What the view
// forgets is marked (the newest version forgotten), so a claim that needs every write to be known is never
// made past what was kept.
import type { ClientRequestEvent } from './events-controller';
import type { Draft } from './reduce-draft';
import type { ControllerView, KeyView, WriteRecord } from './view';
import { dictOf, lookup } from './records';
import { raiseMark } from './resource-version';
import { refId, refKey } from './view';

type Stamped<E> = E & { seq: number; ts: number };

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deleteAllOf', 'updateStatus', 'patchStatus']);
/** Earlier writes remembered per object, to match an event to the exact write that produced it. */
const MAX_EARLIER_WRITES = 8;

/** Requests by verb that were writes (uncached reads through the API reader are not). */
export function writeCount(c: { client: { requests: Record<string, number> } }): number {
  let n = 0;
  for (const [verb, count] of Object.entries(c.client.requests)) if (WRITE_VERBS.has(verb)) n += count;
  return n;
}

export function isWrite(ev: ClientRequestEvent): boolean {
  return WRITE_VERBS.has(ev.verb) && !ev.cached;
}

/** Remembers a write (failed ones too, for the UI); returns the record, or undefined for reads. */
export function recordWrite(d: Draft, c: ControllerView, ev: Stamped<ClientRequestEvent>): WriteRecord | undefined {
  if (!isWrite(ev)) return undefined;
  const key = writerKey(c, ev);
  const w: WriteRecord = { seq: ev.seq, ts: ev.ts, verb: ev.verb, ref: ev.ref };
  if (key !== undefined) w.key = key;
  if (ev.code !== undefined) w.code = ev.code;
  if (ev.error !== undefined) w.error = ev.error;
  const running = key !== undefined ? lookup(c.keys, key)?.lastReconcile : undefined;
  if (running && running.endTs === undefined && running.selfCaused) w.fromSelfCaused = true;
  const writes = d.childRecord(c, 'writes');
  const id = refId(ev.ref);
  const prev = writes[id];
  if (prev) keepEarlier(w, prev);
  writes[id] = w;
  if (prev === undefined && Object.keys(writes).length > d.view.limits.maxWritesPerController)
    trimWrites(c, d.view.limits.maxWritesPerController);
  if (key !== undefined) countInReconcile(d, c, key);
  return w;
}

/** Carries prev (and its earlier list) into w's earlier list; what falls off is marked as forgotten. */
function keepEarlier(w: WriteRecord, prev: WriteRecord): void {
  const earlier = [...(prev.earlier ?? [])];
  if (prev.error === undefined) {
    earlier.push({
      seq: prev.seq,
      ts: prev.ts,
      verb: prev.verb,
      resourceVersion: prev.ref.resourceVersion ?? '',
      ...(prev.ref.uid !== undefined ? { uid: prev.ref.uid } : {}),
      ...(prev.fromSelfCaused ? { fromSelfCaused: true } : {}),
    });
  }
  let mark = prev.forgottenUpToRv;
  while (earlier.length > MAX_EARLIER_WRITES) {
    const gone = earlier.shift();
    if (gone && (gone.resourceVersion !== '' || !isDelete(gone.verb)))
      mark = raiseMark(mark, gone.resourceVersion || undefined);
  }
  if (earlier.length > 0) w.earlier = earlier;
  if (mark !== undefined) w.forgottenUpToRv = mark;
}

/**
 * The key whose reconcile made the write: the reconcile with the write's reconcileId (exact), else, for
 * producers that send no id, the worker reconciling the written object's key, else the only busy worker.
 */
function writerKey(c: ControllerView, ev: ClientRequestEvent): string | undefined {
  const objectKey = refKey(ev.ref);
  let only: string | undefined;
  let busy = 0;
  for (const w of Object.values(c.workerStates)) {
    if (w.key === undefined) continue;
    if (ev.reconcileId !== undefined) {
      if (w.reconcileId === ev.reconcileId) return w.key;
      continue;
    }
    if (w.key === objectKey) return w.key;
    only = w.key;
    busy++;
  }
  return busy === 1 && ev.reconcileId === undefined ? only : undefined;
}

/** The running reconcile of key made one more write. */
function countInReconcile(d: Draft, c: ControllerView, key: string): void {
  const k = lookup(c.keys, key);
  if (!k?.lastReconcile || k.lastReconcile.endTs !== undefined) return;
  const owned = d.own(d.childRecord(c, 'keys')[key] as KeyView);
  d.childRecord(c, 'keys')[key] = owned;
  const rec = d.made({ ...k.lastReconcile, writes: k.lastReconcile.writes + 1 });
  const h = d.child(owned, 'history');
  const seq = k.lastReconcile.seq;
  const i = h.findLastIndex((r) => r.seq === seq);
  if (i >= 0) h[i] = rec;
  owned.lastReconcile = rec;
}

/** The successful write of this record (or an earlier one) that produced exactly rv (and uid, when both are known). */
export function writeThatMade(
  w: WriteRecord | undefined,
  rv: string,
  uid: string | undefined,
): WriteRecord | undefined {
  if (!w) return undefined;
  const sameUid = (u: string | undefined): boolean => u === undefined || uid === undefined || u === uid;
  if (w.error === undefined && w.ref.resourceVersion === rv && sameUid(w.ref.uid)) return w;
  const e = w.earlier?.findLast((x) => x.resourceVersion === rv && sameUid(x.uid));
  if (!e) return undefined;
  return {
    seq: e.seq,
    ts: e.ts,
    verb: e.verb,
    ref: { ...w.ref, resourceVersion: rv, ...(e.uid !== undefined ? { uid: e.uid } : {}) },
    ...(w.key !== undefined ? { key: w.key } : {}),
    ...(e.fromSelfCaused ? { fromSelfCaused: true } : {}),
  };
}

/** Every successful write of the record, newest first, as (verb, version, uid). */
export function writeVersions(w: WriteRecord): { verb: string; rv?: string; uid?: string; seq: number; ts: number }[] {
  const out: { verb: string; rv?: string; uid?: string; seq: number; ts: number }[] = [];
  if (w.error === undefined)
    out.push({ verb: w.verb, rv: w.ref.resourceVersion, uid: w.ref.uid, seq: w.seq, ts: w.ts });
  for (const e of [...(w.earlier ?? [])].reverse())
    out.push({ verb: e.verb, rv: e.resourceVersion || undefined, uid: e.uid, seq: e.seq, ts: e.ts });
  return out;
}

/**
 * A delete whose resulting version the client never saw (a Go client's Delete, a Status answer) is left out
 * of the forgotten mark: that version is only ever carried by the object's DELETED event, which follows the
 * delete within the watch's latency, long before so many later writes push the delete out of the view.
 */
function isDelete(verb: string): boolean {
  return verb === 'delete' || verb === 'deleteAllOf';
}

/** Keeps the newest 80% of the cap, so trimming runs once per many writes; marks what it dropped. c must be writable. */
function trimWrites(c: ControllerView, cap: number): void {
  const entries = Object.entries(c.writes).sort((a, b) => b[1].ts - a[1].ts || b[1].seq - a[1].seq);
  const keep = Math.floor(cap * 0.8);
  let mark = c.forgottenWritesUpToRv;
  for (const [, w] of entries.slice(keep)) {
    for (const v of writeVersions(w)) if (v.rv !== undefined || !isDelete(v.verb)) mark = raiseMark(mark, v.rv);
    if (w.forgottenUpToRv !== undefined) mark = raiseMark(mark, w.forgottenUpToRv);
  }
  if (mark !== undefined) c.forgottenWritesUpToRv = mark;
  c.writes = dictOf(entries.slice(0, keep));
}
