// Builds the pipeline map: one lane per informer (API server → reflector → DeltaFIFO → indexer → handlers)
// and one per controller (handlers → workqueue → workers → reconciler), each box with its live numbers and
// each arrow with the rate flowing through it.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import { queueCounts, totalQueued } from '../../../shared/protocol/queue-counts';
import type { ControllerView, InformerView, RuntimeView } from '../../../shared/protocol/view';
import type { Tone } from '../../components/Stat';
import { REFLECTOR_TONE } from '../../components/colors';
import { histogramQuantile } from '../controller/controller-series';
import { seriesRate, sortedControllers, sortedInformers } from '../focus';

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

export function informerLane(inf: InformerView, windowMs: number): InformerLane {
  const c = inf.counters;
  const notifications = Object.values(c.notifications).reduce((s, n) => s + n, 0);
  const troubled = inf.state === 'backoff' || inf.lastError !== undefined;
  const lane: InformerLane = {
    id: inf.id,
    state: inf.state,
    stateTone: REFLECTOR_TONE[inf.state],
    synced: inf.synced,
    fifo: inf.fifo ?? 'FIFO',
    watchRate: seriesRate(inf.series, 'watchEvents', windowMs),
    deltaRate: seriesRate(inf.series, 'deltas', windowMs),
    popRate: seriesRate(inf.series, 'pops', windowMs),
    fifoLength: inf.fifoLength,
    pendingKeys: Object.keys(inf.pending).length + inf.pendingOverflow,
    storeSize: inf.storeSize,
    handlers: inf.handlers,
    notifications,
    expired: c.expired,
    relists: c.relists,
    errors: c.errors,
    tone: inf.state === 'backoff' ? 'warn' : !inf.synced ? 'info' : troubled && c.errors > 0 ? 'warn' : 'ok',
  };
  if (inf.lastResourceVersion !== undefined) lane.lastResourceVersion = inf.lastResourceVersion;
  if (!inf.synced && inf.lastError) {
    lane.blockingError = `${inf.lastError.code || ''} ${inf.lastError.reason}`.trim();
    lane.tone = 'err';
  }
  return lane;
}

/** The informers a controller consumes: its For() kind, and any informer that lists it as a handler. */
export function controllerSources(c: ControllerView, informers: readonly InformerView[]): string[] {
  const out = new Set<string>();
  if (c.forKind && informers.some((i) => i.id === c.forKind)) out.add(c.forKind);
  for (const inf of informers)
    if (inf.handlers.some((h) => h === c.name || h.startsWith(`${c.name}/`))) out.add(inf.id);
  for (const w of c.watches ?? []) if (informers.some((i) => i.id === w)) out.add(w);
  return [...out];
}

export function controllerLane(c: ControllerView, informers: readonly InformerView[]): ControllerLane {
  const errors = failedReconciles(c.reconciles);
  const handlerEvents = Object.values(c.handlers).reduce((s, h) => s + h.events, 0);
  const filtered = Object.values(c.handlers).reduce((s, h) => s + h.filtered, 0);
  const depth = queueCounts(c);
  const lane: ControllerLane = {
    name: c.name,
    phase: c.phase,
    sources: controllerSources(c, informers),
    addRate: c.addsPerSecond,
    dedupedAdds: c.dedupedAdds,
    handlerEvents,
    filtered,
    ready: depth.ready,
    waiting: depth.waiting,
    processing: depth.processing,
    workers: c.workers,
    activeWorkers: c.activeWorkers,
    reconcileRate: c.reconcilesPerSecond,
    totalReconciles: c.totalReconciles,
    errors,
    errorRatio: c.totalReconciles > 0 ? errors / c.totalReconciles : 0,
    hotLoops: c.hotLoops.length,
    tone:
      c.hotLoops.length > 0 || errors > 0
        ? c.hotLoops.length > 0
          ? 'err'
          : 'warn'
        : c.phase === 'started'
          ? 'ok'
          : 'info',
  };
  const p50 = histogramQuantile(c.histogram, 0.5);
  const p99 = histogramQuantile(c.histogram, 0.99);
  if (p50 !== undefined) lane.p50Ms = p50 * 1000;
  if (p99 !== undefined) lane.p99Ms = p99 * 1000;
  return lane;
}

export function buildPipeline(view: RuntimeView): Pipeline {
  const informers = sortedInformers(view);
  const controllers = sortedControllers(view);
  const windowMs = view.limits.rateWindowMs;
  const iLanes = informers.map((i) => informerLane(i, windowMs));
  const cLanes = controllers.map((c) => controllerLane(c, informers));
  return {
    informers: iLanes,
    controllers: cLanes,
    totals: {
      informers: iLanes.length,
      synced: iLanes.filter((i) => i.synced).length,
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
