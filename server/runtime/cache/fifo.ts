// Ports client-go tools/cache/fifo.go: the Queue contract, ErrFIFOClosed/ErrRequeue, and the plain FIFO
// (latest object per key, no deltas) that reflector tests use as a store.
import type { KubeObject } from '../../../shared/models/object';
import type { DeletedFinalStateUnknown, KeyFunc } from './interfaces';
import { KeyError, metaNamespaceKeyFunc } from './keys';
import type { ReflectorStore } from './reflector-store';

/** Called by pop with the item, whether it belongs to the initial list; throw ErrRequeue to requeue. */
export type PopProcessFunc<I> = (item: I, isInInitialList: boolean) => void;

/** cache.Queue: a ReflectorStore with a consumer side. */
export interface Queue<I, T = KubeObject> extends ReflectorStore<T> {
  /** Waits for an item, processes it, resolves with it; rejects with ErrFIFOClosed once closed and empty. */
  pop(process: PopProcessFunc<I>): Promise<I>;
  /**
   * Pops and processes the next item now, as pop does, when one is ready; undefined (nothing processed) when
   * none is. Lets a consumer run through a backlog without a promise per item.
   */
  popReady?(process: PopProcessFunc<I>): I | undefined;
  hasSynced(): boolean;
  close(): void;
  isClosed(): boolean;
}

/** cache.ErrFIFOClosed */
export class FIFOClosedError extends Error {
  override readonly name = 'FIFOClosedError';
  constructor() {
    super('DeltaFIFO: manipulating with closed queue');
  }
}
export const ErrFIFOClosed = new FIFOClosedError();

/** cache.ErrRequeue (classic API): thrown by a process func to put the item back at the end. */
export class ErrRequeue extends Error {
  override readonly name = 'ErrRequeue';
  constructor(readonly err?: unknown) {
    super(
      err === undefined
        ? 'the popped item should be requeued without returning an error'
        : err instanceof Error
          ? err.message
          : String(err),
    );
  }
}

/** A broadcast condition: pop waits on it, producers and close wake everyone. */
export class PopWaiters {
  /** Everyone waiting shares one promise, settled by the next broadcast. */
  private pending: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  wait(): Promise<void> {
    this.pending ??= new Promise((resolve) => (this.wake = resolve));
    return this.pending;
  }

  broadcast(): void {
    // Every queued item broadcasts; most find nobody waiting, and cost nothing then.
    const wake = this.wake;
    if (!wake) return;
    this.pending = undefined;
    this.wake = undefined;
    wake();
  }
}

/** A FIFO of keys with O(1) shift (a head index, compacted now and then). */
export class KeyQueue {
  private keys: string[] = [];
  private head = 0;

  constructor(initial: Iterable<string> = []) {
    this.keys = [...initial];
  }

  get length(): number {
    return this.keys.length - this.head;
  }

  push(key: string): void {
    this.keys.push(key);
  }

  shift(): string | undefined {
    if (this.head >= this.keys.length) return undefined;
    const key = this.keys[this.head++];
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  toArray(): string[] {
    return this.keys.slice(this.head);
  }
}

export interface FIFOOptions {
  /** Default metaNamespaceKeyFunc. */
  keyFunction?: KeyFunc;
}

/** cache.FIFO: holds the latest object per key; a key is queued at most once. */
export class FIFO<T = KubeObject> implements Queue<T, T> {
  private items = new Map<string, T>();
  private queue = new KeyQueue();
  private populated = false;
  private initialPopulationCount = 0;
  private closed = false;
  private readonly keyFunc: KeyFunc;
  private readonly waiters = new PopWaiters();

  constructor(options: FIFOOptions = {}) {
    this.keyFunc = options.keyFunction ?? metaNamespaceKeyFunc;
  }

  add(obj: T): void {
    const key = this.keyOf(obj);
    this.populated = true;
    if (!this.items.has(key)) this.queue.push(key);
    this.items.set(key, obj);
    this.waiters.broadcast();
  }

  update(obj: T): void {
    this.add(obj);
  }

  /** Removes the object only; its queued key is skipped at pop. */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    this.populated = true;
    this.items.delete(key);
  }

  /** Adds obj only if its key is not queued (classic API). */
  addIfNotPresent(obj: T): void {
    const key = this.keyOf(obj);
    this.populated = true;
    if (this.items.has(key)) return;
    this.queue.push(key);
    this.items.set(key, obj);
    this.waiters.broadcast();
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get(obj: T): T | undefined {
    return this.items.get(this.keyOf(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.waiters.broadcast();
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  replace(list: T[], _resourceVersion: string): number {
    const items = new Map<string, T>();
    for (const obj of list) items.set(this.keyOf(obj), obj);
    this.items = items;
    this.queue = new KeyQueue(items.keys());
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = items.size;
    }
    this.waiters.broadcast();
    return 0;
  }

  resync(): number {
    const queued = new Set(this.queue.toArray());
    let n = 0;
    for (const key of this.items.keys()) {
      if (queued.has(key)) continue;
      this.queue.push(key);
      n++;
    }
    if (n > 0) this.waiters.broadcast();
    return n;
  }

  async pop(process: PopProcessFunc<T>): Promise<T> {
    for (;;) {
      while (this.queue.length === 0) {
        if (this.closed) throw ErrFIFOClosed;
        await this.waiters.wait();
      }
      const isInInitialList = !this.hasSynced();
      const key = this.queue.shift() as string;
      const item = this.items.get(key);
      if (item === undefined) {
        // Deleted after it was queued.
        if (this.initialPopulationCount > 0) this.initialPopulationCount--;
        continue;
      }
      this.items.delete(key);
      try {
        process(item, isInInitialList);
      } catch (err) {
        if (!(err instanceof ErrRequeue)) throw err;
        this.addIfNotPresent(item);
        if (err.err !== undefined) throw err.err;
      } finally {
        if (this.initialPopulationCount > 0) this.initialPopulationCount--;
      }
      return item;
    }
  }

  private keyOf(obj: unknown): string {
    try {
      return this.keyFunc(obj);
    } catch (err) {
      throw err instanceof KeyError ? err : new KeyError(obj, err);
    }
  }
}
