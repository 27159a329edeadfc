// Ports controller-runtime pkg/controller/priorityqueue/priorityqueue.go, the default controller queue since
// v0.23. Upstream buffers adds and hands items out from goroutines; being single-threaded, this port applies
// adds at once and gives an item to a waiting getter as soon as one is ready, so ordering is deterministic.
// Ready items the queue cannot hand out because their key is locked (being processed) are parked beside the
// ready heap and rejoin it, with their original order, when the key is done.
import type { EnqueueCause, QueueDepth } from '../../../shared/protocol/events-workqueue';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock, type TimerHandle } from '../util/clock';
import { Heap, type HeapEntry } from './heap';
import type {
  AddOpts,
  GetResult,
  KeyOf,
  PriorityGetResult,
  PriorityQueueInterface,
  TypedRateLimiter,
} from './interfaces';
import { defaultKeyOf } from './key-of';
import {
  DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS,
  NOOP_METRICS_PROVIDER,
  newQueueMetrics,
  UnfinishedWorkUpdater,
  type MetricsProvider,
  type QueueMetrics,
} from './metrics';
import { UNKNOWN_CAUSE } from './queue';
import { defaultPriorityQueueRateLimiter } from './rate-limiters';
import { reportDone, takeProcessingStart } from './done-report';

/** controller-runtime handler.LowPriority: initial-list creates and resync updates. */
export const LOW_PRIORITY = -100;

export interface PriorityQueueOptions<T> {
  /** Names the queue in metrics (depth labelled by priority) and probe events. Default ''. */
  name?: string;
  /** Item identity. Default String(item). */
  keyOf?: KeyOf<T>;
  /** Default: per-item exponential 5ms → 1000s, built with keyOf. */
  rateLimiter?: TypedRateLimiter<T>;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_METRICS_PROVIDER. */
  metrics?: MetricsProvider;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Keep causes for get() even while no probe listens. Default false. */
  trackCauses?: boolean;
  /** Default 500ms. */
  unfinishedWorkUpdatePeriodMs?: number;
}

interface Entry<T> extends HeapEntry {
  item: T;
  key: string;
  priority: number;
  /** FIFO order within a priority; refreshed when the priority rises or a delay ends. */
  counter: number;
  /** undefined = ready. */
  readyAt: number | undefined;
  /** Ready but its key is locked: waits outside the ready heap until done(). */
  parked: boolean;
  causes: EnqueueCause[];
  /** Probe-only: when it became ready. */
  readySince: number;
}

const lessReady = <T>(a: Entry<T>, b: Entry<T>): boolean =>
  a.priority !== b.priority ? a.priority > b.priority : a.counter < b.counter;

const lessWaiting = <T>(a: Entry<T>, b: Entry<T>): boolean =>
  a.readyAt !== b.readyAt ? (a.readyAt as number) < (b.readyAt as number) : lessReady(a, b);

/** Handed the taken entry, or undefined when the queue shuts down. */
type Waiter<T> = (entry: Entry<T> | undefined) => void;
const SHUTDOWN: PriorityGetResult<never> = Object.freeze({ shutdown: true, priority: 0 });

const priorityResult = <T>(e: Entry<T>): PriorityGetResult<T> => ({
  shutdown: false,
  item: e.item,
  priority: e.priority,
  causes: e.causes,
});
const basicResult = <T>(e: Entry<T>): GetResult<T> => ({ shutdown: false, item: e.item, causes: e.causes });

export class PriorityQueue<T> implements PriorityQueueInterface<T> {
  readonly name: string;
  readonly rateLimiter: TypedRateLimiter<T>;
  private readonly keyOf: KeyOf<T>;
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly metrics: QueueMetrics;
  /** Read once: with the no-op provider the hot paths skip the metrics calls altogether. */
  private readonly metricsEnabled: boolean;
  private readonly trackCausesAlways: boolean;
  /** Entries not handed out yet, by key: ready (in the heap or parked) or waiting. */
  private readonly items = new Map<string, Entry<T>>();
  private readonly ready = new Heap<Entry<T>>(lessReady);
  private readonly waiting = new Heap<Entry<T>>(lessWaiting);
  private parkedCount = 0;
  /** Keys handed out and not yet done. */
  private readonly locked = new Set<string>();
  private readonly processingSince = new Map<string, number>();
  private readonly waiters: Waiter<T>[] = [];
  private addedCounter = 0;
  private shutdownFlag = false;
  private timer?: TimerHandle;
  private timerAt = Infinity;
  private readonly unfinishedWork: UnfinishedWorkUpdater;

  constructor(opts: PriorityQueueOptions<T> = {}) {
    this.name = opts.name ?? '';
    this.keyOf = opts.keyOf ?? defaultKeyOf;
    this.clock = opts.clock ?? realClock;
    this.probe = opts.probe ?? NOOP_PROBE;
    this.trackCausesAlways = opts.trackCauses ?? false;
    this.rateLimiter = opts.rateLimiter ?? defaultPriorityQueueRateLimiter<T>({ keyOf: this.keyOf });
    this.metrics = newQueueMetrics({
      name: this.name,
      provider: opts.metrics ?? NOOP_METRICS_PROVIDER,
      clock: this.clock,
      withPriority: true,
    });
    this.metricsEnabled = this.metrics.enabled;
    this.unfinishedWork = new UnfinishedWorkUpdater(
      this.metrics,
      this.clock,
      opts.unfinishedWorkUpdatePeriodMs ?? DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS,
    );
  }

  addWithOpts(opts: AddOpts, ...items: T[]): void {
    if (this.shutdownFlag || items.length === 0) return;
    const priority = opts.priority ?? 0;
    const after = opts.after ?? 0;
    const ratelimited = opts.ratelimited === true;
    for (const item of items) this.addOne(item, priority, after, ratelimited, opts.cause);
    this.settleAdds();
  }

  // The single-item adds skip building an AddOpts and a rest array: they are the controller's hot path.
  add(item: T, cause?: EnqueueCause): void {
    if (this.shutdownFlag) return;
    if (this.addOne(item, 0, 0, false, cause)) this.settleAdds();
  }

  addAfter(item: T, delayMs: number, cause?: EnqueueCause): void {
    if (this.shutdownFlag) return;
    this.addOne(item, 0, delayMs, false, cause);
    this.settleAdds();
  }

  addRateLimited(item: T, cause?: EnqueueCause): void {
    if (this.shutdownFlag) return;
    this.addOne(item, 0, 0, true, cause);
    this.settleAdds();
  }

  get(): Promise<GetResult<T>> {
    if (this.shutdownFlag) return Promise.resolve({ shutdown: true });
    // A ready item needs no waiter: the caller gets an already-settled promise.
    if (this.ready.size > 0) return Promise.resolve(basicResult(this.take()));
    return new Promise((resolve) => this.waiters.push((e) => resolve(e ? basicResult(e) : { shutdown: true })));
  }

  getWithPriority(): Promise<PriorityGetResult<T>> {
    // Unlike client-go, a shut-down priority queue hands out nothing more, even if items remain.
    if (this.shutdownFlag) return Promise.resolve(SHUTDOWN);
    if (this.ready.size > 0) return Promise.resolve(priorityResult(this.take()));
    return new Promise((resolve) => this.waiters.push((e) => resolve(e ? priorityResult(e) : SHUTDOWN)));
  }

  done(item: T): void {
    const key = this.keyOf(item);
    this.locked.delete(key);
    if (this.metricsEnabled) this.metrics.done(key);
    const startedAt = takeProcessingStart(this.processingSince, key);
    // Only a parked entry runs again at done(); with none parked there is nothing to look up.
    const parked = this.parkedCount > 0 ? this.items.get(key) : undefined;
    const requeued = parked?.parked === true;
    if (parked && requeued) {
      parked.parked = false;
      this.parkedCount--;
      this.ready.push(parked);
    }
    if (this.probe.enabled) reportDone(this.probe, this.clock, this.name, key, startedAt, requeued, this.depth());
    if (requeued && this.waiters.length > 0) this.dispatch();
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
    if (this.probe.enabled) this.probe.emit({ kind: 'queue.forget', queue: this.name, key: this.keyOf(item) });
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /** Ready items, including those whose key is being processed; waiting ones are not counted. */
  len(): number {
    return this.ready.size + this.parkedCount;
  }

  shutDown(): void {
    if (this.shutdownFlag) return;
    this.shutdownFlag = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
    this.unfinishedWork.stop();
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    if (this.probe.enabled) this.probe.emit({ kind: 'queue.shutdown', queue: this.name, drain: false });
  }

  /** Upstream does not drain: this is shutDown(). */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    return Promise.resolve();
  }

  shuttingDown(): boolean {
    return this.shutdownFlag;
  }

  depth(): QueueDepth {
    return { ready: this.len(), waiting: this.waiting.size, processing: this.locked.size };
  }

  /** After a batch of adds: hand ready items to waiting getters and keep the timer on the earliest delay. */
  private settleAdds(): void {
    if (this.waiters.length > 0) this.dispatch();
    this.armTimer();
  }

  /** Returns false when the add changed no order or time (a plain duplicate of a ready entry). */
  private addOne(
    item: T,
    priority: number,
    after: number,
    ratelimited: boolean,
    givenCause: EnqueueCause | undefined,
  ): boolean {
    const key = this.keyOf(item);
    let requeues: number | undefined;
    if (ratelimited) {
      const limited = this.rateLimiter.when(item);
      if (after === 0 || limited < after) after = limited;
      if (this.probe.enabled) requeues = this.rateLimiter.numRequeues(item);
    }
    let entry = this.items.get(key);
    if (entry !== undefined && after <= 0 && entry.readyAt === undefined && priority <= entry.priority) {
      // The de-duplicated add of a ready entry that raises nothing (the common case): only causes grow.
      const cause = givenCause ?? UNKNOWN_CAUSE;
      if (this.trackCausesAlways || this.probe.enabled) entry.causes.push(cause);
      if (this.probe.enabled) this.emitAdd(entry, cause, after, undefined, requeues, false, false);
      return false;
    }
    // The clock is read only when this add can change a time: a delay, a new entry, or a waiting one. A
    // duplicate add of a ready entry (the common de-duplicated case) needs none.
    const now = after > 0 || entry === undefined || entry.readyAt !== undefined ? this.clock.now() : 0;
    let readyAt: number | undefined;
    if (after > 0) {
      readyAt = now + after;
      // Only real delays count as retries here, unlike client-go's addAfter.
      if (this.metricsEnabled) this.metrics.retry();
    }
    const tracking = this.trackCausesAlways || this.probe.enabled;
    const cause = givenCause ?? UNKNOWN_CAUSE;

    // An undelayed add ends a pending delay here (one entry per key), unlike client-go's delaying queue.
    const delayCancelled = readyAt === undefined && entry !== undefined && entry.readyAt !== undefined;
    let queued: boolean;
    if (!entry) {
      entry = {
        item,
        key,
        priority,
        counter: this.addedCounter++,
        readyAt,
        parked: false,
        causes: [],
        readySince: now,
        heapIndex: -1,
      };
      this.items.set(key, entry);
      if (readyAt !== undefined) this.waiting.push(entry);
      else this.becomeReady(entry, now);
      queued = true;
    } else {
      queued = this.merge(entry, readyAt, priority, now);
    }
    if (tracking) entry.causes.push(cause);
    if (this.probe.enabled) {
      this.emitAdd(entry, cause, after, readyAt, requeues, queued && !this.locked.has(key), delayCancelled);
    }
    return true;
  }

  /** Folds a duplicate add into entry: the higher priority and the earlier ready time win. */
  private merge(entry: Entry<T>, readyAt: number | undefined, priority: number, now: number): boolean {
    const wasReady = entry.readyAt === undefined;
    const newReadyAt = wasReady || readyAt === undefined ? undefined : Math.min(entry.readyAt as number, readyAt);
    const raised = priority > entry.priority;
    if (raised) {
      if (wasReady && this.metricsEnabled) this.metrics.updateDepthWithPriority(entry.priority, priority);
      entry.priority = priority;
      // A raised priority joins the end of its new class.
      entry.counter = this.addedCounter++;
    }
    if (wasReady) {
      // Only a raised priority (which also renewed the counter) moves a ready entry in the heap.
      if (raised && !entry.parked) this.ready.fix(entry);
      return false;
    }
    if (newReadyAt === undefined) {
      this.waiting.remove(entry);
      entry.readyAt = undefined;
      this.becomeReady(entry, now);
      return true;
    }
    entry.readyAt = newReadyAt;
    this.waiting.fix(entry);
    return false;
  }

  private becomeReady(entry: Entry<T>, now: number): void {
    if (this.metricsEnabled) this.metrics.add(entry.key, entry.priority);
    entry.readySince = now;
    if (this.locked.has(entry.key)) {
      entry.parked = true;
      this.parkedCount++;
    } else {
      this.ready.push(entry);
    }
  }

  private emitAdd(
    entry: Entry<T>,
    cause: EnqueueCause,
    after: number,
    readyAt: number | undefined,
    requeues: number | undefined,
    queued: boolean,
    delayCancelled: boolean,
  ): void {
    if (readyAt !== undefined) {
      this.probe.emit({
        kind: 'queue.addAfter',
        queue: this.name,
        key: entry.key,
        cause,
        delayMs: after,
        readyAt: entry.readyAt ?? entry.readySince,
        ...(requeues === undefined ? {} : { requeues }),
        depth: this.depth(),
      });
      return;
    }
    this.probe.emit({
      kind: 'queue.add',
      queue: this.name,
      key: entry.key,
      cause,
      queued,
      dirtyWhileProcessing: this.locked.has(entry.key),
      priority: entry.priority,
      ...(delayCancelled ? { delayCancelled } : {}),
      depth: this.depth(),
    });
  }

  private emitMatured(entry: Entry<T>): void {
    const locked = this.locked.has(entry.key);
    this.probe.emit({
      kind: 'queue.add',
      queue: this.name,
      key: entry.key,
      cause: entry.causes[0] ?? UNKNOWN_CAUSE,
      queued: !locked,
      dirtyWhileProcessing: locked,
      priority: entry.priority,
      matured: true,
      depth: this.depth(),
    });
  }

  private dispatch(): void {
    while (this.waiters.length > 0 && this.ready.size > 0) {
      const resolve = this.waiters.shift() as Waiter<T>;
      resolve(this.take());
    }
  }

  /** Moves the first ready entry to processing; the caller shapes the result. */
  private take(): Entry<T> {
    const entry = this.ready.pop() as Entry<T>;
    this.items.delete(entry.key);
    this.locked.add(entry.key);
    if (this.metricsEnabled) this.metrics.get(entry.key, entry.priority);
    if (this.probe.enabled) {
      const now = this.clock.now();
      this.processingSince.set(entry.key, now);
      this.probe.emit({
        kind: 'queue.get',
        queue: this.name,
        key: entry.key,
        waitMs: now - entry.readySince,
        depth: this.depth(),
      });
    }
    return entry;
  }

  /** One timer, armed for the earliest waiting entry. */
  private armTimer(): void {
    const next = this.waiting.peek();
    const at = next ? (next.readyAt as number) : Infinity;
    if (at === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = at;
    if (next) this.timer = this.clock.setTimer(() => this.fire(), at - this.clock.now());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.shutdownFlag) return;
    const now = this.clock.now();
    for (let next = this.waiting.peek(); next && (next.readyAt as number) <= now; next = this.waiting.peek()) {
      this.waiting.pop();
      next.readyAt = undefined;
      // Ordered by when it became ready, not when it was added.
      next.counter = this.addedCounter++;
      this.becomeReady(next, now);
      if (this.probe.enabled) this.emitMatured(next);
    }
    this.dispatch();
    this.armTimer();
  }
}

/** priorityqueue.New. */
export function newPriorityQueue<T>(opts: PriorityQueueOptions<T>): PriorityQueue<T> {
  return new PriorityQueue<T>(opts);
}
