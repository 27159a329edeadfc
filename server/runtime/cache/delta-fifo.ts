// Ports client-go tools/cache/delta_fifo.go, keeping the classic (v0.32) surface: List/ListKeys/Get/
// GetByKey, AddIfNotPresent and ErrRequeue, which the classic tests exercise.
import type { KubeObject } from '../../../shared/models/object';
import type { DeltaType } from '../../../shared/protocol/events-cache';
import { ErrFIFOClosed, ErrRequeue, KeyQueue, type PopProcessFunc, type Queue } from './fifo';
import { FifoCommon, type FifoCommonOptions } from './fifo-common';
import { DeletedFinalStateUnknown } from './interfaces';
import { KeyError } from './keys';
import type { KeyListerGetter } from './reflector-store';

export type { DeltaType } from '../../../shared/protocol/events-cache';

/** cache.Delta: one change; the object is the state after it (or a tombstone for inferred deletes). */
export interface Delta<T = KubeObject> {
  type: DeltaType;
  object: T | DeletedFinalStateUnknown<T>;
}

/** cache.Deltas: oldest first. */
export type Deltas<T = KubeObject> = Delta<T>[];

export const oldest = <T>(d: Deltas<T>): Delta<T> | undefined => d[0];
export const newest = <T>(d: Deltas<T>): Delta<T> | undefined => d[d.length - 1];

export class ZeroLengthDeltasError extends Error {
  override readonly name = 'ZeroLengthDeltasError';
  constructor() {
    super("0 length Deltas object; can't get key");
  }
}
/** cache.ErrZeroLengthDeltasObject */
export const ErrZeroLengthDeltasObject = new ZeroLengthDeltasError();

/** The shared options (key function, transformer, onSynced, probe, clock...) are in FifoCommonOptions. */
export interface DeltaFIFOOptions<T> extends FifoCommonOptions<T> {
  /** What the consumer already knows (normally the informer's indexer). Default none. */
  knownObjects?: KeyListerGetter<T>;
  /** Replace emits Replaced instead of Sync. Default false; informers set true. */
  emitDeltaTypeReplaced?: boolean;
  /** Default "DeltaFIFO". */
  name?: string;
}

export class DeltaFIFO<T = KubeObject> extends FifoCommon<T> implements Queue<Deltas<T>, T> {
  readonly name: string;
  private items = new Map<string, Deltas<T>>();
  private queue = new KeyQueue();
  private readonly knownObjects: KeyListerGetter<T> | undefined;
  private readonly emitDeltaTypeReplaced: boolean;

  constructor(options: DeltaFIFOOptions<T> = {}) {
    super(options);
    this.name = options.name ?? 'DeltaFIFO';
    this.knownObjects = options.knownObjects;
    this.emitDeltaTypeReplaced = options.emitDeltaTypeReplaced ?? false;
  }

  /** Key of an object, a tombstone, or a Deltas list (its newest object). */
  keyOf(obj: unknown): string {
    let o = obj;
    if (Array.isArray(o)) {
      const d = newest(o as Deltas<T>);
      if (!d) throw new KeyError(obj, ErrZeroLengthDeltasObject);
      o = d.object;
    }
    return this.objectKey(o);
  }

  /** Queues a Deleted delta unless the key is unknown everywhere (already deleted by a relist). */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    this.markPopulated();
    if (!this.items.has(key)) {
      if (!this.knownObjects) return;
      if (this.knownObjects.getByKey(key) === undefined) return;
    }
    this.queueAction('Deleted', obj);
  }

  /** Classic API: re-inserts a popped Deltas list unless its key is queued again meanwhile. */
  addIfNotPresent(deltas: unknown): void {
    if (!Array.isArray(deltas)) throw new Error(`object must be of type deltas, but got: ${String(deltas)}`);
    const key = this.keyOf(deltas);
    this.populated = true;
    if (this.items.has(key)) return;
    this.queue.push(key);
    this.items.set(key, [...(deltas as Deltas<T>)]);
    this.waiters.broadcast();
  }

  /** Newest object of each queued key (classic read API). */
  list(): (T | DeletedFinalStateUnknown<T>)[] {
    const out: (T | DeletedFinalStateUnknown<T>)[] = [];
    for (const d of this.items.values()) {
      const n = newest(d);
      if (n) out.push(n.object);
    }
    return out;
  }

  /** Keys in queue order. */
  listKeys(): string[] {
    return this.queue.toArray();
  }

  /** A copy of the deltas queued for obj's key. */
  get(obj: unknown): Deltas<T> | undefined {
    return this.getByKey(this.keyOf(obj));
  }

  getByKey(key: string): Deltas<T> | undefined {
    const d = this.items.get(key);
    return d ? [...d] : undefined;
  }

  /**
   * Queues Replaced (or Sync) for every listed object, then tombstones for keys that are queued or
   * known but absent from list. Returns how many deletions were inferred.
   */
  replace(list: T[], _resourceVersion: string): number {
    const action: DeltaType = this.emitDeltaTypeReplaced ? 'Replaced' : 'Sync';
    const keys = new Set<string>();
    for (const obj of list) {
      keys.add(this.keyOf(obj));
      // Listed objects are new to the queue, so they go through the transformer even as Sync deltas
      // (upstream queues them as Sync transformed as Replaced); only a resync's Sync carries cached objects.
      this.queueAction(action, obj, 'Replaced');
    }
    let queuedDeletions = 0;
    for (const [k, deltas] of [...this.items]) {
      if (keys.has(k)) continue;
      let deleted: unknown = newest(deltas)?.object;
      if (deleted instanceof DeletedFinalStateUnknown) deleted = deleted.obj;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(k, deleted as T));
    }
    if (this.knownObjects) {
      for (const k of this.knownObjects.listKeys()) {
        if (keys.has(k) || this.items.has(k)) continue;
        // A vanished key still gets a tombstone, with no last state.
        const known = this.knownObjects.getByKey(k);
        queuedDeletions++;
        this.queueAction('Deleted', new DeletedFinalStateUnknown(k, known as T));
      }
    }
    this.markInitialPopulation(keys.size + queuedDeletions);
    return queuedDeletions;
  }

  /** Queues Sync for known objects whose keys have nothing queued. Returns how many were queued. */
  resync(): number {
    if (!this.knownObjects) return 0;
    return this.queueSyncForIdleKeys(this.knownObjects, (k) => this.items.has(k));
  }

  /**
   * Waits for a key, removes it with all its deltas and runs process on them before anything else
   * can touch the queue. ErrRequeue puts them back at the end (unless the key was queued again).
   */
  async pop(process: PopProcessFunc<Deltas<T>>): Promise<Deltas<T>> {
    for (;;) {
      while (this.queue.length === 0) {
        if (this.closed) throw ErrFIFOClosed;
        await this.waiters.wait();
      }
      const popped = this.popReady(process);
      if (popped) return popped;
    }
  }

  popReady(process: PopProcessFunc<Deltas<T>>): Deltas<T> | undefined {
    while (this.queue.length > 0) {
      const isInInitialList = !this.hasSynced();
      const key = this.queue.shift() as string;
      const deltas = this.items.get(key);
      if (!deltas) {
        this.initialItemDone();
        this.checkSynced();
        continue;
      }
      this.items.delete(key);
      const start = this.probe.enabled ? this.clock.now() : 0;
      let requeued = false;
      let failure: unknown;
      let failed = false;
      try {
        process(deltas, isInInitialList);
      } catch (err) {
        if (err instanceof ErrRequeue) {
          requeued = true;
          this.addIfNotPresent(deltas);
          if (err.err !== undefined) [failed, failure] = [true, err.err];
        } else {
          [failed, failure] = [true, err];
        }
      }
      this.initialItemDone();
      if (this.probe.enabled) this.reportPop(key, deltas, this.queue.length, start, requeued, failed, failure);
      if (failed) throw failure;
      return deltas;
    }
    return undefined;
  }

  protected override queueAction(
    type: DeltaType,
    obj: T | DeletedFinalStateUnknown<T>,
    transformAs: DeltaType = type,
  ): void {
    const key = this.keyOf(obj);
    const stored = this.transformIncoming(transformAs, obj);
    const existing = this.items.get(key);
    const deltas = dedupDeltas([...(existing ?? []), { type, object: stored }]);
    if (!existing) this.queue.push(key);
    this.items.set(key, deltas);
    this.waiters.broadcast();
    if (this.probe.enabled) this.reportDelta(type, key, stored, deltas.length, this.queue.length);
  }
}

/** The only de-duplication: two trailing Deleted collapse, preferring the one that is not a tombstone. */
export function dedupDeltas<T>(deltas: Deltas<T>): Deltas<T> {
  const n = deltas.length;
  if (n < 2) return deltas;
  const a = deltas[n - 2] as Delta<T>;
  const b = deltas[n - 1] as Delta<T>;
  if (a.type !== 'Deleted' || b.type !== 'Deleted') return deltas;
  const keep = a.object instanceof DeletedFinalStateUnknown ? b : a;
  return [...deltas.slice(0, n - 2), keep];
}
