// Ports client-go tools/cache/the_real_fifo.go: one ordered list of deltas, no grouping, no compaction;
// every change is delivered, in arrival order, one per pop. In the atomic mode (client-go's AtomicFIFO
// gate) a relist queues one ReplacedAll entry and a resync one SyncAll entry, each processed in one step
// against the indexer (processAtomicEvent), instead of a delta per object.
import type { KubeObject } from '../../../shared/models/object';
import type { DeltaType } from '../../../shared/protocol/events-cache';
import type { Delta, Deltas } from './delta-fifo';
import { ErrFIFOClosed, type PopProcessFunc, type Queue } from './fifo';
import { FifoCommon, type FifoCommonOptions } from './fifo-common';
import { DeletedFinalStateUnknown } from './interfaces';
import type { KeyListerGetter } from './reflector-store';

/** The shared options (key function, transformer, onSynced, probe, clock...) are in FifoCommonOptions. */
export interface RealFIFOOptions<T> extends FifoCommonOptions<T> {
  /** What the consumer already knows (normally the informer's indexer). Required unless atomicEvents. */
  knownObjects?: KeyListerGetter<T>;
  /**
   * RealFIFOOptions.AtomicEvents: a replace queues one ReplacedAll entry, a resync one SyncAll entry.
   * The FIFO then knows no objects (the indexer is only read when the entry is processed). Default false.
   */
  atomicEvents?: boolean;
  /** Processes a ReplacedAll or SyncAll entry; required with atomicEvents (the informer's processAtomicEvent). */
  processAtomic?: (event: AtomicEvent<T>, isInInitialList: boolean) => void;
}

/** ReplacedAllInfo (the relisted objects, already transformed, and the list's RV) or SyncAllInfo. */
export type AtomicEvent<T> = { type: 'ReplacedAll'; resourceVersion: string; objects: T[] } | { type: 'SyncAll' };

type Entry<T> = { key: string; delta: Delta<T>; atomic?: undefined } | { key: ''; atomic: AtomicEvent<T> };

export class RealFIFO<T = KubeObject> extends FifoCommon<T> implements Queue<Deltas<T>, T> {
  private entries: Entry<T>[] = [];
  private head = 0;
  /**
   * key → number of queued entries, for the probe's pendingForKey. Kept only while a probe listens (built from
   * the queue when it starts listening): unwatched, it would cost two map updates per delta for nothing, as
   * resync, its only other reader, counts the queue itself when it runs (as upstream's Resync does).
   */
  private queuedPerKey: Map<string, number> | undefined;
  private readonly knownObjects: KeyListerGetter<T> | undefined;
  private readonly processAtomic: ((event: AtomicEvent<T>, isInInitialList: boolean) => void) | undefined;

  constructor(options: RealFIFOOptions<T>) {
    if (options.atomicEvents) {
      if (options.knownObjects)
        throw new Error('RealFIFO: an atomic FIFO takes no knownObjects (the indexer applies its events)');
      if (!options.processAtomic)
        throw new Error('RealFIFO: atomicEvents needs processAtomic to apply ReplacedAll and SyncAll');
    } else if (!options.knownObjects) {
      throw new Error('RealFIFO requires knownObjects');
    }
    super(options);
    this.knownObjects = options.knownObjects;
    this.processAtomic = options.atomicEvents ? options.processAtomic : undefined;
  }

  /** Whether relists and resyncs are queued as one entry each. */
  get atomicEvents(): boolean {
    return this.processAtomic !== undefined;
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

  /** Queued deltas in order (test helper); atomic entries are not deltas and are left out. */
  list(): Deltas<T> {
    return this.entries.slice(this.head).flatMap((e) => (e.atomic ? [] : [e.delta]));
  }

  /** Queued ReplacedAll / SyncAll entries in order (test helper). */
  listAtomic(): AtomicEvent<T>[] {
    return this.entries.slice(this.head).flatMap((e) => (e.atomic ? [e.atomic] : []));
  }

  /**
   * Tombstones first (queued keys whose last delta is not already a delete, then known keys with
   * nothing queued), then Replaced for every listed object in list order. Returns the deletions.
   */
  replace(list: T[], resourceVersion: string): number | void {
    if (this.atomicEvents) {
      // addReplaceToItemsLocked: the objects are transformed now, as every object entering the queue.
      const objects = this.transformer ? list.map((o) => (this.transformer as (x: T) => T)(o)) : [...list];
      this.pushAtomic({ type: 'ReplacedAll', resourceVersion, objects });
      this.markInitialPopulation(this.length);
      return undefined;
    }
    // Every key first, so a key error queues nothing; the keys are then queued with their objects.
    const keys = list.map((obj) => this.keyOf(obj));
    const lastQueued = new Map<string, Delta<T>>();
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry<T>;
      if (!e.atomic) lastQueued.set(e.key, e.delta);
    }
    const known = this.knownObjects as KeyListerGetter<T>;
    const knownKeys = known.listKeys();
    let deletions = 0;
    // Nothing queued and nothing known (the first list): nothing can be deleted, and a set of 100,000 listed keys
    // would be built for no lookup.
    if (lastQueued.size > 0 || knownKeys.length > 0) {
      const listed = new Set(keys);
      for (const [k, last] of lastQueued) {
        if (listed.has(k) || last.type === 'Deleted') continue;
        const obj = last.object instanceof DeletedFinalStateUnknown ? last.object.obj : last.object;
        deletions++;
        this.queueAction('Deleted', new DeletedFinalStateUnknown(k, obj));
      }
      for (const k of knownKeys) {
        if (listed.has(k) || lastQueued.has(k)) continue;
        deletions++;
        this.queueAction('Deleted', new DeletedFinalStateUnknown(k, known.getByKey(k) as T));
      }
    }
    for (let i = 0; i < list.length; i++) this.queueKeyed('Replaced', keys[i] as string, list[i] as T);
    this.markInitialPopulation(this.length);
    return deletions;
  }

  resync(): number | void {
    if (this.atomicEvents) return void this.pushAtomic({ type: 'SyncAll' });
    const queued = this.queuedCounts();
    return this.queueSyncForIdleKeys(this.knownObjects as KeyListerGetter<T>, (k) => queued.has(k));
  }

  private pushAtomic(event: AtomicEvent<T>): void {
    this.entries.push({ key: '', atomic: event });
    this.waiters.broadcast();
  }

  /** Pops one delta (as a one-element Deltas); the initial count drops only after processing. */
  async pop(process: PopProcessFunc<Deltas<T>>): Promise<Deltas<T>> {
    while (this.length === 0) {
      if (this.closed) throw ErrFIFOClosed;
      await this.waiters.wait();
    }
    return this.popHead(process);
  }

  popReady(process: PopProcessFunc<Deltas<T>>): Deltas<T> | undefined {
    return this.length === 0 ? undefined : this.popHead(process);
  }

  /** Takes the head entry and processes it; only called when one is queued. */
  private popHead(process: PopProcessFunc<Deltas<T>>): Deltas<T> {
    const isInInitialList = !this.hasSynced();
    const entry = this.entries[this.head] as Entry<T>;
    this.entries[this.head] = undefined as unknown as Entry<T>;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    if (entry.atomic) return this.popAtomic(entry.atomic, isInInitialList);
    const counts = this.queuedPerKey;
    if (counts) {
      const left = (counts.get(entry.key) ?? 1) - 1;
      if (left === 0) counts.delete(entry.key);
      else counts.set(entry.key, left);
    }
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

  /** An atomic entry is one step for the indexer; the dashboard sees it as the indexer's replace. */
  private popAtomic(event: AtomicEvent<T>, isInInitialList: boolean): Deltas<T> {
    try {
      (this.processAtomic as (e: AtomicEvent<T>, i: boolean) => void)(event, isInInitialList);
    } finally {
      this.initialItemDone();
    }
    return [];
  }

  protected override queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>): void {
    this.queueKeyed(type, this.keyOf(obj), obj);
  }

  private queueKeyed(type: DeltaType, key: string, obj: T | DeletedFinalStateUnknown<T>): void {
    const stored = this.transformIncoming(type, obj);
    this.entries.push({ key, delta: { type, object: stored } });
    this.waiters.broadcast();
    if (!this.probe.enabled) {
      this.queuedPerKey = undefined;
      return;
    }
    let pending: number;
    if (this.queuedPerKey) {
      pending = (this.queuedPerKey.get(key) ?? 0) + 1;
      this.queuedPerKey.set(key, pending);
    } else {
      this.queuedPerKey = this.queuedCounts();
      pending = this.queuedPerKey.get(key) ?? 1;
    }
    this.reportDelta(type, key, stored, pending, this.length);
  }

  /** Queued deltas per key, counted from the queue. */
  private queuedCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry<T>;
      if (!e.atomic) counts.set(e.key, (counts.get(e.key) ?? 0) + 1);
    }
    return counts;
  }
}
