// Ports client-go tools/cache/shared_informer.go: sharedIndexInformer (indexer + controller + a
// processor fanning out to many handlers, each with its own resync period and sync tracking).
import type { KubeObject } from '../../../shared/models/object';
import type { InformerId } from '../../../shared/protocol/ids';
import { withDecodeHint, type ListerWatcher } from '../client/lister-watcher';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { pickReflectorTuning, type ReflectorTuning } from './reflector-options';
import { Controller, processAtomicEvent, processDeltas } from './controller';
import { DeltaFIFO, type Deltas } from './delta-fifo';
import type { Queue } from './fifo';
import { newIndexer } from './indexer';
import type {
  DeletedFinalStateUnknown,
  HandlerOptions,
  Indexers,
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
  SharedIndexInformer,
  TransformFunc,
  WatchErrorHandler,
} from './interfaces';
import { deletionHandlingMetaNamespaceKeyFunc, metaOf } from './keys';
import {
  ProcessorListener,
  SharedProcessor,
  addNotification,
  deleteNotification,
  determineResyncPeriod,
  updateNotification,
} from './processor-listener';
import { RealFIFO } from './real-fifo';
import { decodeHintFor } from './transforms';
import { runtimeDefaults } from '../upstream';
import type { ReflectorState } from '../../../shared/protocol/events-cache';
import type { CacheStore } from './store';

/** minimumResyncPeriod: handler resync periods are raised to at least this. */
export const MINIMUM_RESYNC_PERIOD_MS = 1000;

export type FifoKind = 'DeltaFIFO' | 'RealFIFO';

/** Reflector tuning (ReflectorTuning) is handed to the reflector unchanged. */
export interface SharedIndexInformerOptions<T extends KubeObject> extends ReflectorTuning {
  listerWatcher: ListerWatcher<T>;
  /** gvk string, e.g. "v1/Pod" or "apps/v1/Deployment": the informer id and the expected event type. Default "". */
  objectType?: string;
  /** Default resync period for handlers and the informer's check period (ms); 0 = no resync. Default 0. */
  resyncPeriodMs?: number;
  /** Default {} (controller-runtime callers add { namespace: metaNamespaceIndexFunc }). */
  indexers?: Indexers<T>;
  /** Queue between reflector and indexer. Default 'RealFIFO' (client-go's InOrderInformers), see runtimeDefaults. */
  fifo?: FifoKind;
  /**
   * With RealFIFO: relists and resyncs reach the indexer in one step each (client-go's AtomicFIFO gate).
   * Default runtimeDefaults().atomicFIFO.
   */
  atomicFIFO?: boolean;
  /** Applied once to each object before it is stored. Default none. */
  transform?: TransformFunc<T>;
  /** Default none (the probe still reports errors). */
  watchErrorHandler?: WatchErrorHandler;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Names the informer in probe events. Default objectType. */
  informerId?: InformerId;
  /** Default Math.random (backoff jitter, watch timeouts). */
  random?: () => number;
}

export class SharedIndexInformerImpl<T extends KubeObject = KubeObject> implements SharedIndexInformer<T> {
  readonly id: InformerId;
  readonly fifoKind: FifoKind;
  /** Whether the RealFIFO runs in atomic mode (always false with DeltaFIFO). */
  readonly atomicFIFO: boolean;
  private readonly options: SharedIndexInformerOptions<T>;
  private readonly indexer: CacheStore<T>;
  private readonly processor: SharedProcessor<T>;
  private readonly clock: Clock;
  private readonly probe: Probe;
  private controller: Controller<T> | undefined;
  private resyncCheckPeriod: number;
  private readonly defaultEventHandlerResyncPeriod: number;
  private transform: TransformFunc<T> | undefined;
  private watchErrorHandler: WatchErrorHandler | undefined;
  private started = false;
  private stopped = false;
  private startTime = 0;
  private handlerSeq = 0;

  constructor(options: SharedIndexInformerOptions<T>) {
    this.options = options;
    this.id = options.informerId ?? options.objectType ?? '';
    this.fifoKind = options.fifo ?? (runtimeDefaults().inOrderInformers ? 'RealFIFO' : 'DeltaFIFO');
    // newQueueFIFO: the gate only applies to RealFIFO.
    this.atomicFIFO = this.fifoKind === 'RealFIFO' && (options.atomicFIFO ?? runtimeDefaults().atomicFIFO);
    this.clock = options.clock ?? realClock;
    this.probe = options.probe ?? NOOP_PROBE;
    this.indexer = newIndexer<T>(deletionHandlingMetaNamespaceKeyFunc, options.indexers ?? {}, {
      probe: this.probe,
      informer: this.id,
      gvk: options.objectType ?? '',
    });
    this.processor = new SharedProcessor<T>(this.clock);
    this.resyncCheckPeriod = options.resyncPeriodMs ?? 0;
    this.defaultEventHandlerResyncPeriod = options.resyncPeriodMs ?? 0;
    this.transform = options.transform;
    this.watchErrorHandler = options.watchErrorHandler;
  }

  /** The informer's resync check period (ms), possibly lowered by handlers added before run. */
  get resyncCheckPeriodMs(): number {
    return this.resyncCheckPeriod;
  }

  /** The reflector's state, for the UI ("idle" before run). */
  get reflectorState(): ReflectorState {
    return this.controller?.reflector.state ?? (this.stopped ? 'stopped' : 'idle');
  }

  get handlerCount(): number {
    return this.processor.listenerCount;
  }

  /**
   * Registers handler. Before run it receives the initial list through normal processing; after run
   * it is first told about every stored object as an add with isInInitialList=true.
   */
  addEventHandler(handler: ResourceEventHandler<T>, options: HandlerOptions = {}): ProcessorListener<T> {
    const name = options.name ?? `handler-${++this.handlerSeq}`;
    if (this.stopped) {
      throw new Error(`handler ${name} was not added to shared informer because it has stopped already`);
    }
    let period = options.resyncPeriodMs ?? this.defaultEventHandlerResyncPeriod;
    if (period > 0) {
      period = Math.max(period, MINIMUM_RESYNC_PERIOD_MS);
      if (period < this.resyncCheckPeriod) {
        if (this.started) {
          period = this.resyncCheckPeriod;
        } else {
          this.resyncCheckPeriod = period;
          this.processor.resyncCheckPeriodChanged(period);
        }
      }
    }
    const listener = new ProcessorListener<T>({
      handler,
      name,
      requestedResyncPeriodMs: period,
      resyncPeriodMs: determineResyncPeriod(period, this.resyncCheckPeriod),
      upstreamHasSynced: () => this.hasSynced(),
      clock: this.clock,
      probe: this.probe,
      informer: this.id,
      gvk: this.options.objectType ?? '',
    });
    this.processor.addListener(listener);
    if (this.started) {
      // No delta is processed while this runs (single thread), so the replay is a consistent snapshot.
      listener.addInitialList(this.indexer.list());
    }
    this.lifecycle('handlerAdded', name);
    return listener;
  }

  /** Idempotent; a registration from another informer is ignored; something that is no registration throws. */
  removeEventHandler(registration: ResourceEventHandlerRegistration): void {
    if (!(registration instanceof ProcessorListener)) {
      throw new Error(`invalid key type ${typeof registration}: not a handler registration of a shared informer`);
    }
    if (this.processor.removeListener(registration)) this.lifecycle('handlerRemoved', registration.name);
  }

  getStore(): CacheStore<T> {
    return this.indexer;
  }

  getIndexer(): CacheStore<T> {
    return this.indexer;
  }

  getController(): Controller<T> | undefined {
    return this.controller;
  }

  addIndexers(indexers: Indexers<T>): void {
    if (this.stopped) throw new Error('indexer was not added because it has stopped already');
    this.indexer.addIndexers(indexers);
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    if (this.started) throw new Error('informer has already started');
    this.watchErrorHandler = handler;
  }

  setTransform(transform: TransformFunc<T>): void {
    if (this.started) throw new Error('informer has already started');
    this.transform = transform;
  }

  hasSynced(): boolean {
    return this.controller?.hasSynced() ?? false;
  }

  lastSyncResourceVersion(): string {
    return this.controller?.lastSyncResourceVersion() ?? '';
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Runs until signal aborts; a second call (or a call after stop) returns at once. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    this.startTime = this.clock.now();
    const o = this.options;
    const common = {
      knownObjects: this.indexer,
      onSynced: () => this.onSynced(),
      probe: this.probe,
      informer: this.id,
      gvk: o.objectType ?? '',
      clock: this.clock,
      ...(this.transform ? { transformer: this.transform } : {}),
    };
    const { knownObjects, ...rest } = common;
    const queue: Queue<Deltas<T>, T> = this.fifoKind === 'DeltaFIFO'
      ? new DeltaFIFO<T>({ ...common, emitDeltaTypeReplaced: true })
      : this.atomicFIFO
        ? new RealFIFO<T>({
            ...rest,
            atomicEvents: true,
            processAtomic: (event, isInInitialList) =>
              processAtomicEvent(this.asHandler, this.indexer, event, isInInitialList),
          })
        : new RealFIFO<T>({ knownObjects, ...rest });
    this.controller = new Controller<T>({
      queue,
      listerWatcher: withDecodeHint(o.listerWatcher, decodeHintFor(this.transform)),
      process: (deltas, isInInitialList) => processDeltas(this.asHandler, this.indexer, deltas, isInInitialList),
      ...(o.objectType ? { objectType: o.objectType } : {}),
      informer: this.id,
      fullResyncPeriodMs: this.resyncCheckPeriod,
      shouldResync: () => this.processor.shouldResync(),
      watchErrorHandler: (err) => this.watchErrorHandler?.(err),
      ...pickReflectorTuning(o),
      ...(o.random ? { random: o.random } : {}),
      clock: this.clock,
      probe: this.probe,
    });
    this.processor.run();
    this.lifecycle('started');
    try {
      await this.controller.run(signal);
    } finally {
      this.stopped = true;
      this.processor.stop();
      this.lifecycle('stopped');
    }
  }

  /** The informer is the controller's handler: it fans out to the listeners. */
  private readonly asHandler: ResourceEventHandler<T> = {
    onAdd: (obj, isInInitialList) => this.processor.distribute(addNotification(obj, isInInitialList), false),
    onUpdate: (oldObj, newObj) => {
      // Same resourceVersion = nothing changed: only listeners due a resync hear about it.
      const oldMeta = metaOf(oldObj);
      const newMeta = metaOf(newObj);
      const isSync =
        oldMeta !== undefined && newMeta !== undefined && oldMeta.resourceVersion === newMeta.resourceVersion;
      this.processor.distribute(updateNotification(oldObj, newObj, isSync), isSync);
    },
    onDelete: (obj: T | DeletedFinalStateUnknown<T>) => this.processor.distribute(deleteNotification(obj), false),
  };

  private onSynced(): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'informer.synced',
      informer: this.id,
      items: this.indexer.size,
      durationMs: this.clock.now() - this.startTime,
    });
  }

  private lifecycle(phase: 'started' | 'stopped' | 'handlerAdded' | 'handlerRemoved', handler?: string): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'informer.lifecycle',
      informer: this.id,
      phase,
      ...(handler !== undefined ? { handler } : {}),
      fifo: this.fifoKind,
    });
  }
}

/** cache.NewSharedIndexInformer */
export function newSharedIndexInformer<T extends KubeObject = KubeObject>(
  options: SharedIndexInformerOptions<T>,
): SharedIndexInformerImpl<T> {
  return new SharedIndexInformerImpl<T>(options);
}

/**
 * cache.WaitForCacheSync: checks now and then every 100ms until every function reports true (true),
 * or signal aborts (false).
 */
export async function waitForCacheSync(
  signal: AbortSignal,
  clock: Clock,
  ...hasSynced: (() => boolean)[]
): Promise<boolean> {
  for (;;) {
    if (hasSynced.every((f) => f())) return true;
    try {
      await clock.sleep(100, signal);
    } catch {
      return false;
    }
  }
}

/**
 * cache.ShutDownEventHandler: removes the handler, then resolves once it has stopped processing events
 * (at once when its informer never ran). Upstream deadlocks when called from the handler's own callback;
 * here the promise then resolves after that callback returns.
 */
export async function shutDownEventHandler<T extends KubeObject>(
  informer: Pick<SharedIndexInformer<T>, 'removeEventHandler'>,
  registration: ResourceEventHandlerRegistration,
): Promise<void> {
  informer.removeEventHandler(registration);
  const r = registration as Partial<Pick<ProcessorListener<T>, 'whenShutDown'>>;
  if (typeof r.whenShutDown !== 'function') throw new Error('handle does not support ShutdownChan()');
  await r.whenShutDown.call(registration);
}
