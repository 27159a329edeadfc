// Ports client-go tools/cache/reflector.go (list + watch path; the streaming WatchList path is not
// ported) as an explicit state machine: idle → listing → watching ⇄ backoff → relisting … → stopped.
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import type { ReflectorState } from '../../../shared/protocol/events-cache';
import type { InformerId } from '../../../shared/protocol/ids';
import type { ListOptions, ListerWatcher, WatchStream } from '../client/lister-watcher';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { realClock, type Clock, type TimerHandle } from '../util/clock';
import { ApiError, errorMessage } from '../util/errors';
import { BackoffManager, type BackoffOptions } from './backoff';
import type { WatchErrorHandler } from './interfaces';
import { metaOf } from './keys';
import { gvkOf, objectRef } from './object-ref';
import { DEFAULT_PAGE_SIZE, listPages } from './pager';
import {
  ErrStopRequested,
  VeryShortWatchError,
  isConnectionRefused,
  isInternalError,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
} from './reflector-errors';
import { ReflectorReporter } from './reflector-reporter';
import type { ReflectorStore } from './reflector-store';
import { RetryWithDeadline } from './retry-with-deadline';

/** The floor of the randomized watch timeout: [min, 2·min). */
export const DEFAULT_MIN_WATCH_TIMEOUT_MS = 5 * 60_000;

export interface ReflectorOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  store: ReflectorStore<T>;
  /** Default "reflector". Used in messages. */
  name?: string;
  /** "v1/Pod" or "apps/v1/Deployment": watch events of another apiVersion/kind are dropped (a value without
   *  "/" only names things). Default: accept any. */
  expectedGVK?: string;
  /** Names the informer in probe events. Default expectedGVK, else name. */
  informer?: InformerId;
  /** How often to call store.resync() while watching (ms); 0 = never. Default 0. */
  resyncPeriodMs?: number;
  /** Consulted before each resync; default always. */
  shouldResync?: () => boolean;
  /** LIST page size; 0 = the pager's default rules. Default 0. */
  watchListPageSize?: number;
  /** Only honoured above the 5-minute default. */
  minWatchTimeoutMs?: number;
  /** Default REFLECTOR_BACKOFF (800ms ×2 jitter 1 cap 30s, reset after 2 min). */
  backoff?: Partial<BackoffOptions>;
  /** Retry watches that end with a 500 for this long (ms) before relisting; 0 = never. Default 0. */
  maxInternalErrorRetryDurationMs?: number;
  /** Called with errors that end a list-and-watch cycle. Default: none (the probe still reports them). */
  watchErrorHandler?: WatchErrorHandler;
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE. */
  probe?: Probe;
  /** Default Math.random (jitter and watch timeouts). */
  random?: () => number;
}

type Stop = { stop: 'abort' } | { stop: 'resync'; err: unknown };

export class Reflector<T extends KubeObject = KubeObject> {
  readonly name: string;
  private readonly lw: ListerWatcher<T>;
  private readonly store: ReflectorStore<T>;
  private readonly expectedGVK: string | undefined;
  /** expectedGVK when it has the "<apiVersion>/<Kind>" shape; anything else filters nothing. */
  private readonly filterGVK: string | undefined;
  private readonly informer: InformerId;
  private readonly resyncPeriodMs: number;
  private readonly shouldResync: (() => boolean) | undefined;
  private readonly watchListPageSize: number;
  private readonly minWatchTimeoutMs: number;
  private readonly backoff: BackoffManager;
  private readonly maxInternalErrorRetryDurationMs: number;
  private watchErrorHandler: WatchErrorHandler | undefined;
  private readonly clock: Clock;
  private readonly report: ReflectorReporter;
  private readonly random: () => number;

  private currentState: ReflectorState = 'idle';
  private lastSyncRV = '';
  private lastSyncRVUnavailable = false;
  private paginatedResult = false;
  private listedOnce = false;
  private nextReason = 'initial';
  private pendingResyncError: { err: unknown } | undefined;
  private onResyncError: ((err: unknown) => void) | undefined;

  constructor(options: ReflectorOptions<T>) {
    this.lw = options.listerWatcher;
    this.store = options.store;
    this.name = options.name ?? 'reflector';
    this.expectedGVK = options.expectedGVK;
    this.filterGVK = options.expectedGVK?.includes('/') ? options.expectedGVK : undefined;
    this.informer = options.informer ?? options.expectedGVK ?? this.name;
    this.resyncPeriodMs = options.resyncPeriodMs ?? 0;
    this.shouldResync = options.shouldResync;
    this.watchListPageSize = options.watchListPageSize ?? 0;
    this.minWatchTimeoutMs = Math.max(DEFAULT_MIN_WATCH_TIMEOUT_MS, options.minWatchTimeoutMs ?? 0);
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new BackoffManager({ ...options.backoff, clock: this.clock, random: this.random });
    this.maxInternalErrorRetryDurationMs = options.maxInternalErrorRetryDurationMs ?? 0;
    this.watchErrorHandler = options.watchErrorHandler;
    this.report = new ReflectorReporter(options.probe ?? NOOP_PROBE, this.informer, this.clock);
  }

  get state(): ReflectorState {
    return this.currentState;
  }

  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    this.watchErrorHandler = handler;
  }

  /** Lists and watches until signal aborts, waiting a backoff delay after every cycle. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (err) {
        if (signal.aborted) break;
        this.report.error(err);
        this.nextReason = errorMessage(err);
        this.watchErrorHandler?.(err);
      }
      if (signal.aborted) break;
      if (!(await this.waitBackoff(signal))) break;
    }
    this.setState('stopped', 'stop requested');
  }

  /** One list then a watch loop. Throws list errors and watch-establishment errors, as upstream returns them. */
  async listAndWatch(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    await this.list(signal);
    if (signal.aborted) return;
    const resync = this.startResync();
    try {
      await this.watchLoop(signal);
    } finally {
      resync.cancel();
      this.onResyncError = undefined;
      this.pendingResyncError = undefined;
    }
  }

  /** relistResourceVersion */
  private relistResourceVersion(): string {
    if (this.lastSyncRVUnavailable) return '';
    return this.lastSyncRV === '' ? '0' : this.lastSyncRV;
  }

  private pageSizeFor(rv: string): number {
    if (this.watchListPageSize !== 0) return this.watchListPageSize;
    if (this.paginatedResult) return DEFAULT_PAGE_SIZE;
    if (rv !== '' && rv !== '0') return 0; // let the watch cache serve it
    return DEFAULT_PAGE_SIZE;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const relist = this.listedOnce;
    this.setState(relist ? 'relisting' : 'listing', this.nextReason);
    let rv = this.relistResourceVersion();
    const start = this.clock.now();
    this.report.listBegin(rv, relist, this.nextReason);
    let result;
    try {
      try {
        result = await abortable(listPages(this.lw, { resourceVersion: rv }, this.pageSizeFor(rv), signal), signal);
      } catch (err) {
        if (signal.aborted || !(isResourceExpired(err) || isTooLargeResourceVersion(err))) throw err;
        // The version we asked for is gone (or not there yet): take whatever is current.
        this.report.error(err);
        this.lastSyncRVUnavailable = true;
        rv = this.relistResourceVersion();
        result = await abortable(listPages(this.lw, { resourceVersion: rv }, this.pageSizeFor(rv), signal), signal);
      }
      if (result.list.kind === 'Table') throw new Error(`unsupported list gvk: ${result.list.apiVersion}/Table`);
    } catch (err) {
      if (signal.aborted) return;
      this.report.listEnd(rv, relist, start, 0, 0, undefined, errorMessage(err));
      throw new Error(`failed to list ${this.expectedGVK ?? '<unspecified>'}: ${errorMessage(err)}`, { cause: err });
    }
    if (signal.aborted) return;
    if (rv === '0' && result.paginated) this.paginatedResult = true;
    this.lastSyncRVUnavailable = false;
    const listRV = result.list.metadata.resourceVersion ?? '';
    let deleted: number | void;
    try {
      deleted = this.store.replace(result.list.items, listRV);
    } catch (err) {
      this.report.listEnd(listRV, relist, start, result.list.items.length, result.pages, undefined, errorMessage(err));
      throw new Error(`unable to sync list result: ${errorMessage(err)}`, { cause: err });
    }
    this.lastSyncRV = listRV;
    this.listedOnce = true;
    this.report.listEnd(listRV, relist, start, result.list.items.length, result.pages, deleted ?? undefined);
  }

  private async watchLoop(signal: AbortSignal): Promise<void> {
    const retry = new RetryWithDeadline(this.maxInternalErrorRetryDurationMs, 60_000, isInternalError, this.clock);
    for (;;) {
      if (signal.aborted) return;
      const timeoutSeconds = Math.floor((this.minWatchTimeoutMs / 1000) * (this.random() + 1));
      const options: ListOptions = { resourceVersion: this.lastSyncRV, timeoutSeconds, allowWatchBookmarks: true };
      let w: WatchStream<T>;
      try {
        const opening = this.lw.watch(options, signal);
        // A stream that opens after we gave up must not stay open.
        opening.then(
          (late) => signal.aborted && late.stop(),
          () => {},
        );
        w = await abortable(opening, signal);
      } catch (err) {
        if (signal.aborted) return;
        if (isConnectionRefused(err) || isTooManyRequests(err)) {
          // The server is restarting or shedding load: wait, then watch again without relisting.
          this.report.error(err);
          if (!(await this.waitBackoff(signal))) return;
          continue;
        }
        throw err;
      }
      this.setState('watching', this.nextReason);
      this.report.watchStart(options.resourceVersion ?? '', timeoutSeconds);
      const err = await this.handleWatch(w, signal, options.resourceVersion ?? '', timeoutSeconds);
      retry.after(err);
      if (err === undefined) {
        this.nextReason = 'watch closed';
        continue;
      }
      if (err === ErrStopRequested) return;
      this.report.error(err);
      if (isResourceExpired(err)) {
        // Relist at the last RV first: a LIST at RV returns data at least that fresh.
        this.nextReason = 'watch expired (410)';
        return;
      }
      if (isTooManyRequests(err)) {
        if (!(await this.waitBackoff(signal))) return;
        this.nextReason = '429 TooManyRequests';
        continue;
      }
      if (isInternalError(err) && retry.shouldRetry()) {
        this.nextReason = 'retrying after internal error';
        continue;
      }
      this.nextReason = errorMessage(err);
      return;
    }
  }

  /** Feeds watch events into the store until the watch ends; returns why (undefined = closed normally). */
  private async handleWatch(
    w: WatchStream<T>,
    signal: AbortSignal,
    watchRV: string,
    timeoutSeconds: number,
  ): Promise<unknown> {
    const start = this.clock.now();
    let events = 0;
    // Initial synthetic ADDED events of a watch from "" or "0" are not ordered by resourceVersion.
    let deferRV = watchRV === '' || watchRV === '0';
    const it = w[Symbol.asyncIterator]();
    // One stop reason, delivered to whichever next() is pending. (Racing every next() against one
    // long-lived promise would pile up reactions on it for as long as the watch lives.)
    let stopReason: Stop | undefined = this.pendingResyncError
      ? { stop: 'resync', err: this.pendingResyncError.err }
      : undefined;
    let wake: ((s: Stop) => void) | undefined;
    const stopWith = (s: Stop): void => {
      stopReason ??= s;
      wake?.(stopReason);
    };
    const onAbort = (): void => stopWith({ stop: 'abort' });
    signal.addEventListener('abort', onAbort, { once: true });
    this.onResyncError = (err) => stopWith({ stop: 'resync', err });
    const release = (): void => signal.removeEventListener('abort', onAbort);
    const end = (reason: string, err?: unknown): unknown => {
      release();
      w.stop();
      this.report.watchEnd(this.lastSyncRV, events, start, reason, err);
      return err;
    };
    try {
      for (;;) {
        const next: IteratorResult<WatchEvent<T>> | Stop =
          stopReason ??
          (await new Promise<IteratorResult<WatchEvent<T>> | Stop>((resolve, reject) => {
            wake = resolve;
            it.next().then(resolve, reject);
          }));
        wake = undefined;
        if ('stop' in next) {
          return next.stop === 'abort' ? end('stopped', ErrStopRequested) : end('error', next.err);
        }
        if (next.done) {
          const lasted = this.clock.now() - start;
          if (lasted < 1000 && events === 0) return end('too-short', new VeryShortWatchError(this.name));
          return end(lasted >= timeoutSeconds * 1000 ? 'timeout' : 'closed');
        }
        const ev: WatchEvent<T> = next.value;
        if (ev.type === 'ERROR') {
          const apiErr = ApiError.fromStatus(ev.object as KubeStatus);
          return end(isResourceExpired(apiErr) ? 'expired' : 'error', apiErr);
        }
        const obj = ev.object as T;
        if (!metaOf(obj)) continue;
        if (this.filterGVK && gvkOf(obj, this.filterGVK) !== this.filterGVK) continue;
        events++;
        this.applyEvent(ev.type, obj);
        const rv = obj.metadata.resourceVersion ?? '';
        if (deferRV && ev.type === 'ADDED') continue;
        deferRV = false;
        this.lastSyncRV = rv;
        this.store.updateResourceVersion?.(rv);
      }
    } catch (err) {
      return end('error', err);
    }
  }

  private applyEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK', obj: T): void {
    if (type === 'BOOKMARK') {
      this.store.bookmark?.(obj.metadata.resourceVersion ?? '');
      this.report.bookmark(obj.metadata.resourceVersion ?? '');
      return;
    }
    try {
      switch (type) {
        case 'ADDED':
          this.store.add(obj);
          break;
        case 'MODIFIED':
          this.store.update(obj);
          break;
        case 'DELETED':
          this.store.delete(obj);
          break;
      }
    } catch (err) {
      // Store errors are only reported; the watch goes on.
      this.report.error(err);
    }
    this.report.event(type, () => objectRef(obj, this.expectedGVK ?? ''));
  }

  /** A fresh one-shot timer per period, whether or not a resync happened (as upstream). */
  private startResync(): TimerHandle {
    let timer: TimerHandle | undefined;
    let cancelled = false;
    const arm = (): void => {
      if (this.resyncPeriodMs <= 0 || cancelled) return;
      timer = this.clock.setTimer(() => {
        if (cancelled) return;
        if (this.shouldResync?.() ?? true) {
          try {
            const n = this.store.resync();
            this.report.resync(typeof n === 'number' ? n : 0);
          } catch (err) {
            this.pendingResyncError = { err };
            this.onResyncError?.(err);
            return;
          }
        }
        arm();
      }, this.resyncPeriodMs);
    };
    arm();
    return {
      cancel: () => {
        cancelled = true;
        timer?.cancel();
      },
    };
  }

  private async waitBackoff(signal: AbortSignal): Promise<boolean> {
    const delayMs = this.backoff.step();
    this.setState('backoff', this.nextReason);
    this.report.backoff(delayMs);
    try {
      await this.clock.sleep(delayMs, signal);
      return true;
    } catch {
      return false;
    }
  }

  private setState(to: ReflectorState, reason: string): void {
    const from = this.currentState;
    if (from === to) return;
    this.currentState = to;
    this.report.state(from, to, reason);
  }
}

/** Settles like p, or rejects as soon as signal aborts (for ListerWatchers that ignore the signal). */
function abortable<V>(p: Promise<V>, signal: AbortSignal): Promise<V> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
