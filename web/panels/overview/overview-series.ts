// Builds the pipeline map: one lane per informer (API server → reflector → DeltaFIFO → indexer → handlers)
// and one per controller (handlers → workqueue → workers → reconciler), each box with its live numbers and
// each arrow with the rate flowing through it.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import { queueCounts, totalQueued } from '../../../shared/protocol/queue-counts';
import type { ControllerView, InformerView, RuntimeView } from '../../../shared/protocol/view';
import { controllerSources } from '../../../shared/protocol/topology';
import { partLiveness, type Liveness } from '../../../shared/protocol/liveness';
import { ratePerSecond } from '../../../shared/protocol/reduce-series';
import type { Tone } from '../../components/Stat';
import { REFLECTOR_TONE } from '../../components/colors';
import { histogramQuantile } from '../controller/controller-series';
import { seriesRate, sortedControllers, sortedInformers } from '../focus';

export { controllerSources };

export interface InformerLane {
  id: string;
  state: InformerView['state'];
  stateTone: Tone;
  synced: boolean;
  /** The queue this informer's events say it uses; "FIFO" until the informer has said. */
  fifo: 'DeltaFIFO' | 'RealFIFO' | 'FIFO';
  lastResourceVersion?: string;
  /** Watch events per second arriving from the API server. */
  watchRate: number;
  deltaRate: number;
  popRate: number;
  fifoLength: number;
  pendingKeys: number;
  storeSize: number;
  handlers: string[];
  notifications: number;
  expired: number;
  relists: number;
  errors: number;
  /** The last list/watch error while not synced: why a cache sync hangs (403 on missing RBAC...). */
  blockingError?: string;
  /** Gone or stale with its process: its state and numbers are what it last reported. */
  liveness: Liveness;
  tone: Tone;
}

export interface ControllerLane {
  name: string;
  phase: string;
  /** Informers feeding this controller. */
  sources: string[];
  addRate: number;
  dedupedAdds: number;
  handlerEvents: number;
  filtered: number;
  ready: number;
  waiting: number;
  processing: number;
  workers: number;
  activeWorkers: number;
  reconcileRate: number;
  totalReconciles: number;
  errors: number;
  errorRatio: number;
  p50Ms?: number;
  p99Ms?: number;
  hotLoops: number;
  liveness: Liveness;
  tone: Tone;
}

export interface Pipeline {
  informers: InformerLane[];
  controllers: ControllerLane[];
  totals: {
    informers: number;
    synced: number;
    controllers: number;
    keys: number;
    reconcileRate: number;
    errors: number;
    hotLoops: number;
    queued: number;
  };
}

export function informerLane(inf: InformerView, windowMs: number, view?: RuntimeView, now?: number): InformerLane {
  const c = inf.counters;
  const notifications = Object.values(c.notifications).reduce((s, n) => s + n, 0);
  const troubled = inf.state === 'backoff' || inf.lastError !== undefined;
  const lane: InformerLane = {
    id: inf.id,
    state: inf.state,
    stateTone: REFLECTOR_TONE[inf.state],
    synced: inf.synced,
    fifo: inf.fifo ?? 'FIFO',
    watchRate: seriesRate(inf.series, 'watchEvents', windowMs, now),
    deltaRate: seriesRate(inf.series, 'deltas', windowMs, now),
    popRate: seriesRate(inf.series, 'pops', windowMs, now),
    fifoLength: inf.fifoLength,
    pendingKeys: Object.keys(inf.pending).length + inf.pendingOverflow,
    storeSize: inf.storeSize,
    handlers: inf.handlers,
    notifications,
    expired: c.expired,
    relists: c.relists,
    errors: c.errors,
    liveness: view ? partLiveness(view, inf) : { state: 'alive' },
    tone: inf.state === 'backoff' ? 'warn' : !inf.synced ? 'info' : troubled && c.errors > 0 ? 'warn' : 'ok',
  };
  if (lane.liveness.state !== 'alive') lane.tone = 'err';
  if (inf.lastResourceVersion !== undefined) lane.lastResourceVersion = inf.lastResourceVersion;
  if (!inf.synced && inf.lastError) {
    lane.blockingError = `${inf.lastError.code || ''} ${inf.lastError.reason}`.trim();
    lane.tone = 'err';
  }
  return lane;
}

export function controllerLane(
  c: ControllerView,
  informers: readonly InformerView[],
  view?: RuntimeView,
  now?: number,
): ControllerLane {
  const window = view?.limits.rateWindowMs ?? 10_000;
  // Rates up to now, not up to the controller's last event: an idle controller's rate falls to zero.
  const at = now ?? c.lastTs;
  const errors = failedReconciles(c.reconciles);
  const handlerEvents = Object.values(c.handlers).reduce((s, h) => s + h.events, 0);
  const filtered = Object.values(c.handlers).reduce((s, h) => s + h.filtered, 0);
  const depth = queueCounts(c);
  const lane: ControllerLane = {
    name: c.name,
    phase: c.phase,
    sources: controllerSources(c, informers),
    addRate: ratePerSecond(c.series, 'adds', at, window),
    dedupedAdds: c.dedupedAdds,
    handlerEvents,
    filtered,
    ready: depth.ready,
    waiting: depth.waiting,
    processing: depth.processing,
    workers: c.workers,
    activeWorkers: c.activeWorkers,
    reconcileRate: ratePerSecond(c.series, 'reconciles', at, window),
    totalReconciles: c.totalReconciles,
    errors,
    errorRatio: c.totalReconciles > 0 ? errors / c.totalReconciles : 0,
    hotLoops: c.hotLoops.length,
    liveness: view ? partLiveness(view, c) : { state: 'alive' },
    tone:
      c.hotLoops.length > 0 || errors > 0
        ? c.hotLoops.length > 0
          ? 'err'
          : 'warn'
        : c.phase === 'started'
          ? 'ok'
          : 'info',
  };
  if (lane.liveness.state !== 'alive') lane.tone = 'err';
  const p50 = histogramQuantile(c.histogram, 0.5);
  const p99 = histogramQuantile(c.histogram, 0.99);
  if (p50 !== undefined) lane.p50Ms = p50 * 1000;
  if (p99 !== undefined) lane.p99Ms = p99 * 1000;
  return lane;
}

export function buildPipeline(view: RuntimeView, now?: number): Pipeline {
  const informers = sortedInformers(view);
  const controllers = sortedControllers(view);
  const windowMs = view.limits.rateWindowMs;
  const iLanes = informers.map((i) => informerLane(i, windowMs, view, now));
  const cLanes = controllers.map((c) => controllerLane(c, informers, view, now));
  return {
    informers: iLanes,
    controllers: cLanes,
    totals: {
      informers: iLanes.length,
      synced: iLanes.filter((i) => i.synced && i.liveness.state === 'alive').length,
      controllers: cLanes.length,
      keys: controllers.reduce((s, c) => s + c.keyCount, 0),
      reconcileRate: cLanes.reduce((s, c) => s + c.reconcileRate, 0),
      errors: cLanes.reduce((s, c) => s + c.errors, 0),
      hotLoops: cLanes.reduce((s, c) => s + c.hotLoops, 0),
      queued: totalQueued(controllers),
    },
  };
}

/** Informer → controller: which controllers each informer's handlers feed, for the lines on the map. */
export function feedEdges(p: Pick<Pipeline, 'controllers'>): { informer: string; controller: string }[] {
  return p.controllers.flatMap((c) => c.sources.map((informer) => ({ informer, controller: c.name })));
}

/**
 * One chart point per second across all controllers: reconciles of each controller (keyed by its name) and
 * the watch events of all informers, aligned on the bucket start.
 */
export function activitySeries(view: RuntimeView): { t: number; [k: string]: number }[] {
  const byT = new Map<number, { t: number; [k: string]: number }>();
  const at = (t: number) => {
    let p = byT.get(t);
    if (!p) {
      p = { t, watchEvents: 0 };
      byT.set(t, p);
    }
    return p;
  };
  for (const c of Object.values(view.controllers)) {
    for (const s of c.series) at(s.t)[c.name] = (at(s.t)[c.name] ?? 0) + s.reconciles;
  }
  for (const i of Object.values(view.informers)) {
    for (const s of i.series) at(s.t).watchEvents = (at(s.t).watchEvents ?? 0) + s.watchEvents;
  }
  const names = Object.keys(view.controllers);
  const pts = [...byT.values()].sort((a, b) => a.t - b.t);
  for (const p of pts) for (const n of names) p[n] ??= 0;
  return pts.slice(-view.limits.seriesPoints);
}
