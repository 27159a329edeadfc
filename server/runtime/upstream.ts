// The upstream release whose behaviour the runtime reproduces, named once, and the defaults that changed
// between releases. Go code switches these per process (client-go feature gates read KUBE_FEATURE_*
// environment variables; controller-runtime's queue default is a manager-wide option), so they are
// process-wide here too, read when a reflector, informer or controller is built.

/** The versions followed: every default without an explicit option behaves as these releases do. */
export const UPSTREAM_VERSION = Object.freeze({
  controllerRuntime: 'v0.25.2',
  clientGo: 'v0.37.0',
  kubernetes: '1.37',
});

/** The defaults that differ between the releases a user may be comparing against. */
export interface RuntimeDefaults {
  /** client-go feature gate WatchListClient: fill informers from a streaming WatchList (on since 1.35). */
  watchListClient: boolean;
  /** client-go feature gate InOrderInformers: informers use RealFIFO, not DeltaFIFO (on since 1.33). */
  inOrderInformers: boolean;
  /** controller-runtime Controller.UsePriorityQueue (on since v0.23). */
  usePriorityQueue: boolean;
  /**
   * client-go feature gate AtomicFIFO (beta and on since 1.36): a relist reaches the indexer as one
   * ReplacedAll step and a resync as one SyncAll step. Needs InOrderInformers (RealFIFO). Off here by
   * default (see fromEnvironment).
   */
  atomicFIFO: boolean;
}

/** Releases whose defaults can be reproduced; each names the first controller-runtime release with them. */
export const UPSTREAM_DEFAULTS = Object.freeze({
  /** controller-runtime v0.24 and v0.25 (client-go 1.36, 1.37): AtomicFIFO on as well. */
  'v0.24': Object.freeze({ watchListClient: true, inOrderInformers: true, usePriorityQueue: true, atomicFIFO: true }),
  /** controller-runtime v0.23 (client-go 1.35): WatchList, RealFIFO, the priority queue; no AtomicFIFO gate yet. */
  'v0.23': Object.freeze({ watchListClient: true, inOrderInformers: true, usePriorityQueue: true, atomicFIFO: false }),
  /** controller-runtime v0.21 and v0.22 (client-go 1.33, 1.34): RealFIFO, LIST + WATCH, rate-limiting queue. */
  'v0.21': Object.freeze({
    watchListClient: false,
    inOrderInformers: true,
    usePriorityQueue: false,
    atomicFIFO: false,
  }),
  /** controller-runtime v0.20 and older (client-go 1.32): DeltaFIFO, LIST + WATCH, rate-limiting queue. */
  'v0.20': Object.freeze({
    watchListClient: false,
    inOrderInformers: false,
    usePriorityQueue: false,
    atomicFIFO: false,
  }),
} satisfies Record<string, Readonly<RuntimeDefaults>>);

export type UpstreamDefaultsRelease = keyof typeof UPSTREAM_DEFAULTS;

function fromEnvironment(): RuntimeDefaults {
  // The followed release's defaults, except AtomicFIFO: its one-step relists would hide every relisted
  // object from the dashboard's FIFO view, which knows per-object deltas only. setRuntimeDefaults('v0.24')
  // or KUBE_FEATURE_AtomicFIFO=true gives upstream's default.
  const out: RuntimeDefaults = { ...UPSTREAM_DEFAULTS['v0.24'], atomicFIFO: false };
  // client-go reads its gates from KUBE_FEATURE_<Name>=true|false; honour the ones that are not locked.
  const env = (name: string): string | undefined =>
    typeof process === 'undefined' ? undefined : process.env[`KUBE_FEATURE_${name}`];
  const watchList = env('WatchListClient');
  if (watchList === 'false') out.watchListClient = false;
  if (watchList === 'true') out.watchListClient = true;
  const atomic = env('AtomicFIFO');
  if (atomic === 'false') out.atomicFIFO = false;
  if (atomic === 'true') out.atomicFIFO = true;
  return out;
}

let active: RuntimeDefaults = fromEnvironment();

/** The defaults in force for pieces built from now on. */
export function runtimeDefaults(): Readonly<RuntimeDefaults> {
  return active;
}

/**
 * Reproduce an older release's defaults (or pass overrides of single defaults) for every reflector,
 * informer and controller built afterwards. Explicit per-object options still win. Returns the previous
 * defaults so a test can restore them.
 */
export function setRuntimeDefaults(release: UpstreamDefaultsRelease | Partial<RuntimeDefaults>): RuntimeDefaults {
  const previous = active;
  if (typeof release === 'string') {
    const d = (UPSTREAM_DEFAULTS as Record<string, RuntimeDefaults | undefined>)[release];
    if (!d) {
      throw new Error(
        `unknown upstream release "${String(release)}": use one of ${Object.keys(UPSTREAM_DEFAULTS).join(', ')}`,
      );
    }
    active = { ...d };
  } else {
    active = { ...active, ...release };
  }
  return previous;
}
