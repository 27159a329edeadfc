// Ports client-go tools/cache/controller.go: the low-level controller (a Reflector feeding a queue
// and a loop popping it), processDeltas, the filtering handler and the NewIndexerInformer helper.
import type { KubeObject } from '../../../shared/models/object';
import type { ListerWatcher } from '../client/lister-watcher';
import type { Probe } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { BURST, yieldToEventLoop } from '../util/yield';
import { pickReflectorTuning, type ReflectorTuning } from './reflector-options';
import { DeltaFIFO, type Deltas } from './delta-fifo';
import { FIFOClosedError, type PopProcessFunc, type Queue } from './fifo';
import {
  DeletedFinalStateUnknown,
  type Indexers,
  type ResourceEventHandler,
  type TransformFunc,
  type WatchErrorHandler,
} from './interfaces';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import { RealFIFO, type AtomicEvent } from './real-fifo';
import { Reflector } from './reflector';
import { newIndexer } from './indexer';
import type { CacheStore } from './store';

export interface ControllerConfig<T extends KubeObject> extends ReflectorTuning {
  queue: Queue<Deltas<T>, T>;
  listerWatcher: ListerWatcher<T>;
  /** Runs on each popped item, before the next pop. */
  process: PopProcessFunc<Deltas<T>>;
  /** gvk string ("v1/Pod"): names the reflector and filters watch events. Default "". */
  objectType?: string;
  /** Reflector resync period (ms); 0 = never. Default 0. */
  fullResyncPeriodMs?: number;
  shouldResync?: () => boolean;
  watchErrorHandler?: WatchErrorHandler;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Names the informer in probe events. Default objectType. */
  informer?: string;
  random?: () => number;
}

/** cache.Controller (the low-level one). */
export class Controller<T extends KubeObject = KubeObject> {
  readonly reflector: Reflector<T>;
  private readonly config: ControllerConfig<T>;
  private running = false;

  constructor(config: ControllerConfig<T>) {
    this.config = config;
    this.reflector = new Reflector<T>({
      listerWatcher: config.listerWatcher,
      store: config.queue,
      name: config.objectType || 'controller',
      expectedGVK: config.objectType || undefined,
      informer: config.informer ?? config.objectType ?? '',
      // Handed on as given: the Reflector alone defaults what is absent.
      resyncPeriodMs: config.fullResyncPeriodMs,
      shouldResync: config.shouldResync,
      watchErrorHandler: config.watchErrorHandler,
      ...pickReflectorTuning(config),
      clock: config.clock,
      probe: config.probe,
      random: config.random,
    });
  }

  /** Runs the reflector and the pop loop until signal aborts; resolves once both have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.running) return;
    this.running = true;
    const onAbort = (): void => this.config.queue.close();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const reflectorDone = this.reflector.run(signal);
    await this.processLoop(signal);
    await reflectorDone;
  }

  hasSynced(): boolean {
    return this.config.queue.hasSynced();
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  private async processLoop(signal: AbortSignal): Promise<void> {
    const { queue, process } = this.config;
    let burst = 0;
    // Checked before each pop, as upstream: once stopped, queued items are left unprocessed.
    while (!signal.aborted) {
      try {
        // A backlog is worked through without a promise per item; after a batch the loop gives the event
        // loop a turn (yieldToEventLoop), so handlers' deliveries, the watch's next chunk and timers run
        // between batches. Counted before the pop, so items whose processing throws count too.
        if (queue.popReady) {
          if (burst >= BURST) {
            burst = 0;
            await yieldToEventLoop();
            continue;
          }
          burst++;
          if (queue.popReady(process) !== undefined) continue;
        }
        burst = 0;
        await queue.pop(process);
      } catch (err) {
        if (err instanceof FIFOClosedError) return;
        // Other processing errors are dropped, as upstream (RetryOnError is gone).
      }
    }
  }
}

/** What processDeltas writes to: a store whose delete accepts tombstones. */
export interface DeltaStore<T> {
  get(obj: T): T | undefined;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T | DeletedFinalStateUnknown<T>): void;
  /** get then add-or-update in one step, returning what get would have (the indexer has it). */
  upsert?(obj: T): T | undefined;
}

/**
 * cache.processDeltas: applies each delta to the store, then tells the handler. Sync/Replaced/Added/
 * Updated become an update when the key is already known, else an add.
 */
export function processDeltas<T>(
  handler: ResourceEventHandler<T>,
  store: DeltaStore<T>,
  deltas: Deltas<T>,
  isInInitialList: boolean,
): void {
  for (const d of deltas) {
    const obj = d.object;
    if (d.type === 'Deleted') {
      store.delete(obj);
      handler.onDelete?.(obj);
      continue;
    }
    const live = obj as T;
    let old: T | undefined;
    if (store.upsert) {
      old = store.upsert(live);
    } else {
      old = store.get(live);
      if (old !== undefined) store.update(live);
      else store.add(live);
    }
    if (old !== undefined) handler.onUpdate?.(old, live);
    else handler.onAdd?.(live, isInInitialList);
  }
}

/** What an atomic entry reads and replaces: the informer's indexer. */
export interface AtomicDeltaStore<T> extends DeltaStore<T> {
  list(): T[];
  listKeys(): string[];
  getByKey(key: string): T | undefined;
  replace(list: T[], resourceVersion: string): void;
}

/**
 * The ReplacedAll and SyncAll cases of client-go's processDeltas (processReplacedAllInfo): a relist
 * replaces the store in one step, then the handler hears the deletions (stored keys missing from the
 * list, as tombstones), then an update or add per listed object in list order. A resync is an update
 * with the same object for everything stored.
 */
export function processAtomicEvent<T>(
  handler: ResourceEventHandler<T>,
  store: AtomicDeltaStore<T>,
  event: AtomicEvent<T>,
  isInInitialList: boolean,
  keyFunc: (obj: T) => string = deletionHandlingMetaNamespaceKeyFunc,
): void {
  if (event.type === 'SyncAll') {
    for (const obj of store.list()) handler.onUpdate?.(obj, obj);
    return;
  }
  const listed = new Set(event.objects.map((o) => keyFunc(o)));
  const deletions: DeletedFinalStateUnknown<T>[] = [];
  for (const key of store.listKeys()) {
    if (!listed.has(key)) deletions.push(new DeletedFinalStateUnknown(key, store.getByKey(key) as T));
  }
  const replacements = event.objects.map((obj) => ({ obj, old: store.get(obj) }));
  store.replace(event.objects, event.resourceVersion);
  for (const d of deletions) handler.onDelete?.(d);
  for (const r of replacements) {
    if (r.old !== undefined) handler.onUpdate?.(r.old, r.obj);
    else handler.onAdd?.(r.obj, isInInitialList);
  }
}

/** cache.FilteringResourceEventHandler: an update crossing the filter becomes an add or a delete. */
export function filteringResourceEventHandler<T>(
  filter: (obj: T | DeletedFinalStateUnknown<T>) => boolean,
  handler: ResourceEventHandler<T>,
): ResourceEventHandler<T> {
  return {
    onAdd: (obj, initial) => {
      if (filter(obj)) handler.onAdd?.(obj, initial);
    },
    onUpdate: (oldObj, newObj) => {
      const was = filter(oldObj);
      const is = filter(newObj);
      if (was && is) handler.onUpdate?.(oldObj, newObj);
      else if (is) handler.onAdd?.(newObj, false);
      else if (was) handler.onDelete?.(oldObj);
    },
    onDelete: (obj) => {
      if (filter(obj)) handler.onDelete?.(obj);
    },
  };
}

export interface IndexerInformerOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  handler: ResourceEventHandler<T>;
  objectType?: string;
  resyncPeriodMs?: number;
  indexers?: Indexers<T>;
  /** Default 'RealFIFO', like current client-go. */
  fifo?: 'DeltaFIFO' | 'RealFIFO';
  transform?: TransformFunc<T>;
  clock?: Clock;
  probe?: Probe;
}

/** cache.NewIndexerInformer: an indexer (read it only) and a controller that keeps it in sync. */
export function newIndexerInformer<T extends KubeObject>(
  options: IndexerInformerOptions<T>,
): { indexer: CacheStore<T>; controller: Controller<T> } {
  const indexer = newIndexer<T>(deletionHandlingMetaNamespaceKeyFunc, options.indexers ?? {});
  const clock = options.clock ?? realClock;
  const common = { knownObjects: indexer, clock, ...(options.transform ? { transformer: options.transform } : {}) };
  const queue: Queue<Deltas<T>, T> = options.fifo === 'DeltaFIFO'
    ? new DeltaFIFO<T>({ ...common, emitDeltaTypeReplaced: true })
    : new RealFIFO<T>(common);
  const controller = new Controller<T>({
    queue,
    listerWatcher: options.listerWatcher,
    process: (deltas, initial) => processDeltas(options.handler, indexer, deltas, initial),
    ...(options.objectType ? { objectType: options.objectType } : {}),
    fullResyncPeriodMs: options.resyncPeriodMs,
    clock,
    probe: options.probe,
  });
  return { indexer, controller };
}
