// Ports processorListener and sharedProcessor from client-go tools/cache/shared_informer.go: each
// handler gets its own unbounded buffer and is called sequentially, never blocking the distributor.
import type { KubeObject } from '../../../shared/models/object';
import type { InformerId } from '../../../shared/protocol/ids';
import type { Probe } from '../instrumentation/probe';
import type { Clock, TimerHandle } from '../util/clock';
import type { DeletedFinalStateUnknown, ResourceEventHandler, ResourceEventHandlerRegistration } from './interfaces';
import { objectRef } from './object-ref';
import { SingleFileTracker } from './synctrack';
import { handleCrash } from '../util/runtime';
import { BURST } from '../util/yield';

export type Notification<T> =
  | { type: 'add'; obj: T; isInInitialList: boolean }
  | { type: 'update'; oldObj: T; newObj: T; resync: boolean }
  | { type: 'delete'; obj: T | DeletedFinalStateUnknown<T> };

/**
 * Every notification the informer hands its listeners carries the same fields in the same order, whatever its type,
 * so V8 gives them all one hidden class and the listener's reads of them (the buffer, delivery, the drain loop, the
 * probe report) see one shape. With a shape per type they saw three, and code optimised while the initial list's
 * adds went through could be thrown away at the first update for the "wrong map" and optimised again.
 */
function notification<T>(
  type: Notification<T>['type'],
  obj: T | DeletedFinalStateUnknown<T> | undefined,
  oldObj: T | undefined,
  newObj: T | undefined,
  isInInitialList: boolean,
  resync: boolean,
): Notification<T> {
  return { type, obj, oldObj, newObj, isInInitialList, resync } as Notification<T>;
}

export const addNotification = <T>(obj: T, isInInitialList: boolean): Notification<T> =>
  notification<T>('add', obj, undefined, undefined, isInInitialList, false);

export const updateNotification = <T>(oldObj: T, newObj: T, resync: boolean): Notification<T> =>
  notification<T>('update', undefined, oldObj, newObj, false, resync);

export const deleteNotification = <T>(obj: T | DeletedFinalStateUnknown<T>): Notification<T> =>
  notification<T>('delete', obj, undefined, undefined, false, false);

/**
 * The objects a handler added to a running informer is replayed as initial-list adds, held as one buffer entry and
 * delivered one at a time: 100,000 cached objects would otherwise be 100,000 notification objects per handler, all
 * alive at once until the handler caught up (ten handlers added after a sync held a million).
 */
interface InitialList<T> {
  type: 'initialList';
  objs: (T | undefined)[];
  next: number;
}

const SETTLED = Promise.resolve();

/** How long delivery pauses after a handler threw with ReallyCrash off (wait.Until restarts after 1s). */
export const HANDLER_PANIC_PAUSE_MS = 1000;

export interface ProcessorListenerOptions<T> {
  handler: ResourceEventHandler<T>;
  name: string;
  /** What the caller asked for (ms), after the informer's adjustments. */
  requestedResyncPeriodMs: number;
  /** What is applied (0 when the informer does no resyncs). */
  resyncPeriodMs: number;
  /** The informer's HasSynced. */
  upstreamHasSynced: () => boolean;
  clock: Clock;
  probe: Probe;
  informer: InformerId;
  gvk: string;
}

export class ProcessorListener<T = KubeObject> implements ResourceEventHandlerRegistration {
  readonly name: string;
  readonly requestedResyncPeriodMs: number;
  private resyncPeriod: number;
  private nextResync = 0;
  private readonly handler: ResourceEventHandler<T>;
  private readonly tracker: SingleFileTracker;
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly informer: InformerId;
  private readonly gvk: string;
  private buffer: (Notification<T> | InitialList<T>)[] = [];
  private head = 0;
  /** Notifications not yet delivered (an initial list counts each of its objects). */
  private count = 0;
  private running = false;
  private stopped = false;
  private scheduled = false;
  private pause: TimerHandle | undefined;
  private idleWaiters: (() => void)[] = [];
  private delivering = false;
  private runFinished = false;
  private shutdownWaiters: (() => void)[] = [];

  constructor(options: ProcessorListenerOptions<T>) {
    this.handler = options.handler;
    this.name = options.name;
    this.requestedResyncPeriodMs = options.requestedResyncPeriodMs;
    this.resyncPeriod = options.resyncPeriodMs;
    this.tracker = new SingleFileTracker(options.upstreamHasSynced);
    this.clock = options.clock;
    this.probe = options.probe;
    this.informer = options.informer;
    this.gvk = options.gvk;
    this.determineNextResync(options.clock.now());
  }

  get resyncPeriodMs(): number {
    return this.resyncPeriod;
  }

  /** Notifications buffered, not yet delivered. */
  get pending(): number {
    return this.count;
  }

  hasSynced(): boolean {
    return this.tracker.hasSynced();
  }

  add(n: Notification<T>): void {
    if (this.stopped) return;
    if (n.type === 'add' && n.isInInitialList) this.tracker.start();
    this.buffer.push(n);
    this.count++;
    this.schedule();
  }

  /**
   * One initial-list add per object, in order, as add() of each would queue them; the listener takes the array
   * over (it drops each object as it is delivered).
   */
  addInitialList(objs: T[]): void {
    if (this.stopped || objs.length === 0) return;
    for (let i = 0; i < objs.length; i++) this.tracker.start();
    this.buffer.push({ type: 'initialList', objs, next: 0 });
    this.count += objs.length;
    this.schedule();
  }

  run(): void {
    this.running = true;
    this.schedule();
  }

  /** Stops delivery; notifications still buffered are dropped. */
  stop(): void {
    this.stopped = true;
    this.pause?.cancel();
    this.buffer = [];
    this.head = 0;
    this.count = 0;
    this.settle();
    // A stop from inside this listener's own callback finishes once that callback has returned.
    if (!this.delivering) this.finishRun();
  }

  /**
   * processorListener.ShutdownChan: resolves once the listener has stopped (removed, or its informer
   * stopped) and no callback of its handler is running any more.
   */
  whenShutDown(): Promise<void> {
    if (this.runFinished) return Promise.resolve();
    return new Promise((r) => this.shutdownWaiters.push(r));
  }

  /** Resolves once the buffer is empty (or the listener stopped). For shutdown and tests. */
  whenIdle(): Promise<void> {
    if (this.stopped || this.pending === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  shouldResync(now: number): boolean {
    return this.resyncPeriod !== 0 && now >= this.nextResync;
  }

  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriod;
  }

  setResyncPeriod(ms: number): void {
    this.resyncPeriod = ms;
  }

  /** One closure for every scheduled drain, rather than a new one per notification batch. */
  private readonly drainSoon = (): void => this.drain();

  private schedule(): void {
    if (!this.running || this.stopped || this.scheduled || this.pause) return;
    this.scheduled = true;
    // A reaction on a settled promise rather than queueMicrotask: Node's queueMicrotask wraps every callback
    // in an AsyncResource (an async id, a bound function, before/after/destroy hooks), and a watch that
    // delivers events one by one schedules a drain for nearly every event. drain catches what handlers throw,
    // so the reaction's promise never rejects.
    void SETTLED.then(this.drainSoon);
  }

  private drain(): void {
    this.scheduled = false;
    let burst = 0;
    while (!this.stopped && this.pending > 0) {
      // After a burst the rest of the buffer waits for a later turn of the event loop (see util/yield).
      if (burst++ === BURST) {
        this.scheduled = true;
        setImmediate(this.drainSoon);
        return;
      }
      const n = this.takeHead();
      this.count--;
      this.delivering = true;
      try {
        this.deliver(n);
      } catch (err) {
        this.delivering = false;
        if (this.stopped) this.finishRun();
        // Upstream's HandleCrash ends the process. With ReallyCrash off, the notification is lost and
        // delivery resumes after a pause, as wait.Until restarts the goroutine. (A throw on an
        // initial-list add then means this handler never reports synced, as upstream.)
        if (handleCrash(err) || this.stopped) return;
        this.pause = this.clock.setTimer(() => {
          this.pause = undefined;
          this.schedule();
        }, HANDLER_PANIC_PAUSE_MS);
        return;
      }
      this.delivering = false;
      if (n.type === 'add' && n.isInInitialList) this.tracker.finished();
    }
    this.settle();
    if (this.stopped) this.finishRun();
  }

  /** Removes the next notification from the buffer (before it is delivered: a handler that throws loses it). */
  private takeHead(): Notification<T> {
    const entry = this.buffer[this.head] as Notification<T> | InitialList<T>;
    let n: Notification<T>;
    if (entry.type === 'initialList') {
      n = addNotification(entry.objs[entry.next] as T, true);
      entry.objs[entry.next++] = undefined;
      if (entry.next < entry.objs.length) return n;
    } else n = entry;
    this.buffer[this.head++] = undefined as unknown as Notification<T>;
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
    return n;
  }

  private finishRun(): void {
    if (this.runFinished) return;
    this.runFinished = true;
    const ws = this.shutdownWaiters;
    this.shutdownWaiters = [];
    for (const w of ws) w();
  }

  private settle(): void {
    if (this.pending > 0 && !this.stopped) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }

  private deliver(n: Notification<T>): void {
    if (this.probe.enabled) this.report(n);
    switch (n.type) {
      case 'add':
        this.handler.onAdd?.(n.obj, n.isInInitialList);
        break;
      case 'update':
        this.handler.onUpdate?.(n.oldObj, n.newObj);
        break;
      case 'delete':
        this.handler.onDelete?.(n.obj);
        break;
    }
  }

  // Each event is written out as one literal: `{ ...base, type, ref }` would give every event a hidden class of
  // its own in V8 (a spread followed by new keys), about 300 bytes more per event held in the recorder's ring.
  private report(n: Notification<T>): void {
    const { informer, name: handler } = this;
    if (n.type === 'add') {
      const ref = objectRef(n.obj, this.gvk);
      this.probe.emit({ kind: 'informer.notify', informer, handler, type: 'add', ref, initialList: n.isInInitialList });
    } else if (n.type === 'update') {
      const ref = objectRef(n.newObj, this.gvk);
      this.probe.emit({ kind: 'informer.notify', informer, handler, type: 'update', ref, resync: n.resync });
    } else {
      this.probe.emit({ kind: 'informer.notify', informer, handler, type: 'delete', ref: objectRef(n.obj, this.gvk) });
    }
  }
}

/** cache.sharedProcessor: fans notifications out; resync notifications only to listeners due one. */
export class SharedProcessor<T = KubeObject> {
  /** Each listener and whether it is due the resync being distributed. */
  private listeners = new Map<ProcessorListener<T>, boolean>();
  /** The same listeners in order, walked for every notification without an iterator or entry pairs. */
  private ordered: ProcessorListener<T>[] = [];
  private started = false;

  constructor(private readonly clock: Clock) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  has(l: ProcessorListener<T>): boolean {
    return this.listeners.has(l);
  }

  list(): ProcessorListener<T>[] {
    return [...this.listeners.keys()];
  }

  addListener(l: ProcessorListener<T>): void {
    if (!this.listeners.has(l)) this.ordered = [...this.ordered, l];
    this.listeners.set(l, true);
    if (this.started) l.run();
  }

  removeListener(l: ProcessorListener<T>): boolean {
    if (!this.listeners.delete(l)) return false;
    this.ordered = this.ordered.filter((x) => x !== l);
    l.stop();
    return true;
  }

  distribute(n: Notification<T>, sync: boolean): void {
    // A new array on every add or remove, so a change made while this walks one cannot disturb it.
    const ordered = this.ordered;
    for (let i = 0; i < ordered.length; i++) {
      const l = ordered[i] as ProcessorListener<T>;
      if (!sync || this.listeners.get(l) === true) l.add(n);
    }
  }

  run(): void {
    this.started = true;
    for (const l of this.listeners.keys()) l.run();
  }

  stop(): void {
    for (const l of this.listeners.keys()) l.stop();
  }

  /** Marks which listeners are due a resync now; true when any is. */
  shouldResync(): boolean {
    const now = this.clock.now();
    let any = false;
    for (const l of this.listeners.keys()) {
      const due = l.shouldResync(now);
      this.listeners.set(l, due);
      if (due) {
        any = true;
        l.determineNextResync(now);
      }
    }
    return any;
  }

  resyncCheckPeriodChanged(checkPeriodMs: number): void {
    for (const l of this.listeners.keys())
      l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriodMs, checkPeriodMs));
  }
}

/** The period a listener actually gets, given what it asked for and the informer's check period. */
export function determineResyncPeriod(desiredMs: number, checkMs: number): number {
  if (desiredMs === 0 || checkMs === 0) return 0;
  return desiredMs < checkMs ? checkMs : desiredMs;
}
