// The Reflector's options (client-go tools/cache/reflector.go ReflectorOptions and NewReflector's
// arguments), with their defaults.
import type { KubeObject } from '../../../shared/models/object';
import type { InformerId } from '../../../shared/protocol/ids';
import type { ListerWatcher } from '../client/lister-watcher';
import type { Probe } from '../instrumentation/probe';
import type { Clock } from '../util/clock';
import type { BackoffOptions } from './backoff';
import type { WatchErrorHandler } from './interfaces';
import type { ReflectorStore } from './reflector-store';

/** The floor of the randomized watch timeout: [min, 2·min). */
export const DEFAULT_MIN_WATCH_TIMEOUT_MS = 5 * 60_000;

/**
 * How a reflector lists and watches, as client-go's ReflectorOptions tune it. Informers and the low-level
 * controller accept the same fields and hand them on unchanged (pickReflectorTuning); only the Reflector
 * applies defaults, so each default is written once, here and in reflector.ts.
 */
export interface ReflectorTuning {
  /** LIST page size; 0 = the pager's default rules. Default 0. */
  watchListPageSize?: number;
  /** Only honoured above the 5-minute default. */
  minWatchTimeoutMs?: number;
  /** Default REFLECTOR_BACKOFF (800ms ×2 jitter 1 cap 30s, reset after 2 min). */
  backoff?: Partial<BackoffOptions>;
  /** Retry watches that end with a 500 for this long (ms) before relisting; 0 = never. Default 0. */
  maxInternalErrorRetryDurationMs?: number;
  /**
   * Get the initial state from one WatchList stream (sendInitialEvents=true) instead of a LIST, falling
   * back to LIST on errors. Default: runtimeDefaults().watchListClient (on, as client-go since 1.35)
   * unless the lister-watcher declares isWatchListSemanticsUnSupported().
   */
  useWatchList?: boolean;
}

const TUNING_KEYS = [
  'watchListPageSize',
  'minWatchTimeoutMs',
  'backoff',
  'maxInternalErrorRetryDurationMs',
  'useWatchList',
] as const satisfies readonly (keyof ReflectorTuning)[];

/** The tuning fields that are set in o (absent ones stay absent, so the Reflector's defaults apply). */
export function pickReflectorTuning(o: ReflectorTuning): ReflectorTuning {
  const t: Record<string, unknown> = {};
  for (const k of TUNING_KEYS) if (o[k] !== undefined) t[k] = o[k];
  return t as ReflectorTuning;
}

export interface ReflectorOptions<T extends KubeObject> extends ReflectorTuning {
  listerWatcher: ListerWatcher<T>;
  store: ReflectorStore<T>;
  /** Default "reflector". Used in messages. */
  name?: string;
  /** "v1/Pod" or "apps/v1/Deployment": watch events of another apiVersion/kind are dropped (a value without
   *  "/" only names things). Default: accept any. */
  expectedGVK?: string;
  /** Names the informer in probe events. Default expectedGVK, else name. */
  informer?: InformerId;
  /** How often to call store.resync() while watching (ms); 0 = never. Default 0. */
  resyncPeriodMs?: number;
  /** Consulted before each resync; default always. */
  shouldResync?: () => boolean;
  /** Called with errors that end a list-and-watch cycle. Default: none (the probe still reports them). */
  watchErrorHandler?: WatchErrorHandler;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Default Math.random (jitter and watch timeouts). */
  random?: () => number;
}
