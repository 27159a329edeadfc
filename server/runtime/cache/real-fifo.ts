// Ports client-go tools/cache/the_real_fifo.go in its non-atomic mode: one ordered list of deltas,
// no grouping, no compaction; every change is delivered, in arrival order, one per pop.
import type { KubeObject } from '../../../shared/models/object';
import type { DeltaType } from '../../../shared/protocol/events-cache';
import type { Delta, Deltas } from './delta-fifo';
import { ErrFIFOClosed, type PopProcessFunc, type Queue } from './fifo';
import { FifoCommon, type FifoCommonOptions } from './fifo-common';
import { DeletedFinalStateUnknown } from './interfaces';
import type { KeyListerGetter } from './reflector-store';

/** The shared options (key function, transformer, onSynced, probe, clock...) are in FifoCommonOptions. */
export interface RealFIFOOptions<T> extends FifoCommonOptions<T> {
  /** Required: what the consumer already knows (normally the informer's indexer). */
  knownObjects: KeyListerGetter<T>;
}

interface Entry<T> {
  key: string;
  delta: Delta<T>;
}

export class RealFIFO<T = KubeObject> extends FifoCommon<T> implements Queue<Deltas<T>, T> {
  private entries: Entry<T>[] = [];
  private head = 0;
  /** key → number of queued entries, so "is anything queued for k" is O(1). */
  private queuedPerKey = new Map<string, number>();
  private readonly knownObjects: KeyListerGetter<T>;

  constructor(options: RealFIFOOptions<T>) {
    if (!options.knownObjects) throw new Error('RealFIFO requires knownObjects');
    super(options);
    this.knownObjects = options.knownObjects;
  }

  get length(): number {
    return this.entries.length - this.head;
  }

  keyOf(obj: unknown): string {
    let o = obj;
    if (Array.isArray(o)) o = (o as Deltas<T>)[o.length - 1]?.object;
    return this.objectKey(o);
  }

  /** Never dropped, even for a key nobody knows. */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    this.markPopulated();
    this.queueAction('Deleted', obj);
  }

  /** Queued deltas in order (test helper). */
  list(): Deltas<T> {
    return this.entries.slice(this.head).map((e) => e.delta);
  }

  /**
   * Tombstones first (queued keys whose last delta is not already a delete, then known keys with
   * nothing queued), then Replaced for every listed object in list order. Returns the deletions.
   */
  replace(list: T[], _resourceVersion: string): number {
    const keyed = list.map((obj) => ({ key: this.keyOf(obj), obj }));
    const keys = new Set(keyed.map((k) => k.key));
    const lastQueued = new Map<string, Delta<T>>();
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry<T>;
      lastQueued.set(e.key, e.delta);
    }
    let deletions = 0;
    for (const [k, last] of lastQueued) {
      if (keys.has(k) || last.type === 'Deleted') continue;
      const obj = last.object instanceof DeletedFinalStateUnknown ? last.object.obj : last.object;
      deletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(k, obj));
    }
    for (const k of this.knownObjects.listKeys()) {
      if (keys.has(k) || lastQueued.has(k)) continue;
      deletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(k, this.knownObjects.getByKey(k) as T));
    }
    for (const { obj } of keyed) this.queueAction('Replaced', obj);
    this.markInitialPopulation(this.length);
    return deletions;
  }

  resync(): number {
    return this.queueSyncForIdleKeys(this.knownObjects, (k) => this.queuedPerKey.has(k));
  }

  /** Pops one delta (as a one-element Deltas); the initial count drops only after processing. */
  async pop(process: PopProcessFunc<Deltas<T>>): Promise<Deltas<T>> {
    while (this.length === 0) {
      if (this.closed) throw ErrFIFOClosed;
      await this.waiters.wait();
    }
    const isInInitialList = !this.hasSynced();
    const entry = this.entries[this.head] as Entry<T>;
    this.entries[this.head] = undefined as unknown as Entry<T>;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    const left = (this.queuedPerKey.get(entry.key) ?? 1) - 1;
    if (left === 0) this.queuedPerKey.delete(entry.key);
    else this.queuedPerKey.set(entry.key, left);
    const deltas: Deltas<T> = [entry.delta];
    const start = this.probe.enabled ? this.clock.now() : 0;
    let failure: unknown;
    let failed = false;
    try {
      process(deltas, isInInitialList);
    } catch (err) {
      [failed, failure] = [true, err];
    }
    this.initialItemDone();
    if (this.probe.enabled) this.reportPop(entry.key, deltas, this.length, start, false, failed, failure);
    if (failed) throw failure;
    return deltas;
  }

  protected override queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    const stored = this.transformIncoming(type, obj);
    this.entries.push({ key, delta: { type, object: stored } });
    const pending = (this.queuedPerKey.get(key) ?? 0) + 1;
    this.queuedPerKey.set(key, pending);
    this.waiters.broadcast();
    if (this.probe.enabled) this.reportDelta(type, key, stored, pending, this.length);
  }
}
