// The reflector's state machine as data: every state change the runtime's Reflector reports in a
// `reflector.state` event, and what causes it. This is the one statement of those rules: the runtime's
// tests check that each change it emits is an edge here, and the Reflector panel draws its diagram, legend
// and per-edge counts from this table, so the picture cannot teach a path the runtime does not take.

/** The reflector's states, in the order of a healthy life; backoff and relisting are its detours. */
export const REFLECTOR_STATES = ['idle', 'listing', 'watching', 'backoff', 'relisting', 'stopped'] as const;

export type ReflectorState = (typeof REFLECTOR_STATES)[number];

/** An edge's identity in counters and lookups, e.g. "watching→backoff". */
export type ReflectorTransitionId = `${ReflectorState}→${ReflectorState}`;

export interface ReflectorTransition {
  from: ReflectorState;
  to: ReflectorState;
  /** A few words for the diagram's arrow. */
  trigger: string;
  /** One sentence for the legend: what happened in the runtime. */
  detail: string;
}

const STOP = 'stop';
const STOP_DETAIL = 'the informer was stopped (its context was cancelled)';

/**
 * Every state change the Reflector makes. A watch that ends cleanly (server timeout, closed stream) is
 * opened again without a state change, so it is not an edge: the panel counts it as a rewatch.
 */
export const REFLECTOR_TRANSITIONS: readonly ReflectorTransition[] = [
  {
    from: 'idle',
    to: 'listing',
    trigger: 'start',
    detail: 'the informer starts: a LIST (or a WatchList stream) for the initial state',
  },
  {
    from: 'listing',
    to: 'watching',
    trigger: 'listed',
    detail:
      "the list replaced the store and a watch opens from its resourceVersion (a WatchList stream's initial events replaced it, and the same stream keeps watching)",
  },
  {
    from: 'listing',
    to: 'backoff',
    trigger: 'error',
    detail: 'the list failed, or the first watch after it could not be opened',
  },
  {
    from: 'watching',
    to: 'backoff',
    trigger: '410 · 429 · error',
    detail:
      'the watch ended with 410 Expired or another error (a relist follows), or with 429 / a refused connection (a rewatch follows)',
  },
  {
    from: 'backoff',
    to: 'listing',
    trigger: 'retry',
    detail: 'the delay is over and no list has succeeded yet: list again',
  },
  {
    from: 'backoff',
    to: 'relisting',
    trigger: 'relist',
    detail: 'the delay is over after an expired or failed watch: list again from the last resourceVersion',
  },
  {
    from: 'backoff',
    to: 'watching',
    trigger: 'rewatch',
    detail: 'the delay is over after a 429 or a refused connection: watch again, no relist',
  },
  {
    from: 'relisting',
    to: 'watching',
    trigger: 'relisted',
    detail: 'the relist replaced every object (absent ones are Deleted tombstones); watch again',
  },
  {
    from: 'relisting',
    to: 'backoff',
    trigger: 'error',
    detail: 'the relist failed, or the watch after it could not be opened',
  },
  { from: 'idle', to: 'stopped', trigger: STOP, detail: STOP_DETAIL },
  { from: 'listing', to: 'stopped', trigger: STOP, detail: STOP_DETAIL },
  { from: 'watching', to: 'stopped', trigger: STOP, detail: STOP_DETAIL },
  { from: 'backoff', to: 'stopped', trigger: STOP, detail: STOP_DETAIL },
  { from: 'relisting', to: 'stopped', trigger: STOP, detail: STOP_DETAIL },
];

export function transitionId(from: ReflectorState, to: ReflectorState): ReflectorTransitionId {
  return `${from}→${to}`;
}

const EDGES: ReadonlySet<string> = new Set(REFLECTOR_TRANSITIONS.map((t) => transitionId(t.from, t.to)));

/** True when from → to is an edge of the table (a state change the runtime can report). */
export function isReflectorTransition(from: string, to: string): boolean {
  return EDGES.has(`${from}→${to}`);
}

/** A count per edge, all zero: the shape of InformerCounters.transitions. */
export function emptyTransitionCounts(): Record<ReflectorTransitionId, number> {
  // Fixed keys from the table, never from event data, so a plain record is safe here.
  return Object.fromEntries(REFLECTOR_TRANSITIONS.map((t) => [transitionId(t.from, t.to), 0])) as Record<
    ReflectorTransitionId,
    number
  >;
}
