// Who made the version each cause's event delivered. A label is exact, inferred, or absent, and says which
// (view.ts, CauseAttribution); no fallback turns "no match" into a match:
// - exact by version: the event's uid and resourceVersion are those a write's response carried;
// - exact by absence: no write of this controller produced it, decided only while every write the
//   controller made to the object since its process started is known, the version is newer than anything
//   forgotten and than the informer's first sync, and no reconcile of the controller that could still be
//   writing it is running (such causes wait, see resolvePending);
// - inferred: a write's version inside an update's span, or a delete whose result the client never saw;
// - unknown otherwise, with what is missing.
import type { EnqueueCause } from './events-workqueue';
import type { Draft } from './reduce-draft';
import type { CauseAttribution, ControllerView, PendingAttribution, ReconcileRecord, WriteRecord } from './view';
import { laneName, laneOf } from './lanes';
import { lookup } from './records';
import { writeThatMade, writeVersions } from './reduce-writes';
import { aboveMark, strictlyBetween } from './resource-version';
import { refId } from './view';

/** Causes waiting for running reconciles, per controller; beyond this they stay unknown. */
export const MAX_PENDING_ATTRIBUTIONS = 200;

export interface Attributed {
  attributions: (CauseAttribution | null)[];
  /** The first exact self-caused cause, with its write. */
  self?: { cause: EnqueueCause; write: WriteRecord };
  /** Causes to decide by absence once these reconciles (seqs) end. */
  pending: { cause: number; waitingFor: number[] }[];
}

/**
 * Attributes the causes of a reconcile of `key` starting now. Reconciles of the controller still running
 * (other workers) may have written a version whose response has not arrived yet: a cause that could only
 * be decided by absence waits for them.
 */
export function attributeCauses(d: Draft, c: ControllerView, key: string, causes: EnqueueCause[]): Attributed {
  const running = runningReconciles(c, key);
  const out: Attributed = { attributions: [], pending: [] };
  causes.forEach((cause, i) => {
    const a = attributeOne(d, c, cause, running.length > 0);
    out.attributions.push(a);
    if (a?.writer === 'self' && a.basis === 'rv' && out.self === undefined && a.write) {
      const w = writeThatMade(
        lookup(c.writes, refId(cause.source!)),
        cause.source!.resourceVersion!,
        cause.source!.uid,
      );
      if (w) out.self = { cause, write: w };
    }
    if (a?.writer === 'unknown' && a.why === WAITING) out.pending.push({ cause: i, waitingFor: running });
  });
  return out;
}

const WAITING = 'waiting for running reconciles whose writes may still arrive';

function attributeOne(
  d: Draft,
  c: ControllerView,
  cause: EnqueueCause,
  othersRunning: boolean,
): CauseAttribution | null {
  const src = cause.source;
  if (src === undefined || cause.eventType === undefined) return null;
  const rv = src.resourceVersion;
  if (rv === undefined || rv === '') return { writer: 'unknown', why: 'the event carried no resourceVersion' };
  const id = refId(src);
  const own = writeThatMade(lookup(c.writes, id), rv, src.uid);
  if (own) return { writer: 'self', basis: 'rv', write: brief(own) };
  const theirs = otherControllersWrite(d, c, id, rv, src.uid);
  if (theirs) return theirs;
  const inferred = inferOwn(lookup(c.writes, id), cause, src.uid);
  if (inferred) return inferred;
  const missing = absenceMissing(d, c, cause, rv);
  if (missing !== undefined) return { writer: 'unknown', why: missing };
  if (othersRunning) return { writer: 'unknown', why: WAITING };
  return { writer: 'other', basis: 'absence' };
}

function brief(w: WriteRecord): NonNullable<CauseAttribution['write']> {
  return {
    seq: w.seq,
    ts: w.ts,
    verb: w.verb,
    ...(w.ref.resourceVersion !== undefined ? { resourceVersion: w.ref.resourceVersion } : {}),
    ...(w.key !== undefined ? { key: w.key } : {}),
  };
}

/** Another controller in the view whose write produced exactly this version (any process: the version is the server's). */
function otherControllersWrite(
  d: Draft,
  c: ControllerView,
  id: string,
  rv: string,
  uid: string | undefined,
): CauseAttribution | undefined {
  for (const o of Object.values(d.view.controllers)) {
    if (o.name === c.name) continue;
    const w = writeThatMade(lookup(o.writes, id), rv, uid);
    if (w) return { writer: 'controller', basis: 'rv', controller: o.name, write: brief(w) };
  }
  return undefined;
}

/**
 * An update whose span (previous version, delivered version) holds one of this controller's writes folded
 * it in with later changes; a delete event after this controller's own delete, whose resulting version its
 * client never saw. Both inferred.
 */
function inferOwn(
  w: WriteRecord | undefined,
  cause: EnqueueCause,
  uid: string | undefined,
): CauseAttribution | undefined {
  if (!w) return undefined;
  const src = cause.source!;
  const from = cause.previousResourceVersion;
  for (const v of writeVersions(w)) {
    if (uid !== undefined && v.uid !== undefined && v.uid !== uid) continue;
    const write = { seq: v.seq, ts: v.ts, verb: v.verb, ...(v.rv !== undefined ? { resourceVersion: v.rv } : {}) };
    if (from !== undefined && v.rv !== undefined && strictlyBetween(from, v.rv, src.resourceVersion!))
      return { writer: 'self', basis: 'span', write };
    if (cause.eventType === 'delete' && v.rv === undefined && (v.verb === 'delete' || v.verb === 'deleteAllOf'))
      return { writer: 'self', basis: 'uid', write };
  }
  return undefined;
}

/** What prevents deciding by absence, or undefined when nothing does. */
function absenceMissing(d: Draft, c: ControllerView, cause: EnqueueCause, rv: string): string | undefined {
  const p = c.process !== undefined ? lookup(d.view.processes, c.process) : undefined;
  if (p !== undefined && !p.complete) return `some events of process ${p.process} never reached the dashboard`;
  const w = lookup(c.writes, refId(cause.source!));
  if (w && writeVersions(w).some((v) => v.rv === undefined && v.verb !== 'delete' && v.verb !== 'deleteAllOf'))
    return 'a write of this controller to the object returned no resourceVersion';
  if (!aboveMark(c.forgottenWritesUpToRv, rv) || (w && !aboveMark(w.forgottenUpToRv, rv)))
    return 'older writes of this controller are no longer remembered';
  const inf = lookup(d.view.informers, laneName(laneOf(c.name), cause.source!.gvk));
  if (inf?.syncedAtRv === undefined) return 'its informer had not synced when the dashboard saw it start';
  if (!aboveMark(inf.syncedAtRv, rv)) return "the version predates the informer's first list";
  return undefined;
}

/** Seqs of the controller's reconciles running now, other than key's (a key is never processed twice at once). */
function runningReconciles(c: ControllerView, key: string): number[] {
  const out: number[] = [];
  for (const w of Object.values(c.workerStates)) {
    if (w.key !== undefined && w.key !== key && w.reconcileSeq !== undefined) out.push(w.reconcileSeq);
  }
  return out;
}

/** Queues the waiting causes of a new record. c must be writable. */
export function addPending(
  d: Draft,
  c: ControllerView,
  key: string,
  rec: ReconcileRecord,
  pending: Attributed['pending'],
): void {
  if (pending.length === 0) return;
  const list = c.pendingAttributions ? d.child(c, 'pendingAttributions') : (c.pendingAttributions = d.made([]));
  for (const p of pending) {
    if (list.length >= MAX_PENDING_ATTRIBUTIONS) return;
    const src = rec.causes[p.cause]!.source!;
    list.push({
      key,
      recordSeq: rec.seq,
      cause: p.cause,
      object: refId(src),
      resourceVersion: src.resourceVersion!,
      ...(src.uid !== undefined ? { uid: src.uid } : {}),
      waitingFor: p.waitingFor,
    });
  }
}

/**
 * A reconcile of c ended (endedSeq) or wrote (a write record): waiting causes are decided where they can be.
 * A write that produced a waiting version makes it self-caused; once none of the reconciles a cause waited
 * for is running, it is decided by absence as at the start.
 */
export function resolvePending(d: Draft, c: ControllerView, change: { endedSeq?: number; write?: WriteRecord }): void {
  const list = c.pendingAttributions;
  if (!list || list.length === 0) return;
  const keep: PendingAttribution[] = [];
  let changed = false;
  for (const p of list) {
    const next = settle(d, c, p, change);
    if (next !== p) changed = true;
    if (next) keep.push(next);
  }
  if (changed) c.pendingAttributions = d.made(keep);
}

function settle(
  d: Draft,
  c: ControllerView,
  p: PendingAttribution,
  change: { endedSeq?: number; write?: WriteRecord },
): PendingAttribution | undefined {
  const w = change.write;
  if (w && refId(w.ref) === p.object && w.error === undefined && w.ref.resourceVersion === p.resourceVersion) {
    if (p.uid === undefined || w.ref.uid === undefined || p.uid === w.ref.uid) {
      setAttribution(d, c, p, { writer: 'self', basis: 'rv', write: brief(w) }, w);
      return undefined;
    }
  }
  if (change.endedSeq === undefined || !p.waitingFor.includes(change.endedSeq)) return p;
  const waitingFor = p.waitingFor.filter((s) => s !== change.endedSeq);
  if (waitingFor.length > 0) return { ...p, waitingFor };
  const rec = findRecord(c, p);
  const cause = rec?.causes[p.cause];
  if (!rec || !cause) return undefined;
  const a = attributeOne(d, c, cause, false);
  if (a) setAttribution(d, c, p, a, undefined);
  return undefined;
}

function findRecord(c: ControllerView, p: PendingAttribution): ReconcileRecord | undefined {
  return lookup(c.keys, p.key)?.history.findLast((r) => r.seq === p.recordSeq);
}

/** Replaces the record's attribution of one cause (and its self-caused flag when the write is its own). */
function setAttribution(
  d: Draft,
  c: ControllerView,
  p: PendingAttribution,
  a: CauseAttribution,
  selfWrite: WriteRecord | undefined,
): void {
  const keys = d.childRecord(c, 'keys');
  const existing = lookup(keys, p.key);
  if (!existing) return;
  const k = d.own(existing);
  keys[p.key] = k;
  const h = d.child(k, 'history');
  const i = h.findLastIndex((r) => r.seq === p.recordSeq);
  const old = h[i];
  if (i < 0 || !old) return;
  const attributions = [...(old.attributions ?? [])];
  attributions[p.cause] = a;
  const rec: ReconcileRecord = d.made({ ...old, attributions });
  if (selfWrite && !rec.selfCaused) {
    rec.selfCaused = true;
    rec.selfCause = { cause: old.causes[p.cause]!, write: selfWrite };
  }
  h[i] = rec;
  if (k.lastReconcile?.seq === rec.seq) k.lastReconcile = rec;
}
