// The cache half of reduce(): reflector sessions, FIFO pending deltas, store size, informer lifecycle.
import type { CacheEvent } from './events-cache';
import type { Draft } from './reduce-draft';
import { processOfName } from './reduce-process';
import { countIn, dict, lookup } from './records';
import { notable } from './reduce-notable';
import { emptyTransitionCounts, isReflectorTransition, transitionId } from './reflector-machine';
import { seriesPoint } from './reduce-series';
import type { InformerCounters, InformerSeriesPoint, InformerView, PendingDeltas, ReflectorSessionEntry } from './view';

type Stamped<E> = E & { seq: number; ts: number };

const MAX_TYPES_PER_PENDING_KEY = 8;

export function newInformer(id: string, ts: number): InformerView {
  return {
    id,
    state: 'idle',
    stateSince: ts,
    stateReason: '',
    started: false,
    synced: false,
    storeSize: 0,
    fifoLength: 0,
    handlers: [],
    counters: emptyCounters(),
    pending: dict(),
    pendingKeys: 0,
    pendingOverflow: 0,
    history: [],
    series: [],
    lastTs: ts,
  };
}

function emptyCounters(): InformerCounters {
  return {
    lists: 0,
    relists: 0,
    listErrors: 0,
    watches: 0,
    watchEvents: 0,
    bookmarks: 0,
    expired: 0,
    errors: 0,
    backoffs: 0,
    resyncs: 0,
    relistReplaced: 0,
    relistDeleted: 0,
    tombstones: 0,
    transitions: emptyTransitionCounts(),
    deltas: {
      Added: 0,
      Updated: 0,
      Deleted: 0,
      Replaced: 0,
      Sync: 0,
    },
    pops: 0,
    popErrors: 0,
    indexerOps: 0,
    notifications: dict(),
  };
}

function informerOf(d: Draft, id: string, ts: number): InformerView {
  const last = d.lastInformer;
  if (last !== undefined && last.id === id) {
    last.view.lastTs = ts;
    return last.view;
  }
  const all = d.childRecord(d.view, 'informers');
  const existing = all[id];
  const inf = existing ? d.own(existing) : d.made(newInformer(id, ts));
  if (!existing) {
    const p = processOfName(d.view, id);
    if (p !== undefined) inf.process = p;
  }
  if (inf !== existing) {
    all[id] = inf;
    d.touchedInformers.add(id);
  }
  inf.lastTs = ts;
  d.lastInformer = { id, view: inf };
  return inf;
}

function blankPoint(t: number, prev: InformerSeriesPoint | undefined, inf: InformerView): InformerSeriesPoint {
  return {
    t,
    watchEvents: 0,
    deltas: 0,
    pops: 0,
    storeSize: prev?.storeSize ?? inf.storeSize,
    fifoLength: prev?.fifoLength ?? inf.fifoLength,
  };
}

function point(d: Draft, inf: InformerView, ts: number): InformerSeriesPoint {
  return seriesPoint<InformerView, 'series', InformerSeriesPoint>(d, inf, 'series', ts, blankPoint);
}

/** Index of the newest history entry of a type that is still open (no end), or -1. */
function openEntry(h: ReflectorSessionEntry[], type: 'list' | 'watch'): number {
  for (let i = h.length - 1; i >= 0; i--) {
    const e = h[i] as ReflectorSessionEntry;
    if (e.type === type) return 'endTs' in e && e.endTs !== undefined ? -1 : i;
  }
  return -1;
}

/** Makes history[i] writable and returns it narrowed to its type. */
function ownEntry<T extends ReflectorSessionEntry['type']>(
  d: Draft,
  h: ReflectorSessionEntry[],
  i: number,
): Extract<ReflectorSessionEntry, { type: T }> {
  const e = d.own(h[i] as ReflectorSessionEntry);
  h[i] = e;
  return e as Extract<ReflectorSessionEntry, { type: T }>;
}

type CacheKind = CacheEvent['kind'];
type Of<K extends CacheKind> = Extract<CacheEvent, { kind: K }>;
/** One kind's reducer: the event, its informer's view (already writable) and the event's time. */
type Handler<K extends CacheKind> = (d: Draft, ev: Stamped<Of<K>>, inf: InformerView, ts: number) => void;

function onReflectorState(d: Draft, ev: Stamped<Of<'reflector.state'>>, inf: InformerView, ts: number): void {
  inf.state = ev.to;
  inf.stateSince = ts;
  inf.stateReason = ev.reason;
  if (isReflectorTransition(ev.from, ev.to))
    d.child(d.child(inf, 'counters'), 'transitions')[transitionId(ev.from, ev.to)]++;
  if (ev.to === 'relisting') {
    notable(d, ev, 'warn', `${ev.informer}: relisting (${ev.reason})`, { informer: ev.informer });
  }
}

function onReflectorListBegin(d: Draft, ev: Stamped<Of<'reflector.listBegin'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  const c = d.child(inf, 'counters');
  c.lists++;
  if (ev.relist) c.relists++;
  d.ring(inf, 'history', cap).push(
    d.made({
      type: 'list',
      seq: ev.seq,
      beginTs: ts,
      resourceVersion: ev.resourceVersion,
      relist: ev.relist,
      cause: ev.cause,
      ...(ev.method ? { method: ev.method } : {}),
    }),
  );
}

function onReflectorListEnd(d: Draft, ev: Stamped<Of<'reflector.listEnd'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  const h = d.ring(inf, 'history', cap);
  let i = openEntry(h, 'list');
  if (i < 0) {
    // The begin fell out of the ring or predates this view: record the list from its end alone.
    h.push(
      d.made({
        type: 'list',
        seq: ev.seq,
        beginTs: ts - ev.durationMs,
        resourceVersion: ev.resourceVersion,
        relist: ev.relist,
        cause: '',
      }),
    );
    i = h.length - 1;
  }
  const e = ownEntry<'list'>(d, h, i);
  e.endTs = ts;
  e.items = ev.items;
  e.pages = ev.pages;
  e.durationMs = ev.durationMs;
  const c = d.child(inf, 'counters');
  if (ev.error) {
    e.error = ev.error;
    c.listErrors++;
    notable(d, ev, 'error', `${ev.informer}: list failed: ${ev.error}`, { informer: ev.informer });
    return;
  }
  inf.lastResourceVersion = ev.resourceVersion;
  // The method of the list that succeeded: a failed WatchList attempt falls back to LIST, which then says so.
  if (e.method) inf.listMethod = e.method;
  if (ev.relist) {
    e.replaced = ev.items;
    e.deleted = ev.deletedFromRelist ?? 0;
    c.relistReplaced += ev.items;
    c.relistDeleted += e.deleted;
    notable(d, ev, 'warn', `${ev.informer}: relisted ${ev.items} objects, ${e.deleted} deleted as tombstones`, {
      informer: ev.informer,
    });
  }
}

function onReflectorWatchStart(d: Draft, ev: Stamped<Of<'reflector.watchStart'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  d.child(inf, 'counters').watches++;
  d.ring(inf, 'history', cap).push(
    d.made({
      type: 'watch',
      seq: ev.seq,
      startTs: ts,
      resourceVersion: ev.resourceVersion,
      timeoutSeconds: ev.timeoutSeconds,
      events: 0,
      bookmarks: 0,
    }),
  );
}

function onReflectorWatchEnd(d: Draft, ev: Stamped<Of<'reflector.watchEnd'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  const h = d.ring(inf, 'history', cap);
  const i = openEntry(h, 'watch');
  inf.lastResourceVersion = ev.resourceVersion || inf.lastResourceVersion;
  if (i < 0) return;
  const e = ownEntry<'watch'>(d, h, i);
  e.endTs = ts;
  e.reason = ev.reason;
  e.events = ev.events;
  if (ev.error) e.error = ev.error;
  // Only marks the session: the reflector.error that always follows is the 410's one report and count.
  if (ev.reason === 'expired') e.expired = true;
}

function onReflectorEvent(d: Draft, ev: Stamped<Of<'reflector.event'>>, inf: InformerView, ts: number): void {
  d.child(inf, 'counters').watchEvents++;
  point(d, inf, ts).watchEvents++;
  if (ev.ref.resourceVersion) inf.lastResourceVersion = ev.ref.resourceVersion;
  const h = d.child(inf, 'history');
  const i = openEntry(h, 'watch');
  if (i >= 0) ownEntry<'watch'>(d, h, i).events++;
}

function onReflectorBookmark(d: Draft, ev: Stamped<Of<'reflector.bookmark'>>, inf: InformerView, _ts: number): void {
  d.child(inf, 'counters').bookmarks++;
  inf.lastResourceVersion = ev.resourceVersion;
  const h = d.child(inf, 'history');
  const i = openEntry(h, 'watch');
  if (i >= 0) {
    const e = ownEntry<'watch'>(d, h, i);
    e.bookmarks++;
    e.lastBookmarkRv = ev.resourceVersion;
  }
}

function onReflectorError(d: Draft, ev: Stamped<Of<'reflector.error'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  const c = d.child(inf, 'counters');
  c.errors++;
  inf.lastError = { ts, code: ev.code, reason: ev.reason, message: ev.message };
  if (ev.code === 410) c.expired++;
  const h = d.ring(inf, 'history', cap);
  h.push(d.made({ type: 'error', seq: ev.seq, ts, code: ev.code, reason: ev.reason, message: ev.message }));
  notable(d, ev, 'error', `${ev.informer}: ${ev.code || 'transport'} ${ev.reason}: ${ev.message}`, {
    informer: ev.informer,
  });
}

function onReflectorBackoff(d: Draft, ev: Stamped<Of<'reflector.backoff'>>, inf: InformerView, ts: number): void {
  const cap = d.view.limits.maxSessionHistory;
  d.child(inf, 'counters').backoffs++;
  inf.backoffUntil = ts + ev.delayMs;
  d.ring(inf, 'history', cap).push(
    d.made({ type: 'backoff', seq: ev.seq, ts, delayMs: ev.delayMs, until: ts + ev.delayMs }),
  );
}

function onReflectorResync(d: Draft, ev: Stamped<Of<'reflector.resync'>>, inf: InformerView, _ts: number): void {
  d.child(inf, 'counters').resyncs++;
}

function onFifoDelta(d: Draft, ev: Stamped<Of<'fifo.delta'>>, inf: InformerView, ts: number): void {
  if (ev.shadow && !inf.fifoShadow) inf.fifoShadow = true;
  const c = d.child(inf, 'counters');
  countIn(d.child(c, 'deltas'), ev.delta);
  if (ev.tombstone) c.tombstones++;
  inf.fifoLength = ev.queueLength;
  const p = point(d, inf, ts);
  p.deltas++;
  p.fifoLength = ev.queueLength;
  const pending = d.childRecord(inf, 'pending');
  const prev = pending[ev.key];
  if (!prev && inf.pendingKeys >= d.view.limits.maxPendingKeysPerInformer) {
    inf.pendingOverflow++;
    return;
  }
  if (!prev) inf.pendingKeys++;
  const types = prev ? [...prev.types, ev.delta].slice(-MAX_TYPES_PER_PENDING_KEY) : [ev.delta];
  const entry: PendingDeltas = {
    key: ev.key,
    ref: ev.ref,
    count: ev.pendingForKey,
    types,
    since: prev?.since ?? ts,
  };
  if (ev.tombstone || prev?.tombstone) entry.tombstone = true;
  pending[ev.key] = entry;
}

function onFifoPop(d: Draft, ev: Stamped<Of<'fifo.pop'>>, inf: InformerView, ts: number): void {
  if (ev.shadow && !inf.fifoShadow) inf.fifoShadow = true;
  const c = d.child(inf, 'counters');
  c.pops++;
  if (ev.error) c.popErrors++;
  inf.fifoLength = ev.queueLength;
  const p = point(d, inf, ts);
  p.pops++;
  p.fifoLength = ev.queueLength;
  if (ev.requeued) return;
  if (lookup(inf.pending, ev.key)) {
    delete d.childRecord(inf, 'pending')[ev.key];
    inf.pendingKeys--;
  } else if (inf.pendingOverflow > 0) inf.pendingOverflow--;
}

function onIndexerChange(
  d: Draft,
  ev: Stamped<Of<'indexer.update' | 'indexer.replace'>>,
  inf: InformerView,
  ts: number,
): void {
  d.child(inf, 'counters').indexerOps++;
  inf.storeSize = ev.size;
  point(d, inf, ts).storeSize = ev.size;
}

function onInformerNotify(d: Draft, ev: Stamped<Of<'informer.notify'>>, inf: InformerView, _ts: number): void {
  const n = d.childRecord(d.child(inf, 'counters'), 'notifications');
  n[ev.handler] = (n[ev.handler] ?? 0) + 1;
}

function onInformerSynced(d: Draft, ev: Stamped<Of<'informer.synced'>>, inf: InformerView, ts: number): void {
  inf.synced = true;
  inf.syncedAt = ts;
  inf.syncDurationMs = ev.durationMs;
  inf.syncedItems = ev.items;
  // Versions up to here may have been written before this run of the informer began (see view.ts).
  if (inf.syncedAtRv === undefined && inf.lastResourceVersion !== undefined) inf.syncedAtRv = inf.lastResourceVersion;
  notable(d, ev, 'info', `${ev.informer}: synced ${ev.items} objects in ${ev.durationMs} ms`, {
    informer: ev.informer,
  });
}

function onInformerLifecycle(d: Draft, ev: Stamped<Of<'informer.lifecycle'>>, inf: InformerView, _ts: number): void {
  if (ev.fifo) inf.fifo = ev.fifo;
  if (inf.process !== undefined) inf.incarnation = lookup(d.view.processes, inf.process)?.incarnation ?? 1;
  if (ev.phase === 'started') {
    inf.started = true;
    // A new run of the informer (a restarted process, a reloaded module) lists again: what its process
    // wrote before it started may not all have been seen.
    delete inf.syncedAtRv;
  } else if (ev.phase === 'stopped') inf.started = false;
  else if (ev.handler) {
    const without = inf.handlers.filter((h) => h !== ev.handler);
    inf.handlers = ev.phase === 'handlerAdded' ? [...without, ev.handler] : without;
  }
}

/** Every cache kind's reducer: a kind of CacheEvent with no entry here is a type error. */
const CACHE_HANDLERS: { readonly [K in CacheKind]: Handler<K> } = {
  'reflector.state': onReflectorState,
  'reflector.listBegin': onReflectorListBegin,
  'reflector.listEnd': onReflectorListEnd,
  'reflector.watchStart': onReflectorWatchStart,
  'reflector.watchEnd': onReflectorWatchEnd,
  'reflector.event': onReflectorEvent,
  'reflector.bookmark': onReflectorBookmark,
  'reflector.error': onReflectorError,
  'reflector.backoff': onReflectorBackoff,
  'reflector.resync': onReflectorResync,
  'fifo.delta': onFifoDelta,
  'fifo.pop': onFifoPop,
  'indexer.update': onIndexerChange,
  'indexer.replace': onIndexerChange,
  'informer.notify': onInformerNotify,
  'informer.synced': onInformerSynced,
  'informer.lifecycle': onInformerLifecycle,
};

export function applyCacheEvent(d: Draft, ev: Stamped<CacheEvent>): void {
  // Read once: ts is a double, and every read of it from an event (a megamorphic load) boxes a new copy.
  const ts = ev.ts;
  const inf = informerOf(d, ev.informer, ts);
  // A kind from a newer peer (the wire promises additions only) has no reducer: it stays in the log.
  const handler = lookup(CACHE_HANDLERS as Readonly<Record<string, Handler<CacheKind>>>, ev.kind);
  handler?.(d, ev, inf, ts);
}
