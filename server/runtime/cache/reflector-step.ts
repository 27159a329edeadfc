// The Reflector's state as one value and the one function that changes it. client-go keeps these as loose
// fields of its Reflector; here every change goes through next(), which takes only the edges listed in
// EDGES, and reflector-step.test.ts checks that list against the protocol's transition table and walks
// every state next() can reach.
import type { ReflectorState } from '../../../shared/protocol/events-cache';
import type { ReflectorTransitionId } from '../../../shared/protocol/reflector-machine';
import { DEFAULT_PAGE_SIZE } from './pager';

export interface ReflectorStatus {
  readonly phase: ReflectorState;
  /** Why the next phase change happens: the reason its reflector.state event carries. */
  readonly reason: string;
  readonly lastSyncResourceVersion: string;
  /** The version last asked for is gone (410) or not there yet: the next list asks for the newest. */
  readonly isLastSyncResourceVersionUnavailable: boolean;
  /** The first list from "0" came back in pages, so the watch cache cannot serve lists: keep paging. */
  readonly paginatedResult: boolean;
  /** A list has replaced the store: the next list is a relist. */
  readonly listedOnce: boolean;
}

export type ReflectorInput =
  /** A LIST, or one WatchList attempt, begins. */
  | { type: 'list' }
  /** A watch is open and being read. */
  | { type: 'watch' }
  | { type: 'backoff' }
  | { type: 'stop' }
  /** What ended the last cycle, said by the next phase change. */
  | { type: 'ended'; reason: string }
  /** The list's version is gone (410) or too new: ask for the newest instead. */
  | { type: 'versionUnavailable' }
  /** A list answered; paginated when a list from "0" came back in pages. */
  | { type: 'listed'; paginated: boolean }
  /** The list's items replaced the store at this version. */
  | { type: 'synced'; resourceVersion: string }
  /** A watch event moved the version on. */
  | { type: 'progress'; resourceVersion: string };

export interface StateChange {
  readonly type: 'state';
  readonly from: ReflectorState;
  readonly to: ReflectorState;
  readonly reason: string;
}

export type ReflectorEffect = StateChange;

const NO_EFFECTS: readonly ReflectorEffect[] = [];

/**
 * The phase changes next() may make: shared/protocol/reflector-machine.ts's table, which the runtime may not
 * import as code. A move off these edges is refused and the phase stays: a caller that drives listAndWatch
 * itself, with no backoff between cycles, lists again while the phase still says watching.
 */
export const EDGES: ReadonlySet<ReflectorTransitionId> = new Set<ReflectorTransitionId>([
  'idle→listing',
  'listing→watching',
  'listing→backoff',
  'watching→backoff',
  'backoff→listing',
  'backoff→relisting',
  'backoff→watching',
  'relisting→watching',
  'relisting→backoff',
  'idle→stopped',
  'listing→stopped',
  'watching→stopped',
  'backoff→stopped',
  'relisting→stopped',
]);

export const INITIAL_STATUS: ReflectorStatus = {
  phase: 'idle',
  reason: 'initial',
  lastSyncResourceVersion: '',
  isLastSyncResourceVersionUnavailable: false,
  paginatedResult: false,
  listedOnce: false,
};

/** Moves to a phase; staying in one (a rewatch, a WatchList retry) reports nothing. */
function enter(
  s: ReflectorStatus,
  to: ReflectorState,
  reason = s.reason,
): [ReflectorStatus, readonly ReflectorEffect[]] {
  if (s.phase === to || !EDGES.has(`${s.phase}→${to}`)) return [s, NO_EFFECTS];
  return [{ ...s, phase: to }, [{ type: 'state', from: s.phase, to, reason }]];
}

export function next(s: ReflectorStatus, input: ReflectorInput): [ReflectorStatus, readonly ReflectorEffect[]] {
  switch (input.type) {
    case 'list':
      return enter(s, s.listedOnce ? 'relisting' : 'listing');
    case 'watch':
      return enter(s, 'watching');
    case 'backoff':
      return enter(s, 'backoff');
    case 'stop':
      return enter(s, 'stopped', 'stop requested');
    case 'ended':
      return [{ ...s, reason: input.reason }, NO_EFFECTS];
    case 'versionUnavailable':
      return [{ ...s, isLastSyncResourceVersionUnavailable: true }, NO_EFFECTS];
    case 'listed':
      return [
        {
          ...s,
          paginatedResult: s.paginatedResult || input.paginated,
          isLastSyncResourceVersionUnavailable: false,
        },
        NO_EFFECTS,
      ];
    case 'synced':
      return [{ ...s, lastSyncResourceVersion: input.resourceVersion, listedOnce: true }, NO_EFFECTS];
    case 'progress':
      return [{ ...s, lastSyncResourceVersion: input.resourceVersion }, NO_EFFECTS];
  }
}

/** relistResourceVersion: the version a (re)list asks for. */
export function relistResourceVersion(s: ReflectorStatus): string {
  if (s.isLastSyncResourceVersionUnavailable) return '';
  return s.lastSyncResourceVersion === '' ? '0' : s.lastSyncResourceVersion;
}

/** The version a WatchList attempt starts from ("" asks for the newest). */
export function watchListResourceVersion(s: ReflectorStatus): string {
  return s.isLastSyncResourceVersionUnavailable ? '' : s.lastSyncResourceVersion;
}

/** The LIST page size for rv; watchListPageSize is the user's setting (0: none). */
export function pageSizeFor(s: ReflectorStatus, rv: string, watchListPageSize: number): number {
  if (watchListPageSize !== 0) return watchListPageSize;
  if (s.paginatedResult) return DEFAULT_PAGE_SIZE;
  if (rv !== '' && rv !== '0') return 0; // let the watch cache serve it
  return DEFAULT_PAGE_SIZE;
}
