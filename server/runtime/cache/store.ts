// Ports client-go tools/cache/store.go: the `cache` type (a Store/Indexer over a ThreadSafeStore keyed
// by a KeyFunc), NewStore, and the Transaction error type.
import type { KubeObject } from '../../../shared/models/object';
import type { InformerId } from '../../../shared/protocol/ids';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import type { DeletedFinalStateUnknown, Indexer, Indexers, KeyFunc, TransformFunc } from './interfaces';
import { KeyError, metaNamespaceKeyFunc } from './keys';
import { objectRef } from './object-ref';
import { ThreadSafeStore, type StoreTransaction } from './thread-safe-store';
import { errorMessage } from '../util/errors';

export interface CacheStoreOptions<T> {
  /** Default metaNamespaceKeyFunc. Informers use deletionHandlingMetaNamespaceKeyFunc. */
  keyFunc?: KeyFunc;
  /** Default none. */
  indexers?: Indexers<T>;
  /** Applied to objects on add/update/replace (store.WithTransformer). Default none. */
  transformer?: TransformFunc<T>;
  /** Default NOOP_PROBE. Emits indexer.update / indexer.replace. */
  probe?: Probe;
  /** Names the owning informer in probe events. Default "". */
  informer?: InformerId;
  /** gvk string used in probe refs when an object carries no apiVersion/kind. Default "". */
  gvk?: string;
}

/** A write of Store.transaction(): the object is keyed by the store's key function. */
export interface Transaction<T> {
  type: 'add' | 'update' | 'delete';
  object: T;
}

/** cache.TransactionError */
export class TransactionError extends Error {
  override readonly name = 'TransactionError';
  constructor(
    readonly successfulIndices: number[],
    readonly totalTransactions: number,
    readonly errors: unknown[],
  ) {
    super(
      `failed to execute (${totalTransactions - successfulIndices.length}/${totalTransactions}) transactions failed due to: ` +
        errors.map((e) => errorMessage(e)).join(', '),
    );
  }
}

/** The Store and Indexer implementation. Readers must treat returned objects as immutable. */
export class CacheStore<T = KubeObject> implements Indexer<T> {
  private readonly store: ThreadSafeStore<T>;
  private readonly keyFunc: KeyFunc;
  private readonly transformer: TransformFunc<T> | undefined;
  private readonly probe: Probe;
  private readonly informer: InformerId;
  private readonly gvk: string;

  constructor(options: CacheStoreOptions<T> = {}) {
    this.keyFunc = options.keyFunc ?? metaNamespaceKeyFunc;
    this.store = new ThreadSafeStore<T>(options.indexers ?? {});
    this.transformer = options.transformer;
    this.probe = options.probe ?? NOOP_PROBE;
    this.informer = options.informer ?? '';
    this.gvk = options.gvk ?? '';
  }

  /** Number of objects held (for probes and the UI). */
  get size(): number {
    return this.store.size;
  }

  add(obj: T): void {
    this.write(obj);
  }

  update(obj: T): void {
    this.write(obj);
  }

  /**
   * add or update obj, returning what was stored under its key before (undefined: it was an add). One key
   * computation and one lookup where get then update take two of each.
   */
  upsert(obj: T): T | undefined {
    return this.write(obj);
  }

  /** Deletes by obj's key; a DeletedFinalStateUnknown works when the key function handles it. */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    const existed = this.probe.enabled && this.store.get(key) !== undefined;
    this.store.deleteWithObject(key, obj as T);
    if (this.probe.enabled && existed) {
      this.probe.emit({
        kind: 'indexer.update',
        informer: this.informer,
        op: 'delete',
        key,
        ref: objectRef(obj, this.gvk, key),
        size: this.store.size,
      });
    }
  }

  list(): T[] {
    return this.store.list();
  }

  listKeys(): string[] {
    return this.store.listKeys();
  }

  get(obj: T): T | undefined {
    return this.store.get(this.keyOf(obj));
  }

  getByKey(key: string): T | undefined {
    return this.store.get(key);
  }

  /** Replaces everything; a key error aborts before the store is touched. */
  replace(list: T[], resourceVersion: string): void {
    const items = new Map<string, T>();
    for (const obj of list) {
      const key = this.keyOf(obj);
      items.set(key, this.transform(obj));
    }
    this.store.replace(items, resourceVersion);
    if (this.probe.enabled)
      this.probe.emit({ kind: 'indexer.replace', informer: this.informer, size: this.store.size });
  }

  resync(): void {}

  index(indexName: string, obj: T): T[] {
    return this.store.index(indexName, obj);
  }

  indexKeys(indexName: string, indexedValue: string): string[] {
    return this.store.indexKeys(indexName, indexedValue);
  }

  listIndexFuncValues(indexName: string): string[] {
    return this.store.listIndexFuncValues(indexName);
  }

  byIndex(indexName: string, indexedValue: string): T[] {
    return this.store.byIndex(indexName, indexedValue);
  }

  getIndexers(): Indexers<T> {
    return this.store.getIndexers();
  }

  addIndexers(newIndexers: Indexers<T>): void {
    this.store.addIndexers(newIndexers);
  }

  bookmark(resourceVersion: string): void {
    this.store.bookmark(resourceVersion);
  }

  lastStoreSyncResourceVersion(): string {
    return this.store.lastStoreSyncResourceVersion();
  }

  /** Applies writes in order; writes whose key cannot be computed are skipped and reported. */
  transaction(txns: Transaction<T>[]): void {
    const ok: StoreTransaction<T>[] = [];
    const successfulIndices: number[] = [];
    const errors: unknown[] = [];
    txns.forEach((t, i) => {
      try {
        const key = this.keyOf(t.object);
        ok.push({ type: t.type, key, obj: t.type === 'delete' ? t.object : this.transform(t.object) });
        successfulIndices.push(i);
      } catch (err) {
        errors.push(err);
      }
    });
    this.store.transaction(ok);
    if (errors.length > 0) throw new TransactionError(successfulIndices, txns.length, errors);
  }

  private write(obj: T): T | undefined {
    const key = this.keyOf(obj);
    const stored = this.transform(obj);
    const old = this.store.update(key, stored);
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'indexer.update',
        informer: this.informer,
        op: old !== undefined ? 'update' : 'add',
        key,
        ref: objectRef(stored, this.gvk, key),
        size: this.store.size,
      });
    }
    return old;
  }

  private keyOf(obj: unknown): string {
    try {
      return this.keyFunc(obj);
    } catch (err) {
      throw err instanceof KeyError ? err : new KeyError(obj, err);
    }
  }

  private transform(obj: T): T {
    if (!this.transformer) return obj;
    try {
      return this.transformer(obj);
    } catch (err) {
      throw new Error(`transforming: ${errorMessage(err)}`, { cause: err });
    }
  }
}

/** cache.NewStore */
export function newStore<T = KubeObject>(
  keyFunc: KeyFunc,
  options: Omit<CacheStoreOptions<T>, 'keyFunc'> = {},
): CacheStore<T> {
  return new CacheStore<T>({ ...options, keyFunc, indexers: {} });
}
