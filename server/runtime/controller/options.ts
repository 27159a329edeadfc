// Ports controller-runtime pkg/controller/controller.go (Options, NewTypedUnmanaged defaulting) and
// pkg/config/controller.go: the controller's options, defaulted in one place.
import type { Registry } from 'prom-client';
import type { ControllerSource } from '../../../shared/protocol/events-controller';
import type { RequestQueue } from '../handler/eventhandler';
import type { Probe } from '../instrumentation/probe';
import type { Logger } from '../reconcile/logger';
import type { Reconciler, Request } from '../reconcile/reconcile';
import type { Clock } from '../util/clock';
import type { PriorityGetResult, TypedRateLimiter } from '../workqueue/interfaces';

/** The queue a controller runs on; getWithPriority when it is the priority queue. */
export type ControllerQueue = RequestQueue & {
  getWithPriority?: () => Promise<PriorityGetResult<Request>>;
};

export interface NewQueueContext {
  clock: Clock;
  probe: Probe;
  registry: Registry;
}

export type NewQueue = (
  name: string,
  rateLimiter: TypedRateLimiter<Request> | undefined,
  ctx: NewQueueContext,
) => ControllerQueue;

/** Manager-wide controller defaults (config.Controller); per-controller options win when set. */
export interface ControllerConfig {
  skipNameValidation?: boolean;
  /** "Kind.group" → workers, used by the builder for the For() type. */
  groupKindConcurrency?: Record<string, number>;
  maxConcurrentReconciles?: number;
  cacheSyncTimeoutMs?: number;
  recoverPanic?: boolean;
  needLeaderElection?: boolean;
  usePriorityQueue?: boolean;
  reconciliationTimeoutMs?: number;
  enableWarmup?: boolean;
  log?: Logger;
}

export interface ControllerOptions {
  /** Required; unique per metrics registry unless skipNameValidation. */
  name: string;
  /** Required. */
  reconciler: Reconciler;
  /** Workers. ≤ 0 → manager config, else 1. */
  maxConcurrentReconciles?: number;
  /** Default: priority queue → exponential 5ms…1000s; plain queue → max(that, 10 qps/100 bucket). */
  rateLimiter?: TypedRateLimiter<Request>;
  /** Builds the queue. Default: the priority queue, or the rate-limiting queue when usePriorityQueue is false. */
  newQueue?: NewQueue;
  /** Default true (controller-runtime ≥ v0.23). */
  usePriorityQueue?: boolean;
  /** Bound on starting and syncing each source. Default 2 minutes. */
  cacheSyncTimeoutMs?: number;
  /** Turn a throw that looks like a bug (TypeError & co.) into an error result. Default true. */
  recoverPanic?: boolean;
  /** Default true: the controller runs only on the elected leader. */
  needLeaderElection?: boolean;
  /** Aborts the reconcile's signal after this long. Default 0 = none. */
  reconciliationTimeoutMs?: number;
  /**
   * A reconcile still running this long after its signal aborted (timeout or shutdown) is reported
   * (reconcile.stuck, an error log): it ignores the signal and holds its worker. Default 5000 ms.
   */
  abortGraceMs?: number;
  /** Start sources before leader election is won (Warmup). Default false. */
  enableWarmup?: boolean;
  skipNameValidation?: boolean;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Where metrics go. Default metrics.registry. */
  registry?: Registry;
  /** Default NULL_LOGGER. */
  log?: Logger;
  /** The For() type's GVK string, for lifecycle events. */
  forKind?: string;
  /** The builder's For / Owns / Watches, for lifecycle events (the dashboard's Controller header lists them). */
  sources?: ControllerSource[];
}

export const DEFAULT_CACHE_SYNC_TIMEOUT_MS = 2 * 60 * 1000;

/** Applies the manager config under explicit options (controller.New's mergeControllerOptions). */
export function withControllerConfig(opts: ControllerOptions, cfg: ControllerConfig | undefined): ControllerOptions {
  if (!cfg) return opts;
  return {
    ...opts,
    maxConcurrentReconciles:
      opts.maxConcurrentReconciles && opts.maxConcurrentReconciles > 0
        ? opts.maxConcurrentReconciles
        : cfg.maxConcurrentReconciles,
    cacheSyncTimeoutMs:
      opts.cacheSyncTimeoutMs && opts.cacheSyncTimeoutMs > 0 ? opts.cacheSyncTimeoutMs : cfg.cacheSyncTimeoutMs,
    recoverPanic: opts.recoverPanic ?? cfg.recoverPanic,
    needLeaderElection: opts.needLeaderElection ?? cfg.needLeaderElection,
    usePriorityQueue: opts.usePriorityQueue ?? cfg.usePriorityQueue,
    reconciliationTimeoutMs: opts.reconciliationTimeoutMs ?? cfg.reconciliationTimeoutMs,
    enableWarmup: opts.enableWarmup ?? cfg.enableWarmup,
    skipNameValidation: opts.skipNameValidation ?? cfg.skipNameValidation,
    log: opts.log ?? cfg.log,
  };
}
