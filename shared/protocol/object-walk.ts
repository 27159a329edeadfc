// One reconcile walked back to the change that caused it, step by step through the blocks, for Learn's
// "Follow one object" (and for anyone checking it against a recording). Every step is an event that
// happened to that one object at that one resourceVersion, matched by identity: the cause the reconcile
// absorbed names the object and its RV; the handler call, the informer's notification, the cache op, the
// delta and the watch event are the ones carrying that same object and RV, each of the type the next
// step implies (a Deleted delta comes from a DELETED watch event or a relist's tombstone, never from a
// MODIFIED one). A step the log does not hold is left out; nothing is filled in from what usually happens.
import type { EnqueueCause, FifoDeltaEvent, StampedEvent } from './events';
import type { ObjectRef } from './ids';
import { refKey } from './view';

export type WalkStepKind =
  | 'watch' // the reflector.event the API server delivered
  | 'list' // the (re)list whose result produced the delta (no watch event: Replaced, or a relist tombstone)
  | 'delta'
  | 'pop'
  | 'cache' // indexer.update
  | 'notify'
  | 'handler'
  | 'add'
  | 'get'
  | 'start'
  | 'client'
  | 'end'
  | 'done';

export interface WalkStep {
  step: WalkStepKind;
  /** Index in the log it was found in. */
  index: number;
  event: StampedEvent;
}

export interface ObjectWalk {
  /** The reconciled key. */
  key: string;
  controller: string;
  /** The cause followed back: the object whose change started the walk, at the version it carried. */
  cause?: EnqueueCause;
  /** In causal order: what happened first comes first. */
  steps: WalkStep[];
}

type Ev<K extends StampedEvent['kind']> = Extract<StampedEvent, { kind: K }>;

/** Causes that come from an informer event about an object, so have a walk back to it. */
const FROM_EVENT = new Set(['event', 'owner', 'mapped', 'resync']);

function sameObject(a: ObjectRef, b: ObjectRef): boolean {
  if (a.gvk !== b.gvk || refKey(a) !== refKey(b)) return false;
  if (a.uid && b.uid && a.uid !== b.uid) return false;
  // The RV is the identity of the change; a ref without one (an older producer) matches on the object only.
  return a.resourceVersion === undefined || b.resourceVersion === undefined || a.resourceVersion === b.resourceVersion;
}

const NOTIFY_OF: Record<string, 'add' | 'update' | 'delete'> = { create: 'add', update: 'update', delete: 'delete' };

/** client-go's processDeltas: Deleted removes from the cache; every other delta adds or updates. */
const opFitsDelta = (op: Ev<'indexer.update'>['op'], delta: FifoDeltaEvent['delta']): boolean =>
  (op === 'delete') === (delta === 'Deleted');

/** The watch event type a delta of this type is queued for; Replaced and Sync come from a list or resync. */
const WATCH_OF: Partial<Record<FifoDeltaEvent['delta'], Ev<'reflector.event'>['type']>> = {
  Added: 'ADDED',
  Updated: 'MODIFIED',
  Deleted: 'DELETED',
};

/** The runtime names a controller's informer handler "controller / Handler". */
const handlerOf = (handler: string, controller: string): boolean =>
  handler === controller || handler.startsWith(`${controller} /`);

function back(log: readonly StampedEvent[], from: number, pred: (e: StampedEvent) => boolean): number {
  for (let i = Math.min(from, log.length - 1); i >= 0; i--) if (pred(log[i] as StampedEvent)) return i;
  return -1;
}

function forward(log: readonly StampedEvent[], from: number, to: number, pred: (e: StampedEvent) => boolean): number {
  for (let i = Math.max(0, from); i < Math.min(to, log.length); i++) if (pred(log[i] as StampedEvent)) return i;
  return -1;
}

/** The cause worth following: the first one that came from an object's event (the one that queued the key). */
function causeToFollow(start: Ev<'reconcile.start'> | undefined): EnqueueCause | undefined {
  return start?.causes.find((c) => FROM_EVENT.has(c.type) && c.source !== undefined);
}

/**
 * Walks the reconcile that ended at log[endIdx] back to the object change that caused it. The runtime reports
 * some steps after the ones they caused (a watch event once its delta is queued, a pop once processed, a
 * handler's call once it has enqueued), so each is searched for where it can be and told in causal order.
 */
export function walkReconcile(log: readonly StampedEvent[], endIdx: number): ObjectWalk {
  const end = log[endIdx] as Ev<'reconcile.end'>;
  const { key, controller } = end;
  const steps: WalkStep[] = [];
  const at = (step: WalkStepKind, index: number): void => {
    if (index >= 0) steps.push({ step, index, event: log[index] as StampedEvent });
  };
  const prevEnd = back(
    log,
    endIdx - 1,
    (e) => e.kind === 'reconcile.end' && e.controller === controller && e.key === key,
  );
  const s = back(log, endIdx - 1, (e) => e.kind === 'reconcile.start' && e.controller === controller && e.key === key);
  const start = s > prevEnd ? (log[s] as Ev<'reconcile.start'>) : undefined;
  const cause = causeToFollow(start);
  const walk: ObjectWalk = { key, controller, ...(cause ? { cause } : {}), steps };
  if (!start) {
    at('end', endIdx);
    return walk;
  }
  const g = back(log, s - 1, (e) => e.kind === 'queue.get' && e.queue === controller && e.key === key);
  if (cause?.source) walkCause(log, controller, key, cause, g >= 0 ? g : s, s, at);
  at('get', g);
  at('start', s);
  for (let i = s + 1; i < endIdx; i++) {
    const e = log[i] as StampedEvent;
    // Its reads (served by the cache) and its writes (sent to the API server).
    if (e.kind === 'client.request' && e.controller === controller) at('client', i);
  }
  at('end', endIdx);
  at(
    'done',
    forward(log, endIdx + 1, log.length, (e) => e.kind === 'queue.done' && e.queue === controller && e.key === key),
  );
  return walk;
}

/** The cause's own chain: the add that carried it, then back from the handler to the watch event or list. */
function walkCause(
  log: readonly StampedEvent[],
  controller: string,
  key: string,
  cause: EnqueueCause,
  before: number,
  startIdx: number,
  at: (step: WalkStepKind, index: number) => void,
): void {
  const src = cause.source as ObjectRef;
  const a = back(
    log,
    before - 1,
    (e) =>
      e.kind === 'queue.add' &&
      e.queue === controller &&
      e.key === key &&
      e.cause.type === cause.type &&
      e.cause.source !== undefined &&
      sameObject(e.cause.source, src),
  );
  // The handler's report follows the add it made (and maybe the get): look from the add to the reconcile.
  const h = forward(
    log,
    a >= 0 ? a + 1 : 0,
    startIdx,
    (e) =>
      e.kind === 'handler.event' &&
      e.controller === controller &&
      e.keys.includes(key) &&
      e.eventType === cause.eventType &&
      sameObject(e.ref, src),
  );
  const anchor = a >= 0 ? a : h;
  const notifyType = cause.eventType ? NOTIFY_OF[cause.eventType] : undefined;
  const notifies = (mine: boolean) => (e: StampedEvent) =>
    e.kind === 'informer.notify' &&
    e.type === notifyType &&
    (!mine || handlerOf(e.handler, controller)) &&
    sameObject(e.ref, src);
  // This controller's handler, when the producer names it (the Go module numbers handlers instead): every
  // handler of the informer was told of the same change.
  let n = anchor < 0 || !notifyType ? -1 : back(log, anchor - 1, notifies(true));
  if (n < 0 && anchor >= 0 && notifyType) n = back(log, anchor - 1, notifies(false));
  const informer = n >= 0 ? (log[n] as Ev<'informer.notify'>).informer : undefined;
  const wantDelete = notifyType === 'delete';
  const c =
    n < 0
      ? -1
      : back(
          log,
          n - 1,
          (e) =>
            e.kind === 'indexer.update' &&
            e.informer === informer &&
            (e.op === 'delete') === wantDelete &&
            sameObject(e.ref, src),
        );
  const op = c >= 0 ? (log[c] as Ev<'indexer.update'>).op : undefined;
  const d =
    c < 0 || !op
      ? -1
      : back(
          log,
          c - 1,
          (e) =>
            e.kind === 'fifo.delta' && e.informer === informer && opFitsDelta(op, e.delta) && sameObject(e.ref, src),
        );
  const delta = d >= 0 ? (log[d] as Ev<'fifo.delta'>) : undefined;
  if (delta) {
    const origin = originOf(log, d, delta, n);
    if (origin) at(origin.step, origin.index);
    at('delta', d);
    // The pop is reported once its deltas are processed, after the cache op: the first pop of the key
    // after the delta that carried a delta of its type.
    at(
      'pop',
      forward(
        log,
        d + 1,
        n,
        (e) =>
          e.kind === 'fifo.pop' && e.informer === informer && e.key === delta.key && e.deltas.includes(delta.delta),
      ),
    );
  }
  at('cache', c);
  at('notify', n);
  at('handler', h);
  at('add', a);
}

/**
 * Where a delta came from: the watch event of the matching type carrying the same object and RV (reported
 * just before or just after the delta), or, for a Replaced delta or a tombstone, the list it was part of.
 */
function originOf(
  log: readonly StampedEvent[],
  d: number,
  delta: Ev<'fifo.delta'>,
  limit: number,
): { step: 'watch' | 'list'; index: number } | undefined {
  const type = WATCH_OF[delta.delta];
  const isWatch = (e: StampedEvent) =>
    e.kind === 'reflector.event' && e.informer === delta.informer && e.type === type && sameObject(e.ref, delta.ref);
  if (type && !delta.tombstone) {
    // Reported before its delta by some producers, after it by the TS runtime; the type and RV make it the one.
    const before = back(log, d - 1, isWatch);
    const w = before >= 0 ? before : forward(log, d + 1, limit, isWatch);
    if (w >= 0) return { step: 'watch', index: w };
  }
  if (delta.delta === 'Replaced' || delta.tombstone || delta.delta === 'Added') {
    // Inside a list's begin…end bracket: that list delivered it.
    const b = back(log, d - 1, (e) => e.kind === 'reflector.listBegin' && e.informer === delta.informer);
    const closed = back(log, d - 1, (e) => e.kind === 'reflector.listEnd' && e.informer === delta.informer);
    if (b >= 0 && b > closed) return { step: 'list', index: b };
  }
  return undefined;
}
