// A ListerWatcher driven by a test: an in-memory "API server" for one resource with a resourceVersion
// counter, an event history (so watches resume from a version), compaction (410 on older versions),
// pagination, and failure injection. Plays the role of client-go's FakeControllerSource.
import type { KubeList, KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import type { ListOptions, ListerWatcher, WatchStream } from '../client/lister-watcher';
import type { Clock, TimerHandle } from '../util/clock';
import { ApiError } from '../util/errors';

export interface ScriptedListWatchOptions<T extends KubeObject> {
  /** Closes watches after their timeoutSeconds on this clock. Default: watches never time out. */
  clock?: Clock;
  /** Stamped on objects that carry none. Default "v1" / "Pod". */
  apiVersion?: string;
  kind?: string;
  /** Stored at the start, each with its own resourceVersion. */
  initialObjects?: T[];
  /** Refuse sendInitialEvents with 422 Invalid, like a server without WatchList. Default false. */
  rejectWatchList?: boolean;
  /**
   * Declare WatchList support, so reflectors built with default options stream from it. Default false:
   * like client-go's fake clients, a scripted source says it lacks WatchList semantics and reflectors
   * LIST unless a test asks for the stream.
   */
  watchListSemantics?: boolean;
}

export interface MutationOptions {
  /** Record the change (later watches replay it) but don't tell open watches, like FakeControllerSource's *DropWatch. */
  dropWatch?: boolean;
}

interface HistoryEntry<T extends KubeObject> {
  rv: number;
  event: WatchEvent<T>;
}

const keyOf = (o: KubeObject): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');

function status(
  code: number,
  reason: string,
  message: string,
  causes?: { reason?: string; message?: string }[],
): KubeStatus {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    ...(causes ? { details: { causes } } : {}),
  };
}

/** The Status of a 410 for an expired resourceVersion. */
export const expiredStatus = (message = 'too old resource version'): KubeStatus => status(410, 'Expired', message);
export const expiredError = (message?: string): ApiError => ApiError.fromStatus(expiredStatus(message));
export const tooManyRequestsError = (): ApiError =>
  ApiError.fromStatus(status(429, 'TooManyRequests', 'too many requests'));
export const internalErrorStatus = (message = 'internal error'): KubeStatus => status(500, 'InternalError', message);
export const connectionRefusedError = (): Error =>
  Object.assign(new Error('dial tcp 127.0.0.1:6443: connect: connection refused'), { code: 'ECONNREFUSED' });
export const tooLargeResourceVersionError = (rv: string | number, current: number): ApiError =>
  ApiError.fromStatus(
    status(504, 'Timeout', `Too large resource version: ${rv}, current: ${current}`, [
      { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
    ]),
  );

/** A watch stream a test can feed by hand (push, end) and inspect (stopped). */
export class ScriptedWatch<T extends KubeObject = KubeObject> implements WatchStream<T> {
  private buffer: WatchEvent<T>[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private timer: TimerHandle | undefined;
  /** true once the client called stop(). */
  stopped = false;

  constructor(private readonly onStop: (w: ScriptedWatch<T>) => void = () => {}) {}

  setTimer(t: TimerHandle): void {
    this.timer = t;
  }

  get open(): boolean {
    return !this.ended;
  }

  push(ev: WatchEvent<T>): void {
    if (this.ended) return;
    this.buffer.push(structuredClone(ev));
    this.wakeUp();
  }

  /** Server-side close: what was sent is still delivered. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.timer?.cancel();
    this.onStop(this);
    this.wakeUp();
  }

  /** Client-side stop: nothing more is delivered. */
  stop(): void {
    this.stopped = true;
    this.buffer = [];
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: async (): Promise<IteratorResult<WatchEvent<T>>> => {
        while (this.buffer.length === 0 && !this.ended) await new Promise<void>((r) => (this.wake = r));
        const ev = this.buffer.shift();
        return ev ? { value: ev, done: false } : { value: undefined, done: true };
      },
      return: async (): Promise<IteratorResult<WatchEvent<T>>> => {
        this.stop();
        return { value: undefined, done: true };
      },
    };
  }

  private wakeUp(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }
}

export class ScriptedListWatch<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  readonly listCalls: ListOptions[] = [];
  readonly watchCalls: ListOptions[] = [];
  private rv = 0;
  private compactedRV = 0;
  private objects = new Map<string, T>();
  private history: HistoryEntry<T>[] = [];
  private watches = new Set<ScriptedWatch<T>>();
  private listFailures: unknown[] = [];
  private watchFailures: unknown[] = [];
  private persistentListError: unknown;
  private persistentWatchError: unknown;
  private snapshots = new Map<string, { rv: number; items: T[] }>();
  private nextSnapshot = 0;
  private readonly clock: Clock | undefined;
  private readonly rejectWatchList: boolean;
  private readonly watchListSemantics: boolean;
  private readonly apiVersion: string;
  private readonly kind: string;

  constructor(options: ScriptedListWatchOptions<T> = {}) {
    this.clock = options.clock;
    this.rejectWatchList = options.rejectWatchList ?? false;
    this.watchListSemantics = options.watchListSemantics ?? false;
    this.apiVersion = options.apiVersion ?? 'v1';
    this.kind = options.kind ?? 'Pod';
    for (const o of options.initialObjects ?? []) this.add(o);
  }

  isWatchListSemanticsUnSupported(): boolean {
    return !this.watchListSemantics;
  }

  /** The current resourceVersion. */
  get resourceVersion(): string {
    return String(this.rv);
  }

  /** Injected one-shot list/watch failures not yet consumed. */
  get pendingFailures(): number {
    return this.listFailures.length + this.watchFailures.length;
  }

  /** Watches that are still open. */
  get openWatches(): number {
    return this.watches.size;
  }

  /** A fresh copy of what a LIST would return now, sorted by key. */
  contents(): T[] {
    return [...this.objects.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, o]) => structuredClone(o));
  }

  get(namespace: string, name: string): T | undefined {
    const o = this.objects.get(namespace ? `${namespace}/${name}` : name);
    return o ? structuredClone(o) : undefined;
  }

  add(obj: T, options: MutationOptions = {}): T {
    return this.write('ADDED', obj, options);
  }

  update(obj: T, options: MutationOptions = {}): T {
    return this.write('MODIFIED', obj, options);
  }

  /** Deletes by namespace/name (or by the object's); the DELETED event carries a new resourceVersion. */
  delete(ref: { metadata: { namespace?: string; name?: string } }, options: MutationOptions = {}): T | undefined {
    const key = keyOf(ref as KubeObject);
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.objects.delete(key);
    const gone = structuredClone(old);
    gone.metadata.resourceVersion = String(++this.rv);
    this.record({ type: 'DELETED', object: gone }, options);
    return gone;
  }

  /** Sends a BOOKMARK at the current resourceVersion to open watches that asked for bookmarks. */
  bookmark(): void {
    const ev = {
      type: 'BOOKMARK',
      object: this.stamp({ metadata: { resourceVersion: this.resourceVersion } } as T),
    } as const;
    for (const w of this.watches) w.push(ev);
  }

  /** Sends an ERROR event (a Status) to every open watch. */
  sendError(s: KubeStatus): void {
    for (const w of this.watches) w.push({ type: 'ERROR', object: s });
  }

  /** Server-side close of every open watch (after what was already sent). */
  closeWatches(): void {
    for (const w of [...this.watches]) w.end();
  }

  /** Forgets history up to rv (default: now); lists/watches from older versions get 410. */
  compact(rv: number = this.rv): void {
    this.compactedRV = Math.max(this.compactedRV, rv);
    this.history = this.history.filter((h) => h.rv > this.compactedRV);
  }

  failNextList(err: unknown, times = 1): void {
    for (let i = 0; i < times; i++) this.listFailures.push(err);
  }

  failNextWatch(err: unknown, times = 1): void {
    for (let i = 0; i < times; i++) this.watchFailures.push(err);
  }

  /** Every list fails with err until called again with undefined. */
  setListError(err: unknown): void {
    this.persistentListError = err;
  }

  setWatchError(err: unknown): void {
    this.persistentWatchError = err;
  }

  async list(options: ListOptions, signal?: AbortSignal): Promise<KubeList<T>> {
    this.listCalls.push({ ...options });
    signal?.throwIfAborted();
    const failure = this.listFailures.shift() ?? this.persistentListError;
    if (failure !== undefined) throw failure;
    let snap: { rv: number; items: T[] };
    let start = 0;
    if (options.continue) {
      const [id, offset] = options.continue.split(':');
      const s = this.snapshots.get(id ?? '');
      if (!s || s.rv < this.compactedRV) {
        throw expiredError('The provided continue parameter is too old to display a consistent list result.');
      }
      snap = s;
      start = Number(offset);
    } else {
      const asked = options.resourceVersion ? Number(options.resourceVersion) : 0;
      if (asked > this.rv) throw tooLargeResourceVersionError(asked, this.rv);
      const exact = options.resourceVersionMatch === 'Exact' || (!!options.limit && asked > 0);
      if (exact && asked < this.compactedRV) throw expiredError();
      snap = { rv: this.rv, items: this.contents() };
    }
    const limit = options.limit ?? 0;
    const items = limit > 0 ? snap.items.slice(start, start + limit) : snap.items.slice(start);
    const metadata: KubeList<T>['metadata'] = { resourceVersion: String(snap.rv) };
    if (limit > 0 && start + limit < snap.items.length) {
      const id = options.continue ? (options.continue.split(':')[0] ?? '') : String(this.nextSnapshot++);
      this.snapshots.set(id, snap);
      metadata.continue = `${id}:${start + limit}`;
      metadata.remainingItemCount = snap.items.length - start - limit;
    }
    return {
      apiVersion: this.apiVersion,
      kind: `${this.kind}List`,
      metadata,
      items: items.map((o) => structuredClone(o)),
    };
  }

  async watch(options: ListOptions, signal?: AbortSignal): Promise<WatchStream<T>> {
    this.watchCalls.push({ ...options });
    signal?.throwIfAborted();
    const failure = this.watchFailures.shift() ?? this.persistentWatchError;
    if (failure !== undefined) throw failure;
    const from = options.resourceVersion ? Number(options.resourceVersion) : 0;
    if (options.sendInitialEvents) return this.watchList(options, from, signal);
    if (from > 0 && from < this.compactedRV) {
      // As the API server does: the watch opens, then says 410 and ends.
      const gone = new ScriptedWatch<T>();
      gone.push({ type: 'ERROR', object: expiredStatus(`too old resource version: ${from} (${this.compactedRV})`) });
      gone.end();
      return gone;
    }
    const w = new ScriptedWatch<T>((x) => this.watches.delete(x));
    this.watches.add(w);
    if (from === 0) {
      for (const o of this.contents()) w.push({ type: 'ADDED', object: o });
    } else {
      for (const h of this.history) if (h.rv > from) w.push(h.event);
    }
    if (this.clock && options.timeoutSeconds)
      w.setTimer(this.clock.setTimer(() => w.end(), options.timeoutSeconds * 1000));
    signal?.addEventListener('abort', () => w.stop(), { once: true });
    return w;
  }

  /** A WatchList stream: the current state as ADDED, an initial-events-end bookmark, then live events. */
  private watchList(options: ListOptions, from: number, signal?: AbortSignal): WatchStream<T> {
    if (this.rejectWatchList) {
      throw ApiError.fromStatus(status(422, 'Invalid', 'sendInitialEvents is forbidden for this server'));
    }
    if (from > this.rv) throw tooLargeResourceVersionError(from, this.rv);
    const w = new ScriptedWatch<T>((x) => this.watches.delete(x));
    this.watches.add(w);
    for (const o of this.contents()) w.push({ type: 'ADDED', object: o });
    const end = this.stamp({
      metadata: { resourceVersion: this.resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } },
    } as unknown as T);
    w.push({ type: 'BOOKMARK', object: end });
    if (this.clock && options.timeoutSeconds)
      w.setTimer(this.clock.setTimer(() => w.end(), options.timeoutSeconds * 1000));
    signal?.addEventListener('abort', () => w.stop(), { once: true });
    return w;
  }

  private stamp(obj: T): T {
    const o = structuredClone(obj);
    o.apiVersion ??= this.apiVersion;
    o.kind ??= this.kind;
    return o;
  }

  private write(type: 'ADDED' | 'MODIFIED', obj: T, options: MutationOptions): T {
    const o = this.stamp(obj);
    const key = keyOf(o);
    o.metadata.resourceVersion = String(++this.rv);
    o.metadata.uid ??= this.objects.get(key)?.metadata.uid ?? `uid-${key}`;
    this.objects.set(key, o);
    this.record({ type, object: o }, options);
    return structuredClone(o);
  }

  private record(event: WatchEvent<T>, options: MutationOptions): void {
    this.history.push({ rv: this.rv, event });
    if (options.dropWatch) return;
    for (const w of this.watches) w.push(event);
  }
}
