// Mechanics shared by the ports of client-go tools/cache/delta_fifo.go and the_real_fifo.go. Upstream keeps
// the two as separate types and so do we (DeltaFIFO, RealFIFO); this base only holds what they do alike:
// initial-population tracking, the transform step on the way in, keying, and the probe reports.
import type { KubeObject } from '../../../shared/models/object';
import type { DeltaType } from '../../../shared/protocol/events-cache';
import type { InformerId } from '../../../shared/protocol/ids';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import type { Deltas } from './delta-fifo';
import { PopWaiters } from './fifo';
import { DeletedFinalStateUnknown, type KeyFunc, type TransformFunc } from './interfaces';
import { KeyError, metaNamespaceKeyFunc } from './keys';
import { objectRef } from './object-ref';
import type { KeyListerGetter } from './reflector-store';

/** The options both queues accept (DeltaFIFOOptions and RealFIFOOptions add their own). */
export interface FifoCommonOptions<T> {
  /** Default metaNamespaceKeyFunc. */
  keyFunction?: KeyFunc;
  /** Applied once to each object entering the queue (not to tombstones or Sync). Default none. */
  transformer?: TransformFunc<T>;
  /** Called once, when the queue first reports synced (after the last item of the initial list was processed). */
  onSynced?: () => void;
  /** Default NOOP_PROBE. Emits fifo.delta and fifo.pop. */
  probe?: Probe;
  /** Names the owning informer in probe events. Default "". */
  informer?: InformerId;
  /** gvk used in probe refs. Default "". */
  gvk?: string;
  /** Times pops for probes. Default realClock. */
  clock?: Clock;
}

export abstract class FifoCommon<T = KubeObject> {
  /** Set by the first add/update/delete/replace: until then the queue cannot claim to be synced. */
  protected populated = false;
  /** Items of the first replace not yet processed by pop. */
  protected initialPopulationCount = 0;
  protected closed = false;
  private syncedSignalled = false;
  protected readonly keyFunc: KeyFunc;
  protected readonly transformer: TransformFunc<T> | undefined;
  private readonly onSynced: (() => void) | undefined;
  protected readonly probe: Probe;
  protected readonly informer: InformerId;
  protected readonly gvk: string;
  protected readonly clock: Clock;
  protected readonly waiters = new PopWaiters();

  constructor(options: FifoCommonOptions<T>) {
    this.keyFunc = options.keyFunction ?? metaNamespaceKeyFunc;
    this.transformer = options.transformer;
    this.onSynced = options.onSynced;
    this.probe = options.probe ?? NOOP_PROBE;
    this.informer = options.informer ?? '';
    this.gvk = options.gvk ?? '';
    this.clock = options.clock ?? realClock;
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

  isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.waiters.broadcast();
  }

  protected abstract queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>): void;

  /** Queues Sync for each known object whose key has nothing queued; returns how many were queued. */
  protected queueSyncForIdleKeys(known: KeyListerGetter<T>, isQueued: (key: string) => boolean): number {
    let n = 0;
    for (const k of known.listKeys()) {
      if (isQueued(k)) continue;
      const obj = known.getByKey(k);
      if (obj === undefined) continue;
      this.queueAction('Sync', obj);
      n++;
    }
    return n;
  }

  /** Key of a single object or tombstone; key function failures always surface as KeyError. */
  protected objectKey(o: unknown): string {
    if (o instanceof DeletedFinalStateUnknown) return o.key;
    try {
      return this.keyFunc(o);
    } catch (err) {
      throw err instanceof KeyError ? err : new KeyError(o, err);
    }
  }

  /** Tombstones and Sync carry objects that were already transformed on their way in. */
  protected transformIncoming(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>): T | DeletedFinalStateUnknown<T> {
    if (this.transformer && type !== 'Sync' && !(obj instanceof DeletedFinalStateUnknown)) {
      return this.transformer(obj);
    }
    return obj;
  }

  protected markPopulated(): void {
    this.populated = true;
    this.checkSynced();
  }

  /** The first replace fixes how many items must be processed before the queue reports synced. */
  protected markInitialPopulation(count: number): void {
    if (this.populated) return;
    this.populated = true;
    this.initialPopulationCount = count;
    this.checkSynced();
  }

  /** Counts one item of the initial population as done (processed, or found gone). */
  protected initialItemDone(): void {
    if (this.initialPopulationCount > 0) {
      this.initialPopulationCount--;
      this.checkSynced();
    }
  }

  protected checkSynced(): void {
    if (this.syncedSignalled || !this.hasSynced()) return;
    this.syncedSignalled = true;
    this.onSynced?.();
  }

  /** Emits fifo.delta; callers guard with `if (this.probe.enabled)` so nothing is built unwatched. */
  protected reportDelta(
    type: DeltaType,
    key: string,
    stored: T | DeletedFinalStateUnknown<T>,
    pendingForKey: number,
    queueLength: number,
  ): void {
    this.probe.emit({
      kind: 'fifo.delta',
      informer: this.informer,
      delta: type,
      key,
      ref: objectRef(stored, this.gvk, key),
      pendingForKey,
      queueLength,
      ...(stored instanceof DeletedFinalStateUnknown ? { tombstone: true } : {}),
    });
  }

  /** Emits fifo.pop; callers guard with `if (this.probe.enabled)` and pass the clock reading taken before process. */
  protected reportPop(
    key: string,
    deltas: Deltas<T>,
    queueLength: number,
    start: number,
    requeued: boolean,
    failed: boolean,
    failure: unknown,
  ): void {
    this.probe.emit({
      kind: 'fifo.pop',
      informer: this.informer,
      key,
      deltas: deltas.map((d) => d.type),
      queueLength,
      durationMs: this.clock.now() - start,
      ...(requeued ? { requeued } : {}),
      ...(failed ? { error: errorMessage(failure) } : {}),
    });
  }
}
