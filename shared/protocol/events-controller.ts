// Events from controller-runtime: controllers, handlers/predicates, reconciles, the manager.
import type { ControllerName, MetaNamespaceKey, ObjectRef } from './ids';
import type { EnqueueCause } from './events-workqueue';
import type { ReconcileOutcome } from './reconcile-outcomes';

export type { ReconcileOutcome } from './reconcile-outcomes';

export interface ControllerLifecycleEvent {
  kind: 'controller.lifecycle';
  controller: ControllerName;
  phase: 'starting' | 'waitingForCacheSync' | 'started' | 'stopping' | 'stopped' | 'cacheSyncTimeout';
  workers?: number;
  /** GVK of the For() type. */
  forKind?: string;
  /**
   * Every source the controller was built with, in the order the builder added them (For, then each Owns,
   * then each Watches, then raw sources): what the controller is wired to, whether or not events came yet.
   */
  sources?: ControllerSource[];
  /**
   * The workqueue it runs on, so panels explain the right one (they differ in priorities and rate limits).
   * Not named `queue`: that field names a queue, and the attach side puts a lane in front of it.
   */
  queueKind?: ControllerQueueKind;
  /** 'default' when the queue's rate limiter is the one controller-runtime picks for that queue kind. */
  rateLimiter?: 'default' | 'custom';
  error?: string;
}

/** One builder call: For(kind), Owns(kind), Watches(kind, handler), or WatchesRawSource (kind unknown). */
export interface ControllerSource {
  role: 'for' | 'owns' | 'watches' | 'raw';
  /** GVK of the watched type ("v1/ConfigMap"), absent for a raw source. */
  kind?: string;
  /** The event handler's name, e.g. "EnqueueRequestsFromMapFunc". */
  handler?: string;
}

/**
 * 'priority': controller-runtime's priority queue (the default since v0.23); 'rateLimiting': client-go's
 * rate-limiting queue (UsePriorityQueue off); 'custom': a NewQueue the user gave, which may be either.
 */
export type ControllerQueueKind = 'priority' | 'rateLimiting' | 'custom';

/** A handler turned an informer event into requests, or a predicate filtered it out. */
export interface HandlerEventEvent {
  kind: 'handler.event';
  controller: ControllerName;
  /** e.g. "EnqueueRequestForObject", "EnqueueRequestForOwner", "EnqueueRequestsFromMapFunc". */
  handler: string;
  eventType: 'create' | 'update' | 'delete' | 'generic';
  ref: ObjectRef;
  /** Keys enqueued; empty when filtered or mapped to nothing. */
  keys: MetaNamespaceKey[];
  /** Names the predicate that rejected the event. */
  filteredBy?: string;
  /**
   * What a predicate or handler threw, when the runtime runs with ReallyCrash off (setReallyCrash(false));
   * by default, as upstream, such a throw ends the process instead.
   */
  panic?: string;
}

export interface ReconcileStartEvent {
  kind: 'reconcile.start';
  controller: ControllerName;
  key: MetaNamespaceKey;
  worker: number;
  /** Every cause absorbed into this reconcile since the key was last taken. */
  causes: EnqueueCause[];
  /** Attempt number: the queue's numRequeues for this key plus one. */
  attempt: number;
  /** controller-runtime's reconcileID (the Go bridge reports it; writes made in this reconcile carry it too). */
  reconcileId?: string;
}

export interface ReconcileEndEvent {
  kind: 'reconcile.end';
  controller: ControllerName;
  key: MetaNamespaceKey;
  worker: number;
  durationMs: number;
  outcome: ReconcileOutcome;
  error?: string;
  requeueAfterMs?: number;
  reconcileId?: string;
}

export interface ClientRequestEvent {
  kind: 'client.request';
  /** The controller whose reconcile made the call, when known. */
  controller?: ControllerName;
  verb: 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'deleteAllOf' | 'updateStatus' | 'patchStatus';
  ref: ObjectRef;
  /** true when served from the informer cache rather than the API server. */
  cached: boolean;
  durationMs: number;
  code?: number;
  error?: string;
  /** The reconcile that made the call, when known (the Go bridge reads it from the request's context). */
  reconcileId?: string;
}

export interface ManagerLifecycleEvent {
  kind: 'manager.lifecycle';
  phase: 'starting' | 'started' | 'stopping' | 'stopped' | 'error';
  group?: 'HTTPServers' | 'Webhooks' | 'Caches' | 'Others' | 'WarmupRunnables' | 'LeaderElection';
  error?: string;
  /** The attached process whose manager this is (set by the attach side); absent for the dashboard's own. */
  process?: string;
}

/**
 * A user's controller module under `controller-scope run`: loaded (its setup ran), failed (with where and
 * what was expected), reloaded after an edit (`--watch`), or stopped. Emitted by the run host, not the runtime.
 */
export interface ModuleLifecycleEvent {
  kind: 'module.lifecycle';
  /** The file as the user named it. */
  file: string;
  phase: 'loading' | 'loaded' | 'failed' | 'stopped';
  /** 1 for the first load; each reload adds one. */
  generation: number;
  /** Controllers its setup registered (phase loaded). */
  controllers?: string[];
  /** Phase failed: what went wrong, where, and what the module must export. */
  error?: ModuleError;
}

export interface ModuleError {
  message: string;
  /** The file and position the error points at (the user's file, or one it imports), when known. */
  at?: { file: string; line: number; column?: number };
  /** What a module must export, for errors about its shape. */
  expected?: string;
}

export interface LeaderElectionEvent {
  kind: 'leaderelection.state';
  lease: string;
  identity: string;
  phase: 'acquiring' | 'acquired' | 'renewed' | 'lost' | 'released' | 'observed';
  holder?: string;
  /** The attached process that reported it (set by the attach side); absent for the dashboard's own. */
  process?: string;
}

/**
 * A reconcile still running well after its signal aborted (its reconciliation timeout passed, or the
 * controller is stopping): it ignores the signal and holds its worker. Not an upstream event: controller-runtime
 * cancels the context and says nothing when the reconciler does not return.
 */
export interface ReconcileStuckEvent {
  kind: 'reconcile.stuck';
  controller: ControllerName;
  key: MetaNamespaceKey;
  worker: number;
  /** Why the signal aborted. */
  reason: 'timeout' | 'shutdown';
  /** How long ago it aborted. */
  sinceAbortMs: number;
}

export type ControllerEvent =
  | ReconcileStuckEvent
  | ControllerLifecycleEvent
  | HandlerEventEvent
  | ReconcileStartEvent
  | ReconcileEndEvent
  | ClientRequestEvent
  | ManagerLifecycleEvent
  | ModuleLifecycleEvent
  | LeaderElectionEvent;
