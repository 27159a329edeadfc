// Ports client-go tools/cache/the_real_fifo.go in its non-atomic mode: one ordered list of deltas,
// no grouping, no compaction; every change is delivered, in arrival order, one per pop.
import type { KubeObject } from '../../../shared/models/object';
import type { DeltaType } from '../../../shared/protocol/events-cache';
import type { InformerId } from '../../../shared/protocol/ids';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import type { Delta, Deltas } from './delta-fifo';
import { ErrFIFOClosed, PopWaiters, type PopProcessFunc, type Queue } from './fifo';
import { DeletedFinalStateUnknown, type KeyFunc, type TransformFunc } from './interfaces';
import { KeyError, metaNamespaceKeyFunc } from './keys';
import { objectRef } from './object-ref';
import type { KeyListerGetter } from './reflector-store';

export interface RealFIFOOptions<T> {
  /** Default metaNamespaceKeyFunc. */
  keyFunction?: KeyFunc;
  /** Required: what the consumer already knows (normally the informer's indexer). */
  knownObjects: KeyListerGetter<T>;
  /** Applied once to each object entering the queue (not to tombstones or Sync). Default none. */
  transformer?: TransformFunc<T>;
  /** Called once, after the last item of the initial list was processed. */
  onSynced?: () => void;
  /** Default NOOP_PROBE. Emits fifo.delta and fifo.pop. */
  probe?: Probe;
  informer?: InformerId;
  gvk?: string;
  /** Times pops for probes. Default realClock. */
  clock?: Clock;
}

interface Entry<T> {
  key: string;
  delta: Delta<T>;
}

export class RealFIFO<T = KubeObject> implements Queue<Deltas<T>, T> {
  private entries: Entry<T>[] = [];
  private head = 0;
  /** key → number of queued entries, so "is anything queued for k" is O(1). */
  private queuedPerKey = new Map<string, number>();
  private populated = false;
  private initialPopulationCount = 0;
  private closed = false;
  private syncedSignalled = false;
  private readonly keyFunc: KeyFunc;
  private readonly knownObjects: KeyListerGetter<T>;
  private readonly transformer: TransformFunc<T> | undefined;
  private readonly onSynced: (() => void) | undefined;
  private readonly probe: Probe;
  private readonly informer: InformerId;
  private readonly gvk: string;
  private readonly clock: Clock;
  private readonly waiters = new PopWaiters();

  constructor(options: RealFIFOOptions<T>) {
    if (!options.knownObjects) throw new Error('RealFIFO requires knownObjects');
    this.keyFunc = options.keyFunction ?? metaNamespaceKeyFunc;
    this.knownObjects = options.knownObjects;
    this.transformer = options.transformer;
    this.onSynced = options.onSynced;
    this.probe = options.probe ?? NOOP_PROBE;
    this.informer = options.informer ?? '';
    this.gvk = options.gvk ?? '';
    this.clock = options.clock ?? realClock;
  }

  get length(): number {
    return this.entries.length - this.head;
  }

  keyOf(obj: unknown): string {
    let o = obj;
    if (Array.isArray(o)) o = (o as Deltas<T>)[o.length - 1]?.object;
    if (o instanceof DeletedFinalStateUnknown) return o.key;
    try {
      return this.keyFunc(o);
    } catch (err) {
      throw err instanceof KeyError ? err : new KeyError(o, err);
    }
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  add(obj: T): void {
    this.markPopulated();
    this.queueAction('Added', obj);
  }

  update(obj: T): void {
    this.markPopulated();
    this.queueAction('Updated', obj);
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

  isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.waiters.broadcast();
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
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = this.length;
      this.checkSynced();
    }
    return deletions;
  }

  resync(): number {
    let n = 0;
    for (const k of this.knownObjects.listKeys()) {
      if (this.queuedPerKey.has(k)) continue;
      const obj = this.knownObjects.getByKey(k);
      if (obj === undefined) continue;
      this.queueAction('Sync', obj);
      n++;
    }
    return n;
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
    if (this.initialPopulationCount > 0) {
      this.initialPopulationCount--;
      this.checkSynced();
    }
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'fifo.pop',
        informer: this.informer,
        key: entry.key,
        deltas: [entry.delta.type],
        queueLength: this.length,
        durationMs: this.clock.now() - start,
        ...(failed ? { error: errorMessage(failure) } : {}),
      });
    }
    if (failed) throw failure;
    return deltas;
  }

  private markPopulated(): void {
    this.populated = true;
    this.checkSynced();
  }

  private checkSynced(): void {
    if (this.syncedSignalled || !this.hasSynced()) return;
    this.syncedSignalled = true;
    this.onSynced?.();
  }

  private queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    let stored = obj;
    if (this.transformer && type !== 'Sync' && !(obj instanceof DeletedFinalStateUnknown)) {
      stored = this.transformer(obj);
    }
    this.entries.push({ key, delta: { type, object: stored } });
    const pending = (this.queuedPerKey.get(key) ?? 0) + 1;
    this.queuedPerKey.set(key, pending);
    this.waiters.broadcast();
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'fifo.delta',
        informer: this.informer,
        delta: type,
        key,
        ref: objectRef(stored, this.gvk, key),
        pendingForKey: pending,
        queueLength: this.length,
        ...(stored instanceof DeletedFinalStateUnknown ? { tombstone: true } : {}),
      });
    }
  }
}
