// Ports client-go util/workqueue/queue.go (Typed[T]): a de-duplicating FIFO that never hands one key to two
// workers at once and runs a key added while it is processing again once it is done. Go blocks in Get on a
// condition variable; here get() returns a promise and a waiting getter is handed an item the moment one is
// queued, so there is never a ready item and an idle getter at the same time.
import type { EnqueueCause, QueueDepth } from '../../../shared/protocol/events-workqueue';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { FifoQueue, type Queue } from './fifo';
import type { GetResult, KeyOf, TypedInterface } from './interfaces';
import { defaultKeyOf } from './key-of';
import {
  DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS,
  NOOP_METRICS_PROVIDER,
  newQueueMetrics,
  UnfinishedWorkUpdater,
  type MetricsProvider,
  type QueueMetrics,
} from './metrics';
import { reportDone, takeProcessingStart } from './done-report';

export const UNKNOWN_CAUSE: EnqueueCause = Object.freeze({ type: 'unknown' });

export interface QueueOptions<T> {
  /** Names the queue in metrics and probe events; metrics are recorded only for a named queue. Default ''. */
  name?: string;
  /** Item identity; two items with the same key are the same work. Default String(item). */
  keyOf?: KeyOf<T>;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_METRICS_PROVIDER (records nothing). */
  metrics?: MetricsProvider;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Keep every add's cause for get() even while no probe listens. Default false. */
  trackCauses?: boolean;
  /** The ordered store (client-go's Queue). Default a FIFO. */
  queue?: Queue<T>;
  /** How often the unfinished-work gauges refresh. Default 500ms. */
  unfinishedWorkUpdatePeriodMs?: number;
}

/** The basic work queue (client-go Typed[T]). */
export class WorkQueue<T> implements TypedInterface<T> {
  readonly name: string;
  protected readonly keyOf: KeyOf<T>;
  protected readonly clock: Clock;
  protected readonly probe: Probe;
  protected readonly metrics: QueueMetrics;
  /** Read once: with the no-op provider the hot paths skip the metrics calls altogether. */
  protected readonly metricsEnabled: boolean;
  private readonly trackCausesAlways: boolean;
  private readonly queue: Queue<T>;
  /** The default store, when no custom Queue was given: it keeps each item's key beside it. */
  private readonly fifo: FifoQueue<T> | undefined;
  /** Only a custom Queue cares about touch(); the FIFO ignores it, so a duplicate add skips the call. */
  private readonly touches: boolean;
  /** Keys that need processing, with the item to hand out. */
  private readonly dirty = new Map<string, T>();
  /** Keys handed out and not yet done. */
  private readonly processing = new Set<string>();
  private readonly causes = new Map<string, EnqueueCause[]>();
  /** Probe-only timestamps: when a key became ready, when a worker took it. */
  private readonly readySince = new Map<string, number>();
  private readonly processingSince = new Map<string, number>();
  private readonly waiters: ((r: GetResult<T>) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shuttingDownFlag = false;
  private drain = false;
  private readonly unfinishedWork: UnfinishedWorkUpdater;

  constructor(opts: QueueOptions<T> = {}) {
    this.name = opts.name ?? '';
    this.keyOf = opts.keyOf ?? defaultKeyOf;
    this.clock = opts.clock ?? realClock;
    this.probe = opts.probe ?? NOOP_PROBE;
    this.trackCausesAlways = opts.trackCauses ?? false;
    this.fifo = opts.queue ? undefined : new FifoQueue<T>();
    this.queue = opts.queue ?? (this.fifo as FifoQueue<T>);
    this.touches = opts.queue !== undefined;
    this.metrics = newQueueMetrics({
      name: this.name,
      provider: opts.metrics ?? NOOP_METRICS_PROVIDER,
      clock: this.clock,
    });
    this.metricsEnabled = this.metrics.enabled;
    this.unfinishedWork = new UnfinishedWorkUpdater(
      this.metrics,
      this.clock,
      opts.unfinishedWorkUpdatePeriodMs ?? DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS,
    );
  }

  add(item: T, cause?: EnqueueCause): void {
    // The cause is only read when causes are tracked (a probe listening implies it); skip the array otherwise.
    this.enqueue(item, cause && this.trackingCauses() ? [cause] : undefined);
  }

  len(): number {
    return this.queue.len();
  }

  get(): Promise<GetResult<T>> {
    // A ready item needs no waiter: the caller gets an already-settled promise.
    if (this.queue.len() > 0) return Promise.resolve(this.take());
    if (this.shuttingDownFlag) return Promise.resolve({ shutdown: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(item: T): void {
    const key = this.keyOf(item);
    if (this.metricsEnabled) this.metrics.done(key);
    const wasProcessing = this.processing.delete(key);
    const startedAt = takeProcessingStart(this.processingSince, key);
    // Only a key that was processing can be dirty without being queued; pushing any other would queue it twice.
    const dirtyItem = wasProcessing ? this.dirty.get(key) : undefined;
    const requeued = dirtyItem !== undefined;
    if (requeued) {
      this.pushReady(key, dirtyItem);
    } else if (this.processing.size === 0 && this.drainWaiters.length > 0) {
      this.settleDrain();
    }
    if (this.probe.enabled) reportDone(this.probe, this.clock, this.name, key, startedAt, requeued, this.depth());
    if (requeued && this.waiters.length > 0) this.dispatch();
  }

  shutDown(): void {
    const first = !this.shuttingDownFlag || this.drain;
    this.drain = false;
    this.shuttingDownFlag = true;
    this.stopped();
    this.releaseWaiters();
    this.settleDrain(true);
    if (first && this.probe.enabled) this.probe.emit({ kind: 'queue.shutdown', queue: this.name, drain: false });
  }

  shutDownWithDrain(): Promise<void> {
    const first = !this.shuttingDownFlag;
    this.drain = true;
    this.shuttingDownFlag = true;
    this.stopped();
    this.releaseWaiters();
    if (first && this.probe.enabled) this.probe.emit({ kind: 'queue.shutdown', queue: this.name, drain: true });
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.shuttingDownFlag;
  }

  /** The three parts of the queue's depth, as probe events report them. */
  depth(): QueueDepth {
    return { ready: this.queue.len(), waiting: this.waitingCount(), processing: this.processing.size };
  }

  /** Items held back by a delay; the basic queue has none. */
  protected waitingCount(): number {
    return 0;
  }

  /** Hook for subclasses that own timers: called once the queue starts shutting down. */
  protected stopped(): void {
    this.unfinishedWork.stop();
  }

  protected trackingCauses(): boolean {
    return this.trackCausesAlways || this.probe.enabled;
  }

  /**
   * Adds item, absorbing every cause given. A matured delayed entry may carry several, already reported by
   * its queue.addAfter events; its queue.add event says so (matured) and names the first.
   */
  protected enqueue(item: T, causes: readonly EnqueueCause[] | undefined, matured = false): void {
    if (this.shuttingDownFlag) return;
    const key = this.keyOf(item);
    if (this.trackCausesAlways || this.probe.enabled) this.absorb(key, causes);
    if (this.dirty.has(key)) {
      // The common de-duplicated add: nothing changes unless a custom order wants to know, or a probe listens.
      if (this.touches || this.probe.enabled) {
        const isProcessing = this.processing.has(key);
        if (!isProcessing && this.touches) this.queue.touch(item);
        this.emitAdd(key, causes, false, isProcessing, matured);
      }
      return;
    }
    if (this.metricsEnabled) this.metrics.add(key);
    this.dirty.set(key, item);
    if (this.processing.has(key)) {
      this.emitAdd(key, causes, false, true, matured);
      return;
    }
    this.pushReady(key, item);
    this.emitAdd(key, causes, true, false, matured);
    if (this.waiters.length > 0) this.dispatch();
  }

  private absorb(key: string, causes: readonly EnqueueCause[] | undefined): void {
    let list = this.causes.get(key);
    if (!list) this.causes.set(key, (list = []));
    if (causes && causes.length > 0) list.push(...causes);
    else list.push(UNKNOWN_CAUSE);
  }

  private emitAdd(
    key: string,
    causes: readonly EnqueueCause[] | undefined,
    queued: boolean,
    dirtyWhileProcessing: boolean,
    matured: boolean,
  ): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'queue.add',
      queue: this.name,
      key,
      cause: causes?.[0] ?? UNKNOWN_CAUSE,
      queued,
      dirtyWhileProcessing,
      ...(matured ? { matured } : {}),
      depth: this.depth(),
    });
  }

  private pushReady(key: string, item: T): void {
    if (this.fifo) this.fifo.push(item, key);
    else this.queue.push(item);
    if (this.probe.enabled) this.readySince.set(key, this.clock.now());
  }

  /** Hands queued items to waiting getters, oldest getter first. */
  private dispatch(): void {
    while (this.waiters.length > 0 && this.queue.len() > 0) {
      const resolve = this.waiters.shift() as (r: GetResult<T>) => void;
      resolve(this.take());
    }
  }

  private take(): GetResult<T> {
    const item = this.queue.pop();
    // keyOf may build a string (a namespace/name key); the default FIFO already holds it.
    const key = this.fifo?.poppedKey ?? this.keyOf(item);
    if (this.metricsEnabled) this.metrics.get(key);
    this.processing.add(key);
    this.dirty.delete(key);
    // causes and readySince stay empty while nobody tracks causes or listens; skip the lookups then.
    let causes: EnqueueCause[] | undefined;
    if (this.causes.size > 0) {
      causes = this.causes.get(key);
      if (causes) this.causes.delete(key);
    }
    let readyAt: number | undefined;
    if (this.readySince.size > 0) {
      readyAt = this.readySince.get(key);
      this.readySince.delete(key);
    }
    if (this.probe.enabled) {
      const now = this.clock.now();
      this.processingSince.set(key, now);
      this.probe.emit({
        kind: 'queue.get',
        queue: this.name,
        key,
        waitMs: readyAt === undefined ? 0 : now - readyAt,
        depth: this.depth(),
      });
    }
    return { shutdown: false, item, causes: causes ?? [] };
  }

  private releaseWaiters(): void {
    const waiters = this.waiters.splice(0);
    for (const resolve of waiters) resolve({ shutdown: true });
  }

  private settleDrain(force = false): void {
    if (!force && this.processing.size !== 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** NewTyped: an unnamed basic queue. */
export function newTyped<T>(): WorkQueue<T> {
  return new WorkQueue<T>();
}

/** NewTypedWithConfig. */
export function newTypedWithConfig<T>(opts: QueueOptions<T>): WorkQueue<T> {
  return new WorkQueue<T>(opts);
}
