// Ports client-go tools/cache/thread_safe_store.go. JavaScript runs one task at a time, so the
// "thread safety" is free; what remains is the items map plus incrementally maintained indices.
import type { IndexFunc, Indexers } from './interfaces';
import { metaOf } from './keys';

/** One write of a Transaction. */
export interface StoreTransaction<T> {
  type: 'add' | 'update' | 'delete';
  key: string;
  obj: T;
}

/** indexName → indexedValue → keys */
type Indices = Map<string, Map<string, Set<string>>>;

export class ThreadSafeStore<T> {
  private items = new Map<string, T>();
  private indexers: Indexers<T>;
  /** The indexers as a list, read on every write (Object.entries would build a new one each time). */
  private indexerList: [string, IndexFunc<T>][];
  private indices: Indices = new Map();
  private rv = '';

  constructor(indexers: Indexers<T> = {}) {
    this.indexers = { ...indexers };
    this.indexerList = Object.entries(this.indexers);
  }

  get size(): number {
    return this.items.size;
  }

  add(key: string, obj: T): void {
    this.update(key, obj);
  }

  /** Stores obj under key; returns what was stored there before. */
  update(key: string, obj: T): T | undefined {
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.updateIndices(old, obj, key);
    this.noteRv(obj);
    return old;
  }

  delete(key: string): void {
    this.deleteWithObject(key, undefined);
  }

  /** Deletes key; obj (the object the caller deleted) only contributes its resourceVersion. */
  deleteWithObject(key: string, obj: T | undefined): void {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.updateIndices(old, undefined, key);
      this.items.delete(key);
    }
    if (obj !== undefined) this.noteRv(obj);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  replace(items: Map<string, T>, resourceVersion: string): void {
    this.items = new Map(items);
    this.indices = new Map();
    for (const [key, obj] of this.items) this.updateIndices(undefined, obj, key);
    this.rv = resourceVersion;
  }

  /** Objects sharing any of obj's indexed values under indexName. */
  index(indexName: string, obj: T): T[] {
    const fn = this.indexFunc(indexName);
    const values = fn(obj);
    const index = this.indices.get(indexName);
    const keys = new Set<string>();
    for (const v of values) for (const k of index?.get(v) ?? []) keys.add(k);
    return this.objectsFor(keys);
  }

  byIndex(indexName: string, indexedValue: string): T[] {
    this.indexFunc(indexName);
    return this.objectsFor(this.indices.get(indexName)?.get(indexedValue) ?? new Set());
  }

  /** Keys with indexedValue under indexName, sorted. */
  indexKeys(indexName: string, indexedValue: string): string[] {
    this.indexFunc(indexName);
    return [...(this.indices.get(indexName)?.get(indexedValue) ?? [])].sort();
  }

  /** Unknown index → empty list (no error), as upstream. */
  listIndexFuncValues(indexName: string): string[] {
    return [...(this.indices.get(indexName)?.keys() ?? [])];
  }

  getIndexers(): Indexers<T> {
    return { ...this.indexers };
  }

  addIndexers(newIndexers: Indexers<T>): void {
    const conflicts = Object.keys(newIndexers).filter((n) => n in this.indexers);
    if (conflicts.length > 0) throw new Error(`indexer conflict: ${conflicts.join(', ')}`);
    for (const [name, fn] of Object.entries(newIndexers)) {
      this.indexers[name] = fn;
      this.indexerList.push([name, fn]);
      for (const [key, obj] of this.items) this.updateIndex(name, fn, undefined, obj, key);
    }
  }

  resync(): void {}

  bookmark(resourceVersion: string): void {
    this.rv = resourceVersion;
  }

  /** The resourceVersion of the most recent write (no max(): out-of-order writes move it back). */
  lastStoreSyncResourceVersion(): string {
    return this.rv;
  }

  transaction(txns: StoreTransaction<T>[]): void {
    for (const t of txns) {
      if (t.type === 'delete') this.deleteWithObject(t.key, t.obj);
      else this.update(t.key, t.obj);
    }
  }

  private noteRv(obj: T): void {
    const meta = metaOf(obj);
    if (meta) this.rv = meta.resourceVersion ?? '';
  }

  private indexFunc(indexName: string): IndexFunc<T> {
    const fn = this.indexers[indexName];
    if (!fn) throw new Error(`Index with name ${indexName} does not exist`);
    return fn;
  }

  private objectsFor(keys: Set<string>): T[] {
    const out: T[] = [];
    for (const k of keys) {
      const o = this.items.get(k);
      if (o !== undefined) out.push(o);
    }
    return out;
  }

  private updateIndices(oldObj: T | undefined, newObj: T | undefined, key: string): void {
    const list = this.indexerList;
    for (let i = 0; i < list.length; i++) {
      const [name, fn] = list[i] as [string, IndexFunc<T>];
      this.updateIndex(name, fn, oldObj, newObj, key);
    }
  }

  private updateIndex(name: string, fn: IndexFunc<T>, oldObj: T | undefined, newObj: T | undefined, key: string): void {
    // An index function that throws is a programming error; let it propagate as upstream panics.
    const oldValues = oldObj === undefined ? [] : fn(oldObj);
    const newValues = newObj === undefined ? [] : fn(newObj);
    if (oldValues.length === 1 && newValues.length === 1 && oldValues[0] === newValues[0]) return;
    let index = this.indices.get(name);
    if (!index) {
      index = new Map();
      this.indices.set(name, index);
    }
    for (const v of oldValues) {
      const set = index.get(v);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) index.delete(v);
    }
    for (const v of newValues) {
      let set = index.get(v);
      if (!set) {
        set = new Set();
        index.set(v, set);
      }
      set.add(key);
    }
  }
}
