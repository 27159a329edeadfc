// Ports client-go tools/cache/reflector.go as an explicit state machine:
// idle → listing → watching ⇄ backoff → relisting … → stopped. The initial state comes from a WatchList
// stream (sendInitialEvents; the default, as client-go since 1.35) or from a paginated LIST, which is also
// the fallback whenever the stream fails.
import type { KubeObject } from '../../../shared/models/object';
import type { ReflectorState } from '../../../shared/protocol/events-cache';
import type { InformerId } from '../../../shared/protocol/ids';
import {
  doesClientNotSupportWatchListSemantics,
  type ListOptions,
  type ListerWatcher,
  type WatchStream,
} from '../client/lister-watcher';
import { runtimeDefaults } from '../upstream';
import { NOOP_PROBE } from '../instrumentation/probe';
import { realClock, type Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import { BackoffManager } from './backoff';
import type { WatchErrorHandler } from './interfaces';
import { listPages } from './pager';
import {
  ErrStopRequested,
  isConnectionRefused,
  isInternalError,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
} from './reflector-errors';
import { ReflectorReporter } from './reflector-reporter';
import type { ReflectorStore } from './reflector-store';
import { RetryWithDeadline } from './retry-with-deadline';
import { DEFAULT_MIN_WATCH_TIMEOUT_MS, type ReflectorOptions } from './reflector-options';
import { StopSource, handleWatch, openWatch, type OpenWatch } from './watch-handler';
import { abortable, startResyncTimer } from './reflector-util';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import { newStore } from './store';
import {
  INITIAL_STATUS,
  next,
  pageSizeFor,
  relistResourceVersion,
  watchListResourceVersion,
  type ReflectorInput,
  type ReflectorStatus,
} from './reflector-step';

export { DEFAULT_MIN_WATCH_TIMEOUT_MS, type ReflectorOptions } from './reflector-options';

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

  /** Changed only by step(). */
  private status: ReflectorStatus = INITIAL_STATUS;
  private readonly stops = new StopSource();
  private readonly useWatchList: boolean;

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
    // As client-go: the WatchListClient gate, unless the lister-watcher says it cannot stream.
    this.useWatchList =
      options.useWatchList ??
      (runtimeDefaults().watchListClient && !doesClientNotSupportWatchListSemantics(options.listerWatcher));
  }

  get state(): ReflectorState {
    return this.status.phase;
  }

  lastSyncResourceVersion(): string {
    return this.status.lastSyncResourceVersion;
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
        this.step({ type: 'ended', reason: errorMessage(err) });
        this.watchErrorHandler?.(err);
      }
      if (signal.aborted) break;
      if (!(await this.waitBackoff(signal))) break;
    }
    this.step({ type: 'stop' });
  }

  /** One list (or WatchList) then a watch loop. Throws list and watch-establishment errors, as upstream returns them. */
  async listAndWatch(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    let w: OpenWatch<T> | undefined;
    let fallbackToList = !this.useWatchList;
    if (this.useWatchList) {
      try {
        w = await this.watchList(signal);
        if (!w) return; // stopped
      } catch (err) {
        // Making progress beats deadlocking: fall back to LIST + WATCH.
        this.report.error(err);
        fallbackToList = true;
      }
    }
    if (fallbackToList) await this.list(signal);
    if (signal.aborted) {
      w?.stream.stop();
      return;
    }
    const resync = startResyncTimer({
      clock: this.clock,
      periodMs: this.resyncPeriodMs,
      shouldResync: this.shouldResync,
      resync: () => this.store.resync(),
      onResync: (n) => this.report.resync(n),
      onError: (err) => this.stops.raise({ stop: 'resync', err }),
    });
    try {
      await this.watchLoop(signal, w);
    } finally {
      resync.cancel();
      this.stops.clear();
    }
  }

  private pageSizeFor(rv: string): number {
    return pageSizeFor(this.status, rv, this.watchListPageSize);
  }

  private watchTimeoutSeconds(): number {
    return Math.floor((this.minWatchTimeoutMs / 1000) * (this.random() + 1));
  }

  private async list(signal: AbortSignal): Promise<void> {
    const relist = this.status.listedOnce;
    this.step({ type: 'list' });
    let rv = relistResourceVersion(this.status);
    const start = this.clock.now();
    this.report.listBegin(rv, relist, this.status.reason, 'list');
    let result;
    try {
      try {
        result = await abortable(listPages(this.lw, { resourceVersion: rv }, this.pageSizeFor(rv), signal), signal);
      } catch (err) {
        if (signal.aborted || !(isResourceExpired(err) || isTooLargeResourceVersion(err))) throw err;
        // The version we asked for is gone (or not there yet): take whatever is current.
        this.report.error(err);
        this.step({ type: 'versionUnavailable' });
        rv = relistResourceVersion(this.status);
        result = await abortable(listPages(this.lw, { resourceVersion: rv }, this.pageSizeFor(rv), signal), signal);
      }
      if (result.list.kind === 'Table') throw new Error(`unsupported list gvk: ${result.list.apiVersion}/Table`);
    } catch (err) {
      if (signal.aborted) return;
      this.report.listEnd(rv, relist, start, 0, 0, undefined, errorMessage(err));
      throw new Error(`failed to list ${this.expectedGVK ?? '<unspecified>'}: ${errorMessage(err)}`, { cause: err });
    }
    if (signal.aborted) return;
    this.step({ type: 'listed', paginated: rv === '0' && result.paginated });
    const listRV = result.list.metadata.resourceVersion ?? '';
    this.syncWith(result.list.items, listRV, relist, start, result.pages, 'unable to sync list result');
  }

  private syncWith(items: T[], rv: string, relist: boolean, start: number, pages: number, what: string): void {
    let deleted: number | void;
    try {
      deleted = this.store.replace(items, rv);
    } catch (err) {
      this.report.listEnd(rv, relist, start, items.length, pages, undefined, errorMessage(err));
      throw new Error(`${what}: ${errorMessage(err)}`, { cause: err });
    }
    this.step({ type: 'synced', resourceVersion: rv });
    this.report.listEnd(rv, relist, start, items.length, pages, deleted ?? undefined);
  }

  /**
   * The WatchList initial sync: one watch with sendInitialEvents=true fed into a temporary store until
   * the initial-events-end bookmark, then store.replace. Returns the still-open stream (undefined when
   * stopped); throws when LIST should be used instead.
   */
  private async watchList(signal: AbortSignal): Promise<OpenWatch<T> | undefined> {
    const relist = this.status.listedOnce;
    for (;;) {
      if (signal.aborted) return undefined;
      // Every attempt, not only the first: a retry after a backoff leaves the backoff state.
      this.step({ type: 'list' });
      const rv = watchListResourceVersion(this.status);
      const timeoutSeconds = this.watchTimeoutSeconds();
      const options: ListOptions = {
        resourceVersion: rv,
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        timeoutSeconds,
      };
      const start = this.clock.now();
      this.report.listBegin(rv, relist, this.status.reason, 'watchList');
      let err: unknown;
      let w: OpenWatch<T> | undefined;
      const temp = newStore<T>(deletionHandlingMetaNamespaceKeyFunc);
      let resultRV = '';
      try {
        w = openWatch(await this.openStream(options, signal));
        const res = await handleWatch(w, {
          ...this.handleOptions(signal, rv, timeoutSeconds),
          store: temp,
          setResourceVersion: (v) => (resultRV = v),
          resourceVersion: () => resultRV,
          exitOnInitialEventsEnd: true,
          reportEvents: false,
        });
        if (res.err === ErrStopRequested) return undefined;
        if (res.err === undefined && res.initialEventsEnd) {
          this.step({ type: 'listed', paginated: false });
          this.syncWith(temp.list(), resultRV, relist, start, 1, 'unable to sync watch-list result');
          return w;
        }
        err = res.err;
      } catch (e) {
        if (signal.aborted) return undefined;
        err = e;
      }
      if (err === undefined) continue; // closed before the initial events were all sent: ask again
      this.report.listEnd(rv, relist, start, temp.size, 1, undefined, errorMessage(err));
      if (isConnectionRefused(err) || isTooManyRequests(err)) {
        this.report.error(err);
        if (!(await this.waitBackoff(signal))) return undefined;
        continue;
      }
      if (isResourceExpired(err) || isTooLargeResourceVersion(err)) {
        this.report.error(err);
        this.step({ type: 'versionUnavailable' });
        continue;
      }
      throw err;
    }
  }

  private openStream(options: ListOptions, signal: AbortSignal): Promise<WatchStream<T>> {
    const opening = this.lw.watch(options, signal);
    // A stream that opens after we gave up must not stay open.
    opening.then(
      (late) => signal.aborted && late.stop(),
      () => {},
    );
    return abortable(opening, signal);
  }

  private handleOptions(signal: AbortSignal, watchRV: string, timeoutSeconds: number) {
    return {
      store: this.store,
      name: this.name,
      filterGVK: this.filterGVK,
      refGVK: this.expectedGVK ?? '',
      clock: this.clock,
      report: this.report,
      signal,
      stops: this.stops,
      watchRV,
      timeoutSeconds,
      setResourceVersion: (rv: string) => this.step({ type: 'progress', resourceVersion: rv }),
      resourceVersion: () => this.status.lastSyncResourceVersion,
      reportEvents: true,
    };
  }

  /** Watches from the last RV until an exit condition; `first` is an already open (WatchList) stream. */
  private async watchLoop(signal: AbortSignal, first?: OpenWatch<T>): Promise<void> {
    const retry = new RetryWithDeadline(this.maxInternalErrorRetryDurationMs, 60_000, isInternalError, this.clock);
    let w = first;
    for (;;) {
      if (signal.aborted) {
        w?.stream.stop();
        return;
      }
      const timeoutSeconds = this.watchTimeoutSeconds();
      const rv = this.status.lastSyncResourceVersion;
      if (!w) {
        try {
          w = openWatch(
            await this.openStream({ resourceVersion: rv, timeoutSeconds, allowWatchBookmarks: true }, signal),
          );
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
      }
      this.step({ type: 'watch' });
      this.report.watchStart(rv, timeoutSeconds);
      const { err } = await handleWatch(w, this.handleOptions(signal, rv, timeoutSeconds));
      w = undefined;
      retry.after(err);
      if (err === undefined) {
        this.step({ type: 'ended', reason: 'watch closed' });
        continue;
      }
      if (err === ErrStopRequested) return;
      this.report.error(err);
      if (isResourceExpired(err)) {
        // Relist at the last RV first: a LIST at RV returns data at least that fresh.
        this.step({ type: 'ended', reason: 'watch expired (410)' });
        return;
      }
      if (isTooManyRequests(err)) {
        if (!(await this.waitBackoff(signal))) return;
        this.step({ type: 'ended', reason: '429 TooManyRequests' });
        continue;
      }
      if (isInternalError(err) && retry.shouldRetry()) {
        this.step({ type: 'ended', reason: 'retrying after internal error' });
        continue;
      }
      this.step({ type: 'ended', reason: errorMessage(err) });
      return;
    }
  }

  private async waitBackoff(signal: AbortSignal): Promise<boolean> {
    const delayMs = this.backoff.step();
    this.step({ type: 'backoff' });
    this.report.backoff(delayMs);
    try {
      await this.clock.sleep(delayMs, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** The one place the reflector's state changes; its effects are the state changes it reports. */
  private step(input: ReflectorInput): void {
    const [status, effects] = next(this.status, input);
    this.status = status;
    for (const e of effects) this.report.state(e.from, e.to, e.reason);
  }
}
