// The cache contracts (client-go tools/cache): Store, Indexer, event handlers, shared informers.
import type { KubeObject } from '../../../shared/models/object';

/** Maps an object (or a tombstone) to its key: "namespace/name" or "name". */
export type KeyFunc = (obj: unknown) => string;

/** cache.DeletedFinalStateUnknown: a delete the informer inferred (from a relist) without seeing it. */
export class DeletedFinalStateUnknown<T = KubeObject> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

/** cache.Store */
export interface Store<T = KubeObject> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  list(): T[];
  listKeys(): string[];
  get(obj: T): T | undefined;
  getByKey(key: string): T | undefined;
  /** Replaces the whole contents with list, as of resourceVersion. */
  replace(list: T[], resourceVersion: string): void;
  resync(): void;
}

export type IndexFunc<T = KubeObject> = (obj: T) => string[];
export type Indexers<T = KubeObject> = Record<string, IndexFunc<T>>;

/** cache.Indexer */
export interface Indexer<T = KubeObject> extends Store<T> {
  /** Objects sharing any indexed value with obj under indexName. */
  index(indexName: string, obj: T): T[];
  indexKeys(indexName: string, indexedValue: string): string[];
  listIndexFuncValues(indexName: string): string[];
  byIndex(indexName: string, indexedValue: string): T[];
  getIndexers(): Indexers<T>;
  /** Adds indexers, indexing existing items; throws if a name is already taken. */
  addIndexers(newIndexers: Indexers<T>): void;
}

/** cache.ResourceEventHandler */
export interface ResourceEventHandler<T = KubeObject> {
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

/** cache.ResourceEventHandlerRegistration */
export interface ResourceEventHandlerRegistration {
  /** true once the handler has been told about every item of the initial list. */
  hasSynced(): boolean;
}

export interface HandlerOptions {
  /** Per-handler resync period (ms); 0 disables. Clamped up to the informer's check period. */
  resyncPeriodMs?: number;
  /** A name for the UI ("controller pods / EnqueueRequestForObject"). */
  name?: string;
}

/** Called when a list or watch fails; the reflector goes on retrying regardless. */
export type WatchErrorHandler = (err: unknown) => void;

/** Applied to every object before it enters the store (e.g. dropping managedFields). */
export type TransformFunc<T = KubeObject> = (obj: T) => T;

/** cache.SharedIndexInformer */
export interface SharedIndexInformer<T = KubeObject> {
  addEventHandler(handler: ResourceEventHandler<T>, options?: HandlerOptions): ResourceEventHandlerRegistration;
  removeEventHandler(registration: ResourceEventHandlerRegistration): void;
  getStore(): Store<T>;
  getIndexer(): Indexer<T>;
  addIndexers(indexers: Indexers<T>): void;
  /** Runs until signal aborts; resolves when fully stopped. */
  run(signal: AbortSignal): Promise<void>;
  hasSynced(): boolean;
  lastSyncResourceVersion(): string;
  setWatchErrorHandler(handler: WatchErrorHandler): void;
  setTransform(transform: TransformFunc<T>): void;
  isStopped(): boolean;
}
