// The serializable view derived from the probe event stream: what the dashboard shows. The server keeps
// one (the snapshot a new client receives) and every browser keeps one, both built by reduce.ts from the
// same events, so they cannot drift. Everything here is plain JSON: records, arrays, numbers, strings.
//
// WARNING: wire-visible. Add optional fields freely; renaming or retyping a field bumps PROTOCOL_VERSION.
import type { ControllerName, InformerId, MetaNamespaceKey, ObjectRef } from './ids';
import type { DeltaType, ListMethod, ReflectorState } from './events-cache';
import type { ReflectorTransitionId } from './reflector-machine';
import type { CauseType, EnqueueCause, QueueDepth } from './events-workqueue';
import type { ControllerQueueKind, ControllerSource, ReconcileOutcome } from './events-controller';
import type { StampedEvent } from './events';
import { PROTOCOL_VERSION } from './version';
import { RECONCILE_TIME_BUCKETS } from '../models/reconcile-time-buckets';
import { dict } from './records';
import type { ModuleView } from './view-modules';
import type { BridgeDropCause } from './bridge-limits';

/** Bounds that keep a view small however long the process runs. Carried in the view so both sides agree. */
export interface ViewLimits {
  /** Keys kept per controller; idle keys seen longest ago are evicted first. Default 2000. */
  maxKeysPerController: number;
  /** Keys with pending deltas kept per informer. Default 1000. */
  maxPendingKeysPerInformer: number;
  /** Reconcile records kept per key. Default 20. */
  maxReconcilesPerKey: number;
  /** Causes kept per reconcile record / pending on a key; the rest are counted in causesDropped. Default 50. */
  maxCausesPerReconcile: number;
  /** Reflector session entries (lists, watches, backoffs, errors) per informer. Default 100. */
  maxSessionHistory: number;
  /** Recent events in the view's log. Default 500. */
  maxLogEntries: number;
  /** Notable entries (errors, 410s, relists, lifecycle, hot loops). Default 200. */
  maxNotable: number;
  /** Points per time series. Default 300 (five minutes of one-second buckets). */
  seriesPoints: number;
  /** Width of one time-series bucket in ms. Default 1000. */
  seriesBucketMs: number;
  /** Window over which rates (adds per second...) are computed, ms. Default 10000. */
  rateWindowMs: number;
  /** A key reconciled more than this many times within hotLoopWindowMs may be hot-looping. Default 10. */
  hotLoopThreshold: number;
  /** Default 10000. */
  hotLoopWindowMs: number;
  /**
   * Share of those reconciles that must continue a chain of self-caused writes: caused by a write that a
   * reconcile made which was itself caused by the controller's own write. Default 0.5.
   */
  hotLoopSelfRatio: number;
  /** Writes remembered per controller to attribute causes to them. Default 500. */
  maxWritesPerController: number;
  /** Hot-loop evidence items kept. Default 10. */
  maxHotLoopEvidence: number;
}

export const DEFAULT_VIEW_LIMITS: Readonly<ViewLimits> = Object.freeze({
  maxKeysPerController: 2000,
  maxPendingKeysPerInformer: 1000,
  maxReconcilesPerKey: 20,
  maxCausesPerReconcile: 50,
  maxSessionHistory: 100,
  maxLogEntries: 500,
  maxNotable: 200,
  seriesPoints: 300,
  seriesBucketMs: 1000,
  rateWindowMs: 10_000,
  hotLoopThreshold: 10,
  hotLoopWindowMs: 10_000,
  hotLoopSelfRatio: 0.5,
  maxWritesPerController: 500,
  maxHotLoopEvidence: 10,
});

// ---------------------------------------------------------------------------------------------------------------
// Informers

/** One step of a reflector's life, newest last. A relist is one 'list' entry, never N updates. */
export type ReflectorSessionEntry =
  | {
      type: 'list';
      seq: number;
      beginTs: number;
      endTs?: number;
      resourceVersion: string;
      relist: boolean;
      cause: string;
      /** LIST then WATCH, or one WatchList stream, as the reflector reported. */
      method?: ListMethod;
      items?: number;
      pages?: number;
      durationMs?: number;
      /** On relist: objects delivered as Replaced (every item of the new list). */
      replaced?: number;
      /** On relist: known objects absent from the new list, delivered as Deleted tombstones. */
      deleted?: number;
      error?: string;
    }
  | {
      type: 'watch';
      seq: number;
      startTs: number;
      endTs?: number;
      resourceVersion: string;
      timeoutSeconds: number;
      events: number;
      bookmarks: number;
      lastBookmarkRv?: string;
      /** "timeout", "closed", "expired", "error", "stopped", "too-short"; absent while open. */
      reason?: string;
      /** true when this watch ended on 410 Gone. */
      expired?: boolean;
      error?: string;
    }
  | { type: 'backoff'; seq: number; ts: number; delayMs: number; until: number }
  | { type: 'error'; seq: number; ts: number; code: number; reason: string; message: string };

export interface InformerCounters {
  lists: number;
  relists: number;
  listErrors: number;
  watches: number;
  watchEvents: number;
  bookmarks: number;
  /** 410 Gone / Expired seen, on a watch or a list. */
  expired: number;
  errors: number;
  backoffs: number;
  resyncs: number;
  /** Objects delivered as Replaced across all relists. */
  relistReplaced: number;
  /** Objects found deleted by relists (tombstones). */
  relistDeleted: number;
  tombstones: number;
  /** State changes reported, per edge of REFLECTOR_TRANSITIONS; changes off the table are not counted. */
  transitions: Record<ReflectorTransitionId, number>;
  deltas: Record<DeltaType, number>;
  pops: number;
  popErrors: number;
  indexerOps: number;
  /** Per handler name: notifications delivered. */
  notifications: Record<string, number>;
}

export interface PendingDeltas {
  key: MetaNamespaceKey;
  ref: ObjectRef;
  /** Deltas pending for this key, as the FIFO reported after de-duplication. */
  count: number;
  /** The last few delta types queued, oldest first. */
  types: DeltaType[];
  since: number;
  tombstone?: boolean;
}

export interface InformerSeriesPoint {
  /** Bucket start, epoch ms. */
  t: number;
  watchEvents: number;
  deltas: number;
  pops: number;
  /** Gauges at the end of the bucket. */
  storeSize: number;
  fifoLength: number;
}

export interface InformerView {
  id: InformerId;
  /** The attached process it runs in; absent for this dashboard's own process. */
  process?: string;
  /** The process's incarnation its last lifecycle event came from. */
  incarnation?: number;
  /**
   * The resourceVersion the informer had reached when it first synced: versions at or below it may have been
   * written before the process started, so no cause at or below it is attributed by absence.
   */
  syncedAtRv?: string;
  state: ReflectorState;
  stateSince: number;
  stateReason: string;
  fifo?: 'DeltaFIFO' | 'RealFIFO';
  /** Set once a queue event came from outside the queue (a Go process): FIFO_SHADOW_NOTE says what it means. */
  fifoShadow?: boolean;
  /** How its last successful (re)list got the state: a LIST, or a WatchList stream; absent when not reported. */
  listMethod?: ListMethod;
  started: boolean;
  synced: boolean;
  syncedAt?: number;
  syncDurationMs?: number;
  syncedItems?: number;
  lastResourceVersion?: string;
  storeSize: number;
  fifoLength: number;
  handlers: string[];
  counters: InformerCounters;
  /** Keys with deltas not yet popped, capped at limits.maxPendingKeysPerInformer. */
  pending: Record<MetaNamespaceKey, PendingDeltas>;
  /** Keys listed in pending. */
  pendingKeys: number;
  /** Pending keys not shown because of the cap. */
  pendingOverflow: number;
  history: ReflectorSessionEntry[];
  lastError?: { ts: number; code: number; reason: string; message: string };
  backoffUntil?: number;
  series: InformerSeriesPoint[];
  lastTs: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Controllers and keys

export type KeyQueueState = 'ready' | 'waiting' | 'processing' | 'idle';

export interface ReconcileRecord {
  seq: number;
  worker: number;
  attempt: number;
  startTs: number;
  endTs?: number;
  durationMs?: number;
  outcome?: ReconcileOutcome;
  error?: string;
  requeueAfterMs?: number;
  /** Every cause this reconcile absorbed (capped at limits.maxCausesPerReconcile). */
  causes: EnqueueCause[];
  causesDropped: number;
  /**
   * true when some cause's event delivered exactly the version a write of this controller produced (same
   * object uid and resourceVersion): the controller's own write came back to it. Never inferred.
   */
  selfCaused: boolean;
  /** The self-caused trigger and the write behind it, when selfCaused. */
  selfCause?: { cause: EnqueueCause; write: WriteRecord };
  /**
   * Who made the version each cause's event delivered, aligned with `causes` (null for a cause with no
   * event behind it: a requeue, an error backoff, a manual add). Absent on records from older servers.
   */
  attributions?: (CauseAttribution | null)[];
  /** Writes this reconcile made (verb + object), counted. */
  writes: number;
  /**
   * Its process ended before it did (killed, and a new run of the process connected): it never finished,
   * and endTs is when that became known. No outcome.
   */
  interrupted?: boolean;
}

/**
 * One rate-limited requeue of a key (after an error, or Result.Requeue): how long the limiter made it wait.
 * Kept from the events themselves, so a 5 ms backoff is as visible afterwards as a 5 minute one.
 */
export interface BackoffStep {
  seq: number;
  ts: number;
  /** The limiter's requeue count for the key after this requeue (numRequeues). */
  requeues: number;
  delayMs: number;
  readyAt: number;
  cause: 'errorBackoff' | 'requeue';
  /** The error that caused it, when there was one. */
  error?: string;
}

export interface KeyView {
  key: MetaNamespaceKey;
  state: KeyQueueState;
  stateSince: number;
  /** Re-added while processing: will run again once done. */
  dirty: boolean;
  /** The rate limiter's requeue count (numRequeues); reset by forget. */
  requeues: number;
  /** When a waiting key becomes ready, epoch ms. */
  nextRetryAt?: number;
  /** Rate-limited requeues, oldest first, capped at limits.maxReconcilesPerKey. */
  backoff?: BackoffStep[];
  /** When the limiter last forgot the key (success), which restarts its backoff from the first step. */
  backoffResetAt?: number;
  /** Causes absorbed since the key was last taken by a worker. */
  pendingCauses: EnqueueCause[];
  pendingCausesDropped: number;
  /** Adds (including de-duplicated ones) seen for this key. */
  adds: number;
  reconciles: number;
  lastReconcile?: ReconcileRecord;
  /** Recent reconciles, newest last, capped at limits.maxReconcilesPerKey. */
  history: ReconcileRecord[];
  /** Recent reconcile start times and whether each was self-caused, for hot-loop detection. */
  recent: { ts: number; self: boolean }[];
  hotLoop?: HotLoop;
  lastTs: number;
}

export interface HotLoopEvidence {
  seq: number;
  ts: number;
  /** The cause that re-triggered the key. */
  cause: EnqueueCause;
  /** The controller's own write that produced that event, when one was found. */
  write?: WriteRecord;
}

export interface HotLoop {
  controller: ControllerName;
  key: MetaNamespaceKey;
  detectedAt: number;
  lastTs: number;
  /**
   * The reconciles counted: the newest ones of the key (at most 2 × hotLoopThreshold + 1), all within
   * windowMs, spread over spanMs. Every figure of the headline comes from these same reconciles.
   */
  reconcilesInWindow: number;
  /** The detection window (limits.hotLoopWindowMs) the counted reconciles fall inside. */
  windowMs: number;
  /** From the first counted reconcile's start to the last's (absent in views from older servers). */
  spanMs?: number;
  /** Counted reconciles that continued a chain of the controller's own writes, exactly by resourceVersion. */
  selfCount?: number;
  /** selfCount / reconcilesInWindow. */
  selfRatio: number;
  /** Reconciles per second over spanMs: (reconcilesInWindow - 1) / spanMs. */
  rate: number;
  evidence: HotLoopEvidence[];
}

/**
 * Who made the version of an object an event delivered, and how that was decided (see reduce-attribution.ts):
 * - 'self': this controller's write produced it; 'controller': another controller here did (named);
 * - 'other': no write of this controller produced it — another client's write;
 * - 'unknown': it cannot be told from what the dashboard has seen (`why` says what is missing).
 */
export type CauseWriter = 'self' | 'controller' | 'other' | 'unknown';

/**
 * How a writer was decided. Exact: 'rv' (the event's uid and resourceVersion are those the write's response
 * carried), 'absence' (every write this controller made to the object is known and none produced that
 * version). Inferred: 'span' (the write's version lies inside the span an update covers, so the event folded
 * it in with later changes), 'uid' (a delete of that object whose resulting version the client did not see).
 */
export type AttributionBasis = 'rv' | 'absence' | 'span' | 'uid';

export interface CauseAttribution {
  writer: CauseWriter;
  /** How it was decided; absent while unknown. */
  basis?: AttributionBasis;
  /** The write behind it (self, controller, or an inferred match). */
  write?: { seq: number; ts: number; verb: string; resourceVersion?: string; key?: MetaNamespaceKey };
  /** For 'controller': which one. */
  controller?: ControllerName;
  /** For 'unknown': what is missing to decide. */
  why?: string;
}

/** A cause whose writer waits on reconciles that were running when it was attributed (their writes may be in flight). */
export interface PendingAttribution {
  key: MetaNamespaceKey;
  /** The reconcile record (its seq) and the index of the cause in it. */
  recordSeq: number;
  cause: number;
  /** refId of the object and the version to find. */
  object: string;
  resourceVersion: string;
  uid?: string;
  /** Seqs of the reconcile starts still running; resolved once none is left. */
  waitingFor: number[];
}

export interface WriteRecord {
  seq: number;
  ts: number;
  verb: string;
  ref: ObjectRef;
  /** The key whose reconcile was running on this controller when the write happened, when known. */
  key?: MetaNamespaceKey;
  code?: number;
  error?: string;
  /**
   * Earlier successful writes to the same object, newest last (at most 8), so an event can be matched to the
   * exact write whose resourceVersion it carries when several writes are in flight.
   */
  earlier?: {
    seq: number;
    ts: number;
    verb: string;
    resourceVersion: string;
    uid?: string;
    fromSelfCaused?: boolean;
  }[];
  /** The newest resourceVersion among this object's writes that fell off `earlier`. */
  forgottenUpToRv?: string;
  /**
   * The reconcile that wrote was itself caused by one of this controller's writes. A loop is a chain of these;
   * a controller that writes once and then finds nothing to do (settling) never makes one.
   */
  fromSelfCaused?: boolean;
}

export interface Histogram {
  /** Upper bounds in seconds; counts has one more entry for +Inf. Counts are per bucket, not cumulative. */
  buckets: number[];
  counts: number[];
  sum: number;
  count: number;
}

export interface ControllerSeriesPoint {
  t: number;
  adds: number;
  reconciles: number;
  errors: number;
  retries: number;
  /** Sum and count of reconcile durations ended in the bucket, ms. */
  durationSumMs: number;
  durationCount: number;
  /** Gauges at the end of the bucket. */
  ready: number;
  waiting: number;
  processing: number;
  activeWorkers: number;
}

export interface WorkerView {
  worker: number;
  key?: MetaNamespaceKey;
  since: number;
  reconcileSeq?: number;
  /** The running reconcile's id, when its producer sends one: writes carrying it are that reconcile's. */
  reconcileId?: string;
}

export interface HandlerCounters {
  events: number;
  filtered: number;
  enqueued: number;
  lastFilteredBy?: string;
}

export interface ClientCounters {
  /** Per verb: requests made. */
  requests: Record<string, number>;
  cached: number;
  /** Failed requests, reads that found nothing aside. */
  errors: number;
  conflicts: number;
  /** Gets and lists answered 404 NotFound: an answer reconcilers handle, counted apart from errors. */
  notFound?: number;
}

export interface ControllerView {
  name: ControllerName;
  /** The attached process it runs in; absent for this dashboard's own process. */
  process?: string;
  /** The process's incarnation its last lifecycle event came from (an older one: the process restarted since). */
  incarnation?: number;
  phase: string;
  phaseSince: number;
  forKind?: string;
  /** The builder's For / Owns / Watches as the runtime reported them (absent from producers that do not). */
  sources?: ControllerSource[];
  /** The queue it runs on and whether its rate limiter is that queue's default, as reported. */
  queueKind?: ControllerQueueKind;
  rateLimiter?: 'default' | 'custom';
  workers: number;
  activeWorkers: number;
  workerStates: Record<string, WorkerView>;
  lastError?: string;
  depth: QueueDepth;
  adds: number;
  /** Adds absorbed because the key was already queued or processing. */
  dedupedAdds: number;
  addsPerSecond: number;
  reconcilesPerSecond: number;
  /** Rate-limited re-adds (workqueue_retries_total). */
  retries: number;
  reconciles: Record<ReconcileOutcome, number>;
  totalReconciles: number;
  histogram: Histogram;
  causes: Record<CauseType, number>;
  handlers: Record<string, HandlerCounters>;
  client: ClientCounters;
  keys: Record<MetaNamespaceKey, KeyView>;
  keyCount: number;
  evictedKeys: number;
  hotLoops: HotLoop[];
  writes: Record<string, WriteRecord>;
  /**
   * The newest resourceVersion among writes the view no longer remembers (trimmed to maxWritesPerController,
   * or beyond a record's earlier list): a cause at or below it cannot be decided by absence.
   */
  forgottenWritesUpToRv?: string;
  /** Causes waiting to be attributed by absence until running reconciles end (at most MAX_PENDING_ATTRIBUTIONS). */
  pendingAttributions?: PendingAttribution[];
  shutDown: boolean;
  /** GVKs (informer ids) of the objects this controller's handlers have received events for; web map edges. */
  watches?: string[];
  series: ControllerSeriesPoint[];
  lastTs: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Process-wide

export type NotableLevel = 'info' | 'warn' | 'error';

export interface NotableEntry {
  seq: number;
  ts: number;
  level: NotableLevel;
  kind: string;
  informer?: InformerId;
  controller?: ControllerName;
  key?: MetaNamespaceKey;
  text: string;
}

/** An event the reducer could not apply: it was dropped (its effect may be partial) and is reported here. */
export interface ReducerError {
  seq: number;
  ts: number;
  kind: string;
  error: string;
}

/** Reducer errors kept in the view; older ones are only counted in droppedEvents. */
export const MAX_REDUCER_ERRORS = 20;

export interface ManagerView {
  phase: string;
  since: number;
  groups: Record<string, string>;
  error?: string;
}

export interface LeaderView {
  lease: string;
  /** The identity of the replica that reported last (kept for older views; see replicas). */
  identity: string;
  phase: string;
  holder?: string;
  since: number;
  /**
   * Every replica that took part in this lease's election, by identity: what each last reported. Which one
   * leads is derived with the processes' liveness (replicaRoles in liveness.ts), never stored.
   */
  replicas?: Record<string, LeaderReplica>;
}

export interface LeaderReplica {
  identity: string;
  /** The attached process it runs in (its hello identity); absent for this dashboard's own process. */
  process?: string;
  phase: LeaderElectionPhase;
  since: number;
  /** The holder it last saw, when it reported one. */
  holder?: string;
  /** seq of its last report: the latest 'acquired' across replicas is the current leader. */
  seq: number;
}

export type LeaderElectionPhase = 'acquiring' | 'acquired' | 'renewed' | 'lost' | 'released' | 'observed';

/**
 * A process the dashboard attached to (a Go manager through the bridge): whether it is connected, and
 * whether every event it emitted reached the view. Everything it owns (manager, lease, informers,
 * controllers) is gone when it is (liveness.ts derives that; nothing is copied onto the parts).
 */
export interface ProcessView {
  process: string;
  address: string;
  state: 'connected' | 'gone';
  since: number;
  /** Why it is gone, or what a reconnect could not recover. */
  reason?: string;
  /** Starts with 1; each connect to a new run of the process (a new epoch) adds one. */
  incarnation: number;
  /**
   * true while the view holds every event the process emitted since it started: no events evicted from
   * its buffer before the first connect, none missed across a reconnect, none dropped by the bridge.
   * Claims that need every write to be known (a cause "by absence") are only made while it holds.
   */
  complete: boolean;
  /**
   * What the dashboard dropped of what it sent, by cause (bridge-limits.ts), since it was first seen: the
   * limits it hit. Absent while it hit none.
   */
  drops?: Partial<Record<BridgeDropCause, number>>;
  /** Its manager's lifecycle. */
  manager?: ManagerView;
}

export type { ModuleReload, ModuleView } from './view-modules';

export interface RuntimeView {
  protocolVersion: number;
  limits: ViewLimits;
  /** Highest seq applied; 0 before any event. */
  lastSeq: number;
  lastTs: number;
  firstTs: number;
  eventCount: number;
  informers: Record<InformerId, InformerView>;
  controllers: Record<ControllerName, ControllerView>;
  manager?: ManagerView;
  leaders: Record<string, LeaderView>;
  /** Attached processes by identity (absent in views from older servers, and empty when none is attached). */
  processes?: Record<string, ProcessView>;
  /** User modules run by `controller-scope run`, in the order they were first seen. */
  modules: ModuleView[];
  /** Recent raw events, newest last. */
  log: StampedEvent[];
  notable: NotableEntry[];
  /** Events the reducer threw on: dropped and counted, never fatal (absent in views from older servers). */
  droppedEvents?: number;
  /** The latest of those, oldest first, at most MAX_REDUCER_ERRORS. */
  reducerErrors?: ReducerError[];
}

export function createView(limits: Partial<ViewLimits> = {}): RuntimeView {
  return {
    protocolVersion: PROTOCOL_VERSION,
    limits: { ...DEFAULT_VIEW_LIMITS, ...limits },
    lastSeq: 0,
    lastTs: 0,
    firstTs: 0,
    eventCount: 0,
    informers: dict(),
    controllers: dict(),
    leaders: dict(),
    processes: dict(),
    modules: [],
    log: [],
    notable: [],
  };
}

export function emptyHistogram(): Histogram {
  return {
    buckets: [...RECONCILE_TIME_BUCKETS],
    counts: new Array<number>(RECONCILE_TIME_BUCKETS.length + 1).fill(0),
    sum: 0,
    count: 0,
  };
}

/** A stable id for an object across informers and writes: "gvk|namespace/name". */
export function refId(ref: ObjectRef): string {
  return `${ref.gvk}|${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** client-go's MetaNamespaceKeyFunc over a ref. */
export function refKey(ref: ObjectRef): MetaNamespaceKey {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}
