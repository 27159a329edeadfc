// The one reducer: (view, stamped events) → view. The server's recorder and every browser run it over the
// same events, so the snapshot a new client receives is exactly what replaying would have built.
//
// Pure: the input view is never mutated (see reduce-draft.ts), time comes only from event stamps, and
// events at or below view.lastSeq are skipped, so re-applying an overlapping batch after a resume is safe.
// Bounded: every collection is capped by view.limits. Caps are enforced as events arrive (not at batch ends),
// so the resulting view does not depend on how the events were batched.
import type { StampedEvent } from './events';
import type { CacheEvent } from './events-cache';
import type { ControllerEvent } from './events-controller';
import type { WorkqueueEvent } from './events-workqueue';
import { eventProblem } from './event-check';
import { Draft } from './reduce-draft';
import { applyControllerEvent, applyWorkqueueEvent } from './reduce-controller';
import { applyCacheEvent } from './reduce-informer';
import { BRIDGE_BLOCKS, CACHE_BLOCKS, CONTROLLER_BLOCKS, WORKQUEUE_BLOCKS } from './reduce-exhaustive';
import { applyBridgeEvent } from './reduce-process';
import type { BridgeEvent } from './events-bridge';
import { notable } from './reduce-notable';
import { ratePerSecond } from './reduce-series';
import { MAX_REDUCER_ERRORS } from './view';
import type { RuntimeView } from './view';

type Stamped<E> = E & { seq: number; ts: number };

/**
 * For a caller that keeps its view to itself between batches (the server's Recorder while nobody reads the
 * view): what reduce() copied or made for one batch stays writable for the next, so a busy controller's keys
 * record, key states and log are copied once per hand-out instead of once per batch. The result is the same
 * view either way; only object identities differ. Call share() before anything else may hold the view or any
 * part of it: later batches then copy what they touch again.
 */
export class ReduceSession {
  /** Objects the reducer may write in place. */
  fresh = new Set<object>();
  /** Objects the last batch created: writable in the next one too. */
  madeLast = new Set<object>();

  share(): void {
    if (this.fresh.size > 0) this.fresh = new Set();
    if (this.madeLast.size > 0) this.madeLast = new Set();
  }
}

/**
 * Copies a session keeps writable before it starts over. They include copies since dropped from the view
 * (evicted keys), so the bound caps what the session holds on to (a few MB); starting over costs one batch
 * of copies. Objects made in a batch stay writable for the next batch only (the session drops them then), so
 * they never count towards it.
 */
const MAX_SESSION_OBJECTS = 50_000;

export interface ReduceOptions {
  /**
   * The events were built by this process's runtime (typed literals, well-formed by construction), so the
   * per-event shape check is skipped. Never for events parsed from a file, a socket or a bridge's stream.
   */
  trusted?: boolean;
}

export function reduce(
  view: RuntimeView,
  events: readonly StampedEvent[],
  session?: ReduceSession,
  opts?: ReduceOptions,
): RuntimeView {
  if (events.length === 0) return view;
  const check = opts?.trusted !== true;
  let d: Draft | undefined;
  for (const ev of events) {
    if (ev.seq <= (d ? d.view.lastSeq : view.lastSeq)) continue;
    d ??= new Draft(view, session?.fresh, session?.madeLast);
    const problem = check ? eventProblem(ev) : undefined;
    if (problem !== undefined) {
      refused(d, ev, problem);
      continue;
    }
    try {
      apply(d, ev);
    } catch (err) {
      dropped(d, ev, err);
    }
  }
  if (!d) return view;
  try {
    finalize(d);
  } catch (err) {
    dropped(d, { seq: d.view.lastSeq, ts: d.view.lastTs, kind: '(end of batch)' }, err);
  }
  if (session) {
    session.madeLast = d.created;
    if (session.fresh.size > MAX_SESSION_OBJECTS) session.share();
  }
  return d.view;
}

/**
 * One event the reducer threw on (a malformed recording, an event from a newer or buggy producer): whatever
 * it had changed stays, the rest of the batch still applies, and the view says so where the UI can show it.
 */
function dropped(d: Draft, ev: { seq: number; ts: number; kind: unknown }, err: unknown): void {
  const v = d.view;
  const kind = typeof ev.kind === 'string' ? ev.kind.slice(0, 100) : '(no kind)';
  const error = describe(err);
  v.droppedEvents = (v.droppedEvents ?? 0) + 1;
  try {
    if (!Array.isArray(v.reducerErrors)) v.reducerErrors = [];
    d.ring(v, 'reducerErrors', MAX_REDUCER_ERRORS).push({ seq: ev.seq, ts: ev.ts, kind, error });
    if (!Array.isArray(v.notable)) v.notable = [];
    notable(d, { seq: ev.seq, ts: ev.ts, kind }, 'error', `dropped event #${ev.seq} (${kind}): ${error}`);
  } catch {
    // A view too broken to take the report still has the count.
  }
}

/** A malformed event: not applied at all (nor logged, where the UI would read it), only reported. */
function refused(d: Draft, ev: StampedEvent, problem: string): void {
  const v = d.view;
  if (Number.isFinite(ev.seq) && ev.seq > v.lastSeq) v.lastSeq = ev.seq;
  const seq = Number.isFinite(ev.seq) ? ev.seq : v.lastSeq;
  const ts = Number.isFinite(ev.ts) ? ev.ts : v.lastTs;
  dropped(d, { seq, ts, kind: ev.kind }, new Error(problem));
}

function describe(err: unknown): string {
  try {
    const text =
      err instanceof Error
        ? err.name === 'Error'
          ? err.message
          : `${err.name}: ${err.message}`
        : typeof err === 'string'
          ? err
          : typeof err;
    return text.slice(0, 300);
  } catch {
    return 'unknown error';
  }
}

function apply(d: Draft, ev: StampedEvent): void {
  // Read once: ts is a double, and every read of it from an event (a megamorphic load) boxes a new copy.
  const ts = ev.ts;
  const v = d.view;
  v.lastSeq = ev.seq;
  v.lastTs = Math.max(v.lastTs, ts);
  if (v.firstTs === 0) v.firstTs = ts;
  v.eventCount++;
  d.log(ev);
  // The block lists are checked against the event unions at compile time (reduce-exhaustive.ts).
  const block = blockOf(ev.kind);
  if (CACHE.has(block)) applyCacheEvent(d, ev as Stamped<CacheEvent>);
  else if (WORKQUEUE.has(block)) applyWorkqueueEvent(d, ev as Stamped<WorkqueueEvent>);
  else if (CONTROLLER.has(block)) applyControllerEvent(d, ev as Stamped<ControllerEvent>);
  else if (BRIDGE.has(block)) applyBridgeEvent(d, ev as Stamped<BridgeEvent>);
  // Otherwise a kind from a newer server: kept in the log, otherwise ignored (kinds are only ever added).
}

const CACHE: ReadonlySet<string> = new Set(CACHE_BLOCKS);
const WORKQUEUE: ReadonlySet<string> = new Set(WORKQUEUE_BLOCKS);
const CONTROLLER: ReadonlySet<string> = new Set(CONTROLLER_BLOCKS);
const BRIDGE: ReadonlySet<string> = new Set(BRIDGE_BLOCKS);

/** Kind → its block (the part before the dot), remembered so the hot path allocates no substring. */
const BLOCKS = new Map<string, string>();

function blockOf(kind: string): string {
  let block = BLOCKS.get(kind);
  if (block === undefined) {
    block = kind.slice(0, kind.indexOf('.'));
    // Kinds are a small closed set; the bound only guards against a stream of junk kinds.
    if (BLOCKS.size < 1024) BLOCKS.set(kind, block);
  }
  return block;
}

function finalize(d: Draft): void {
  const v = d.view;
  const { rateWindowMs } = v.limits;
  // Rates are recomputed for every controller (not only touched ones) so a quiet controller decays to 0.
  for (const c of Object.values(v.controllers)) {
    const adds = ratePerSecond(c.series, 'adds', v.lastTs, rateWindowMs);
    const recs = ratePerSecond(c.series, 'reconciles', v.lastTs, rateWindowMs);
    if (adds === c.addsPerSecond && recs === c.reconcilesPerSecond) continue;
    const o = d.own(c);
    d.childRecord(v, 'controllers')[c.name] = o;
    o.addsPerSecond = adds;
    o.reconcilesPerSecond = recs;
  }
  d.trimRings();
}
