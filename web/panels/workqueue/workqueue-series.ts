// Models for the workqueue panel: the depth chart (ready / waiting-in-delay / processing) and the per-key
// table with state, requeues and the countdown to the next retry.
import type { CauseType } from '../../../shared/protocol/events';
import type { ControllerView, KeyQueueState, KeyView } from '../../../shared/protocol/view';
import { keyMembership } from '../../../shared/protocol/queue-counts';
import type { ChartPoint } from '../../components/TimeSeriesChart';

export function depthSeries(c: ControllerView): ChartPoint[] {
  return c.series.map((p) => ({ t: p.t, ready: p.ready, waiting: p.waiting, processing: p.processing, adds: p.adds }));
}

export type KeyFilter = 'all' | 'queued' | KeyQueueState | 'retrying' | 'hot';

export interface KeyRow {
  key: string;
  state: KeyQueueState;
  /** Where the queue counts this key (a processing key may be queued again). */
  member: ReturnType<typeof keyMembership>;
  stateForMs: number;
  dirty: boolean;
  requeues: number;
  /** ms until a waiting key becomes ready; negative once due. */
  retryInMs?: number;
  retryAt?: number;
  adds: number;
  reconciles: number;
  /** Causes absorbed since the key was last taken, by type. */
  pending: Partial<Record<CauseType, number>>;
  pendingTotal: number;
  lastOutcome?: string;
  lastError?: string;
  lastDurationMs?: number;
  /** The last rate-limited requeue: its delay and requeue count, readable after it is over. */
  lastBackoff?: { delayMs: number; requeues: number };
  hot: boolean;
}

const STATE_ORDER: Record<KeyQueueState, number> = { processing: 0, ready: 1, waiting: 2, idle: 3 };

export function keyRow(k: KeyView, now: number, hot: boolean): KeyRow {
  const pending: Partial<Record<CauseType, number>> = {};
  for (const c of k.pendingCauses) pending[c.type] = (pending[c.type] ?? 0) + 1;
  const row: KeyRow = {
    key: k.key,
    state: k.state,
    member: keyMembership(k),
    stateForMs: Math.max(0, now - k.stateSince),
    dirty: k.dirty,
    requeues: k.requeues,
    adds: k.adds,
    reconciles: k.reconciles,
    pending,
    pendingTotal: k.pendingCauses.length + k.pendingCausesDropped,
    hot,
  };
  if (k.nextRetryAt !== undefined) {
    row.retryAt = k.nextRetryAt;
    row.retryInMs = k.nextRetryAt - now;
  }
  const b = k.backoff?.[k.backoff.length - 1];
  if (b) row.lastBackoff = { delayMs: b.delayMs, requeues: b.requeues };
  const last = k.lastReconcile;
  if (last?.outcome) row.lastOutcome = last.outcome;
  if (last?.error) row.lastError = last.error;
  if (last?.durationMs !== undefined) row.lastDurationMs = last.durationMs;
  return row;
}

/**
 * Backing off and still queued or running. numRequeues outlives the retries: a key that ended in a terminal
 * error is never forgotten by the rate limiter, yet nothing will run it again.
 */
function isRetrying(k: { requeues: number; state: KeyQueueState }): boolean {
  return k.requeues > 0 && k.state !== 'idle';
}

function matches(r: Pick<KeyRow, 'state' | 'requeues' | 'member' | 'hot'>, f: KeyFilter): boolean {
  switch (f) {
    case 'all':
      return true;
    case 'queued':
      return r.member.ready || r.member.waiting;
    case 'retrying':
      return isRetrying(r);
    case 'hot':
      return r.hot;
    case 'idle':
      return r.state === 'idle';
    default:
      return r.member[f];
  }
}

/**
 * The keys for the table, most urgent first: processing, ready, then waiting by soonest retry, then idle by
 * recency. `search` is a substring match on the key. Independent of the clock, so a panel recomputes it only
 * when the keys change and builds rows (with their countdowns) for the few in view.
 */
export function keyOrder(
  c: Pick<ControllerView, 'keys' | 'hotLoops'>,
  filter: KeyFilter = 'queued',
  search = '',
): { keys: KeyView[]; hot: ReadonlySet<string> } {
  const hot = new Set(c.hotLoops.map((h) => h.key));
  const q = search.trim().toLowerCase();
  const keys: KeyView[] = [];
  for (const k of Object.values(c.keys)) {
    if (q && !k.key.toLowerCase().includes(q)) continue;
    if (matches({ state: k.state, requeues: k.requeues, member: keyMembership(k), hot: hot.has(k.key) }, filter))
      keys.push(k);
  }
  keys.sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      (a.state === 'waiting' ? (a.nextRetryAt ?? 0) - (b.nextRetryAt ?? 0) : 0) ||
      b.requeues - a.requeues ||
      b.stateSince - a.stateSince ||
      a.key.localeCompare(b.key),
  );
  return { keys, hot };
}

/** Rows for every key of keyOrder, at `now`. */
export function keyRows(c: ControllerView, now: number, filter: KeyFilter = 'queued', search = ''): KeyRow[] {
  const { keys, hot } = keyOrder(c, filter, search);
  return keys.map((k) => keyRow(k, now, hot.has(k.key)));
}

/** Keys per filter, counted as the queue counts them (see shared/protocol/queue-counts). */
export function stateCounts(c: Pick<ControllerView, 'keys' | 'hotLoops'>): Record<KeyFilter, number> {
  const out: Record<KeyFilter, number> = {
    all: 0,
    queued: 0,
    ready: 0,
    waiting: 0,
    processing: 0,
    idle: 0,
    retrying: 0,
    hot: c.hotLoops.length,
  };
  for (const k of Object.values(c.keys)) {
    const m = keyMembership(k);
    out.all++;
    if (m.ready) out.ready++;
    if (m.waiting) out.waiting++;
    if (m.ready || m.waiting) out.queued++;
    if (m.processing) out.processing++;
    if (k.state === 'idle') out.idle++;
    if (isRetrying(k)) out.retrying++;
  }
  return out;
}
