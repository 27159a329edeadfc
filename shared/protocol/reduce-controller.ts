// The controller half of reduce(): workqueue depth and per-key queue state, reconciles and their causes,
// handler and client counters. Queue events name the queue, which shares its controller's name (upstream).
import type { ControllerEvent } from './events-controller';
import type { EnqueueCause } from './events-workqueue';
import type { WorkqueueEvent } from './events-workqueue';
import type { Draft } from './reduce-draft';
import type { ReconcileOutcome } from './reconcile-outcomes';
import { addPending, attributeCauses, resolvePending } from './reduce-attribution';
import { evaluateHotLoop, expireHotLoops } from './reduce-hotloop';
import { recordWrite } from './reduce-writes';
import { unhandled } from './reduce-exhaustive';
import { evictKeys, keyAdded } from './reduce-evict';
import { moduleLifecycle } from './reduce-module';
import { leaderElection, managerLifecycle } from './reduce-manager';
import { processOfName } from './reduce-process';
import { notable } from './reduce-notable';
import { seriesPoint } from './reduce-series';
import type { BackoffStep, ControllerSeriesPoint, ControllerView, KeyView, ReconcileRecord } from './view';
import { countIn, dict, lookup } from './records';
import { emptyHistogram } from './view';

type Stamped<E> = E & { seq: number; ts: number };

const ERROR_OUTCOMES = new Set(['error', 'terminalError', 'panic']);
const RETRY_CAUSES = new Set(['errorBackoff', 'requeue']);
const READ_VERBS = new Set(['get', 'list']);

export function newController(name: string, ts: number): ControllerView {
  return {
    name,
    phase: 'unknown',
    phaseSince: ts,
    workers: 0,
    activeWorkers: 0,
    workerStates: dict(),
    depth: { ready: 0, waiting: 0, processing: 0 },
    adds: 0,
    dedupedAdds: 0,
    addsPerSecond: 0,
    reconcilesPerSecond: 0,
    retries: 0,
    reconciles: {
      success: 0,
      requeue: 0,
      requeueAfter: 0,
      error: 0,
      terminalError: 0,
      panic: 0,
    },
    totalReconciles: 0,
    histogram: emptyHistogram(),
    causes: {
      event: 0,
      owner: 0,
      mapped: 0,
      requeue: 0,
      requeueAfter: 0,
      errorBackoff: 0,
      resync: 0,
      manual: 0,
      unknown: 0,
    },
    handlers: dict(),
    client: { requests: dict(), cached: 0, errors: 0, conflicts: 0 },
    keys: dict(),
    keyCount: 0,
    evictedKeys: 0,
    hotLoops: [],
    writes: dict(),
    shutDown: false,
    series: [],
    lastTs: ts,
  };
}

export function newKey(key: string, ts: number): KeyView {
  return {
    key,
    state: 'idle',
    stateSince: ts,
    dirty: false,
    requeues: 0,
    pendingCauses: [],
    pendingCausesDropped: 0,
    adds: 0,
    reconciles: 0,
    history: [],
    recent: [],
    lastTs: ts,
  };
}

export function controllerOf(d: Draft, name: string, ts: number): ControllerView {
  const last = d.lastController;
  if (last !== undefined && last.name === name) {
    const c = last.view;
    c.lastTs = Math.max(c.lastTs, ts);
    return c;
  }
  const all = d.childRecord(d.view, 'controllers');
  const existing = all[name];
  const c = existing ? d.own(existing) : d.made(newController(name, ts));
  if (!existing) {
    const p = processOfName(d.view, name);
    if (p !== undefined) c.process = p;
  }
  // Later touches in the same batch find their own copy already in place.
  if (c !== existing) {
    all[name] = c;
    d.touchedControllers.add(name);
  }
  c.lastTs = Math.max(c.lastTs, ts);
  d.lastController = { name, view: c };
  return c;
}

export function keyOf(d: Draft, c: ControllerView, key: string, ts: number): KeyView {
  const keys = d.childRecord(c, 'keys');
  const existing = keys[key];
  const k = existing ? d.own(existing) : d.made(newKey(key, ts));
  if (k !== existing) keys[key] = k;
  k.lastTs = Math.max(k.lastTs, ts);
  if (!existing) {
    keyAdded(d, keys, key);
    if (++c.keyCount > d.view.limits.maxKeysPerController) evictKeys(d, c, key);
  }
  return k;
}

function blankPoint(t: number, prev: ControllerSeriesPoint | undefined, c: ControllerView): ControllerSeriesPoint {
  return {
    t,
    adds: 0,
    reconciles: 0,
    errors: 0,
    retries: 0,
    durationSumMs: 0,
    durationCount: 0,
    ready: prev?.ready ?? c.depth.ready,
    waiting: prev?.waiting ?? c.depth.waiting,
    processing: prev?.processing ?? c.depth.processing,
    activeWorkers: prev?.activeWorkers ?? c.activeWorkers,
  };
}

function point(d: Draft, c: ControllerView, ts: number): ControllerSeriesPoint {
  return seriesPoint<ControllerView, 'series', ControllerSeriesPoint>(d, c, 'series', ts, blankPoint);
}

function setState(k: KeyView, state: KeyView['state'], ts: number): void {
  if (k.state !== state) {
    k.state = state;
    k.stateSince = ts;
  }
}

/** k must be writable. */
function absorb(d: Draft, k: KeyView, cause: EnqueueCause): void {
  const pending = k.pendingCauses;
  if (pending.length >= d.view.limits.maxCausesPerReconcile) k.pendingCausesDropped++;
  // A key's first cause (most keys have one) gets an array of its own size rather than a copy of the empty
  // one that then grows to hold sixteen.
  else if (pending.length === 0) k.pendingCauses = d.made([cause]);
  else d.child(k, 'pendingCauses').push(cause);
}

export function applyWorkqueueEvent(d: Draft, ev: Stamped<WorkqueueEvent>): void {
  // Read once: ts is a double, and every read of it from an event (a megamorphic load) boxes a new copy.
  const ts = ev.ts;
  const c = controllerOf(d, ev.queue, ts);
  if (ev.kind === 'queue.shutdown') {
    c.shutDown = true;
    return;
  }
  if (ev.kind !== 'queue.forget') c.depth = ev.depth;
  const k = keyOf(d, c, ev.key, ts);
  switch (ev.kind) {
    case 'queue.add': {
      c.adds++;
      k.adds++;
      // A matured delayed entry's causes were absorbed when its queue.addAfter events arrived.
      if (!ev.matured) {
        countIn(d.child(c, 'causes'), ev.cause.type);
        absorb(d, k, ev.cause);
      }
      if (!ev.queued && !ev.matured) c.dedupedAdds++;
      if (ev.dirtyWhileProcessing) {
        k.dirty = true;
        setState(k, 'processing', ts);
      } else setState(k, 'ready', ts);
      // A cancelled delay will not fire, and a matured one has fired (both queues keep one delay per key):
      // left in place, done() would park the key in 'waiting' for nothing. Matured is said rather than
      // inferred from ts, because a Go process's readyAt has sub-millisecond precision and its ts does not.
      if (k.nextRetryAt !== undefined && (ev.delayCancelled || ev.matured || k.nextRetryAt <= ts)) delete k.nextRetryAt;
      point(d, c, ts).adds++;
      break;
    }
    case 'queue.addAfter': {
      countIn(d.child(c, 'causes'), ev.cause.type);
      absorb(d, k, ev.cause);
      k.nextRetryAt = ev.readyAt;
      if (ev.requeues !== undefined) k.requeues = ev.requeues;
      if (k.state === 'idle') setState(k, 'waiting', ts);
      if (RETRY_CAUSES.has(ev.cause.type)) {
        c.retries++;
        point(d, c, ts).retries++;
        if (k.backoff === undefined) k.backoff = d.made([]);
        d.ring(k, 'backoff', d.view.limits.maxReconcilesPerKey).push({
          seq: ev.seq,
          ts,
          requeues: ev.requeues ?? k.requeues,
          delayMs: ev.delayMs,
          readyAt: ev.readyAt,
          cause: ev.cause.type as BackoffStep['cause'],
          ...(ev.cause.detail !== undefined ? { error: ev.cause.detail } : {}),
        });
      }
      break;
    }
    case 'queue.get': {
      k.dirty = false;
      setState(k, 'processing', ts);
      if (k.nextRetryAt !== undefined && k.nextRetryAt <= ts) delete k.nextRetryAt;
      break;
    }
    case 'queue.done': {
      k.dirty = false;
      if (ev.requeued) setState(k, 'ready', ts);
      else if (k.nextRetryAt !== undefined && k.nextRetryAt > ts) setState(k, 'waiting', ts);
      else setState(k, 'idle', ts);
      break;
    }
    case 'queue.forget': {
      if (k.requeues > 0 || k.backoff?.length) k.backoffResetAt = ts;
      k.requeues = 0;
      return;
    }
    default:
      unhandled(ev);
      return;
  }
  const p = point(d, c, ts);
  p.ready = c.depth.ready;
  p.waiting = c.depth.waiting;
  p.processing = c.depth.processing;
}

export function applyControllerEvent(d: Draft, ev: Stamped<ControllerEvent>): void {
  switch (ev.kind) {
    case 'controller.lifecycle': {
      const c = controllerOf(d, ev.controller, ev.ts);
      c.phase = ev.phase;
      c.phaseSince = ev.ts;
      if (c.process !== undefined) c.incarnation = lookup(d.view.processes, c.process)?.incarnation ?? 1;
      if (ev.workers !== undefined) c.workers = ev.workers;
      if (ev.forKind) c.forKind = ev.forKind;
      // The wiring as last reported (it does not change once built; older producers do not send it).
      if (ev.sources) c.sources = ev.sources.map((x) => ({ ...x }));
      if (ev.queueKind) c.queueKind = ev.queueKind;
      if (ev.rateLimiter) c.rateLimiter = ev.rateLimiter;
      if (ev.error) c.lastError = ev.error;
      const level = ev.error || ev.phase === 'cacheSyncTimeout' ? 'error' : 'info';
      notable(d, ev, level, `controller ${ev.controller}: ${ev.phase}${ev.error ? `: ${ev.error}` : ''}`, {
        controller: ev.controller,
      });
      return;
    }
    case 'handler.event': {
      const c = controllerOf(d, ev.controller, ev.ts);
      if (!c.watches?.includes(ev.ref.gvk)) c.watches = [...(c.watches ?? []), ev.ref.gvk];
      const hs = d.childRecord(c, 'handlers');
      const h = { ...(hs[ev.handler] ?? { events: 0, filtered: 0, enqueued: 0 }) };
      h.events++;
      if (ev.panic !== undefined) {
        notable(
          d,
          ev,
          'error',
          `${ev.controller}: ${ev.handler} ${ev.eventType} of ${ev.ref.name} panicked (recovered, ReallyCrash off): ${ev.panic}`,
          {
            controller: ev.controller,
          },
        );
      } else if (ev.filteredBy) {
        h.filtered++;
        h.lastFilteredBy = ev.filteredBy;
      } else h.enqueued += ev.keys.length;
      hs[ev.handler] = h;
      return;
    }
    case 'reconcile.start':
      return reconcileStart(d, ev);
    case 'reconcile.end':
      return reconcileEnd(d, ev);
    case 'reconcile.stuck': {
      const c = controllerOf(d, ev.controller, ev.ts);
      const why = ev.reason === 'timeout' ? 'its reconciliation timeout passed' : 'the controller is stopping';
      const text =
        `${ev.controller} ${ev.key}: reconcile ignores its abort signal: still running ` +
        `${Math.round(ev.sinceAbortMs / 100) / 10} s after it was aborted (${why}), holding worker ${ev.worker}`;
      c.lastError = text;
      notable(d, ev, 'error', text, { controller: ev.controller, key: ev.key });
      return;
    }
    case 'client.request': {
      if (!ev.controller) return;
      const c = controllerOf(d, ev.controller, ev.ts);
      const cl = d.child(c, 'client');
      const reqs = d.childRecord(cl, 'requests');
      reqs[ev.verb] = (reqs[ev.verb] ?? 0) + 1;
      if (ev.cached) cl.cached++;
      // A read that finds nothing is an answer the reconciler handles (client.IgnoreNotFound), not an error.
      if (ev.code === 404 && READ_VERBS.has(ev.verb)) cl.notFound = (cl.notFound ?? 0) + 1;
      else if (ev.error !== undefined || (ev.code !== undefined && ev.code >= 400)) cl.errors++;
      if (ev.code === 409) cl.conflicts++;
      const w = recordWrite(d, c, ev);
      if (w && w.error === undefined) resolvePending(d, c, { write: w });
      return;
    }
    case 'manager.lifecycle':
      return managerLifecycle(d, ev);
    case 'module.lifecycle':
      return moduleLifecycle(d, ev);
    case 'leaderelection.state':
      return leaderElection(d, ev);
    default:
      unhandled(ev);
  }
}

function reconcileStart(d: Draft, ev: Stamped<Extract<ControllerEvent, { kind: 'reconcile.start' }>>): void {
  const limits = d.view.limits;
  const c = controllerOf(d, ev.controller, ev.ts);
  const k = keyOf(d, c, ev.key, ev.ts);
  const all = ev.causes.length > 0 ? ev.causes : k.pendingCauses;
  const dropped =
    Math.max(0, all.length - limits.maxCausesPerReconcile) + (ev.causes.length ? 0 : k.pendingCausesDropped);
  const causes = all.slice(0, limits.maxCausesPerReconcile);
  const attributed = attributeCauses(d, c, ev.key, causes);
  const self = attributed.self;
  const rec: ReconcileRecord = {
    seq: ev.seq,
    worker: ev.worker,
    attempt: ev.attempt,
    startTs: ev.ts,
    causes,
    causesDropped: dropped,
    selfCaused: self !== undefined,
    writes: 0,
    ...(self ? { selfCause: self } : {}),
    attributions: attributed.attributions,
  };
  k.pendingCauses = [];
  k.pendingCausesDropped = 0;
  k.reconciles++;
  k.lastReconcile = rec;
  d.ring(k, 'history', limits.maxReconcilesPerKey).push(rec);
  d.made(rec);
  setState(k, 'processing', ev.ts);
  const workers = d.childRecord(c, 'workerStates');
  workers[String(ev.worker)] = {
    worker: ev.worker,
    key: ev.key,
    since: ev.ts,
    reconcileSeq: ev.seq,
    ...(ev.reconcileId !== undefined ? { reconcileId: ev.reconcileId } : {}),
  };
  c.activeWorkers = countActive(workers);
  point(d, c, ev.ts).activeWorkers = c.activeWorkers;
  addPending(d, c, ev.key, rec, attributed.pending);
  evaluateHotLoop(d, c, k, ev);
  expireHotLoops(d, c, ev.ts);
}

// Field by field: `{ ...last, endTs }` (a spread, then keys the source lacks) would give every record
// a V8 hidden class of its own.
function finishedRecord(
  last: ReconcileRecord,
  endTs: number,
  durationMs: number,
  outcome: ReconcileOutcome,
): ReconcileRecord {
  const rec: ReconcileRecord = {
    seq: last.seq,
    worker: last.worker,
    attempt: last.attempt,
    startTs: last.startTs,
    causes: last.causes,
    causesDropped: last.causesDropped,
    selfCaused: last.selfCaused,
    writes: last.writes,
    endTs,
    durationMs,
    outcome,
  };
  if (last.selfCause) rec.selfCause = last.selfCause;
  if (last.attributions) rec.attributions = last.attributions;
  return rec;
}

function reconcileEnd(d: Draft, ev: Stamped<Extract<ControllerEvent, { kind: 'reconcile.end' }>>): void {
  const c = controllerOf(d, ev.controller, ev.ts);
  const k = keyOf(d, c, ev.key, ev.ts);
  const last = k.lastReconcile;
  // The previous finished reconcile of this key (the running one has no outcome yet): repeated failures of
  // one key make one notable entry, not one per retry.
  const prior = k.history.findLast((r) => r.outcome !== undefined && r.seq !== last?.seq);
  const wasError = prior?.outcome !== undefined && ERROR_OUTCOMES.has(prior.outcome);
  if (last && last.endTs === undefined && last.worker === ev.worker) {
    const rec = d.made(finishedRecord(last, ev.ts, ev.durationMs, ev.outcome));
    if (ev.error !== undefined) rec.error = ev.error;
    if (ev.requeueAfterMs !== undefined) rec.requeueAfterMs = ev.requeueAfterMs;
    k.lastReconcile = rec;
    const h = d.child(k, 'history');
    const i = h.findLastIndex((r) => r.seq === last.seq);
    if (i >= 0) h[i] = rec;
  }
  countIn(d.child(c, 'reconciles'), ev.outcome);
  c.totalReconciles++;
  observe(d, c, ev.durationMs / 1000);
  const p = point(d, c, ev.ts);
  p.reconciles++;
  p.durationSumMs += ev.durationMs;
  p.durationCount++;
  const isError = ERROR_OUTCOMES.has(ev.outcome);
  if (isError) {
    p.errors++;
    if (ev.error) c.lastError = ev.error;
    if (!wasError) {
      notable(d, ev, 'warn', `${ev.controller} ${ev.key}: reconcile ${ev.outcome}${ev.error ? `: ${ev.error}` : ''}`, {
        controller: ev.controller,
        key: ev.key,
      });
    }
  }
  const workers = d.childRecord(c, 'workerStates');
  const w = workers[String(ev.worker)];
  if (w && w.key === ev.key) workers[String(ev.worker)] = { worker: ev.worker, since: ev.ts };
  c.activeWorkers = countActive(workers);
  p.activeWorkers = c.activeWorkers;
  if (w?.reconcileSeq !== undefined && w.key === ev.key) resolvePending(d, c, { endedSeq: w.reconcileSeq });
}

function countActive(workers: ControllerView['workerStates']): number {
  let n = 0;
  for (const w of Object.values(workers)) if (w.key !== undefined) n++;
  return n;
}

function observe(d: Draft, c: ControllerView, seconds: number): void {
  const h = d.child(c, 'histogram');
  const counts = d.child(h, 'counts');
  let i = h.buckets.findIndex((b) => seconds <= b);
  if (i < 0) i = h.buckets.length;
  counts[i] = (counts[i] ?? 0) + 1;
  h.sum += seconds;
  h.count++;
}
