// WATCH fan-out: apiserver pkg/storage/cacher/cacher.go + cache_watcher.go. Each watcher starts from a
// resourceVersion (replaying the event log), from synthetic ADDED events (list-then-watch in one
// stream, WatchList's initial-events-end bookmark), judges every change against its selectors on the
// old and the new state, and gets periodic bookmarks and a deadline. The fault injector may stall a watcher
// (it drops what it would send, keeping the connection open) and later let it catch up from history.
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import type { TimerHandle } from '../../runtime';
import { grOf, type SandboxContext } from './context';
import { waitForResourceVersion } from './list';
import { apiVersionOf, withTypeMeta, type ResourceType } from './resources';
import type { StoredEvent } from './storage';
import { isStatusError, newTooLargeResourceVersion } from './status-errors';

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export interface WatchSink {
  send(event: WatchEvent): void;
  end(): void;
}

export interface WatchSpec {
  type: ResourceType;
  namespace?: string;
  matches: (o: KubeObject) => boolean;
  resourceVersion?: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  timeoutMs?: number;
}

export interface WatchHandle {
  readonly gr: string;
  stop(): void;
  readonly stopped: boolean;
}

/** What fault targets are matched against: the watched type and its namespace scope. */
export interface WatchInfo {
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
  /** Absent for a watch across all namespaces (or of a cluster-scoped type). */
  readonly namespace?: string;
}

export interface WatchHubOptions {
  /** Period of BOOKMARK events for watchers that allow them; default 60 s (kube-apiserver's ~1 min). */
  bookmarkIntervalMs?: number;
}

class Watcher implements WatchHandle, WatchInfo {
  stopped = false;
  readonly gr: string;
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly namespace?: string;
  /** A stalled watcher drops what it would send; history, not memory, holds what it missed. */
  stalled = false;
  /** Events of this type were dropped while stalled: catch up from `position` when the stall lifts. */
  private missed = false;
  /** The synthetic initial events were dropped: history cannot replay them, so the stream must end. */
  private lostInitial = false;
  /** The newest revision of this type the client has been brought up to. */
  private position = 0;
  private unsubscribe: () => void = () => {};
  private readonly timers: TimerHandle[] = [];
  /** Live events at or below this RV were already covered by the start position. */
  private floorRv = 0;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly spec: WatchSpec,
    private readonly sink: WatchSink,
    private readonly onStop: (w: Watcher) => void,
  ) {
    this.gr = grOf(spec.type);
    this.group = spec.type.group;
    this.resource = spec.type.resource;
    this.namespaced = spec.type.namespaced;
    if (spec.type.namespaced && spec.namespace) this.namespace = spec.namespace;
  }

  async run(bookmarkIntervalMs: number): Promise<void> {
    const { spec, ctx } = this;
    if (spec.timeoutMs !== undefined) this.timers.push(ctx.clock.setTimer(() => this.stop(), spec.timeoutMs));
    const rv = spec.resourceVersion;
    const legacyInitial = spec.sendInitialEvents === undefined && (rv === undefined || rv === '0');
    const initial = spec.sendInitialEvents === true || legacyInitial;
    if (rv !== undefined && rv !== '0' && Number(rv) > ctx.storage.currentRv && spec.sendInitialEvents === true) {
      if (!(await waitForResourceVersion(ctx, Number(rv)))) {
        this.fail(newTooLargeResourceVersion(rv, String(ctx.storage.currentRv)).toStatus());
        return;
      }
    }
    if (this.stopped) return;
    try {
      if (initial) {
        this.floorRv = ctx.storage.currentRv;
        this.position = this.floorRv;
        if (this.stalled) this.lostInitial = true;
        this.unsubscribe = ctx.storage.subscribe((e) => this.onEvent(e));
        const { items } = ctx.storage.list(this.gr, {
          ...(spec.type.namespaced && spec.namespace ? { namespace: spec.namespace } : {}),
          readOnly: true,
        });
        for (const o of items) if (spec.matches(withTypeMeta(o, spec.type))) this.emit('ADDED', o);
        if (spec.allowWatchBookmarks) this.bookmark(true);
      } else {
        const from = rv === undefined || rv === '0' ? ctx.storage.currentRv : Number(rv);
        const backlog = ctx.storage.eventsSince(Math.min(from, ctx.storage.currentRv), this.gr);
        this.floorRv = Math.max(from, ctx.storage.currentRv);
        this.position = from;
        this.unsubscribe = ctx.storage.subscribe((e) => this.onEvent(e));
        for (const e of backlog) if (e.rv > from) this.handle(e);
      }
    } catch (e) {
      if (isStatusError(e)) {
        this.fail(e.toStatus());
        return;
      }
      throw e;
    }
    if (spec.allowWatchBookmarks && bookmarkIntervalMs > 0) this.scheduleBookmark(bookmarkIntervalMs);
  }

  private scheduleBookmark(ms: number): void {
    this.timers.push(
      this.ctx.clock.setTimer(() => {
        if (this.stopped) return;
        this.bookmark(false);
        this.scheduleBookmark(ms);
      }, ms),
    );
  }

  private onEvent(e: StoredEvent): void {
    if (this.stopped || e.gr !== this.gr || e.rv <= this.floorRv) return;
    this.handle(e);
  }

  private handle(e: StoredEvent): void {
    if (this.stalled) {
      this.missed = true;
      return;
    }
    this.deliver(e);
    this.position = e.rv;
  }

  /** Stops sending; what happens meanwhile is dropped, not buffered. */
  stall(): void {
    this.stalled = true;
  }

  /**
   * Resumes sending. Missed changes are replayed from history, as if the stuck connection had drained;
   * when history no longer reaches back that far the client gets 410 Expired and must relist.
   */
  unstall(): void {
    if (!this.stalled || this.stopped) return;
    this.stalled = false;
    if (this.lostInitial) {
      this.stop();
      return;
    }
    if (!this.missed) return;
    this.missed = false;
    try {
      for (const e of this.ctx.storage.eventsSince(this.position, this.gr)) this.handle(e);
      // Commits still being dispatched are in the log already and were replayed just now.
      this.floorRv = Math.max(this.floorRv, this.ctx.storage.currentRv);
    } catch (e) {
      if (!isStatusError(e)) throw e;
      this.fail(e.toStatus());
    }
  }

  private inScope(o: KubeObject | undefined): boolean {
    if (!o) return false;
    if (this.spec.type.namespaced && this.spec.namespace && o.metadata.namespace !== this.spec.namespace) return false;
    return this.spec.matches(withTypeMeta(o, this.spec.type));
  }

  private deliver(e: StoredEvent): void {
    if (e.type === 'ADDED') {
      if (this.inScope(e.object)) this.emit('ADDED', e.object);
      return;
    }
    if (e.type === 'DELETED') {
      if (this.inScope(e.prev)) this.emit('DELETED', e.object);
      return;
    }
    const was = this.inScope(e.prev);
    const is = this.inScope(e.object);
    if (was && is) this.emit('MODIFIED', e.object);
    else if (is) this.emit('ADDED', e.object);
    else if (was) {
      // Leaving the selection looks like a deletion carrying the previous state at the new revision.
      const prev = structuredClone(e.prev as KubeObject);
      prev.metadata.resourceVersion = String(e.rv);
      this.emit('DELETED', prev);
    }
  }

  private emit(type: WatchEvent['type'], obj: KubeObject): void {
    if (this.stopped || this.stalled) return;
    this.sink.send({ type, object: withTypeMeta(obj, this.spec.type) });
  }

  private bookmark(initialEnd: boolean): void {
    if (this.stalled) return;
    const metadata: KubeObject['metadata'] = { resourceVersion: String(this.ctx.storage.currentRv) };
    if (initialEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
    this.sink.send({
      type: 'BOOKMARK',
      object: { kind: this.spec.type.kind, apiVersion: apiVersionOf(this.spec.type), metadata },
    });
  }

  fail(status: KubeStatus): void {
    if (!this.stopped) this.sink.send({ type: 'ERROR', object: status });
    this.stop();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    for (const t of this.timers) t.cancel();
    this.onStop(this);
    this.sink.end();
  }
}

/** Every open watch of the sandbox; the fault injector and CRD removal close them. */
export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly bookmarkIntervalMs: number;

  private stallPolicy: ((w: WatchInfo) => boolean) | undefined;

  constructor(
    private readonly ctx: SandboxContext,
    opts: WatchHubOptions = {},
  ) {
    this.bookmarkIntervalMs = opts.bookmarkIntervalMs ?? 60_000;
  }

  /** Starts a watch; synthetic and backlog events are sent before this resolves. */
  async start(spec: WatchSpec, sink: WatchSink): Promise<WatchHandle> {
    const w = new Watcher(this.ctx, spec, sink, (x) => this.watchers.delete(x));
    this.watchers.add(w);
    if (this.stallPolicy?.(w)) w.stall();
    await w.run(this.bookmarkIntervalMs);
    return w;
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Open watches that are stalled right now. */
  get stalled(): number {
    let n = 0;
    for (const w of this.watchers) if (w.stalled) n++;
    return n;
  }

  /** Ends every open stream normally (clients re-watch from their last resourceVersion). */
  closeAll(): number {
    const all = [...this.watchers];
    for (const w of all) w.stop();
    return all.length;
  }

  /**
   * Ends the matching streams; with a status they first get it as an ERROR event (410 Expired makes a
   * reflector relist). Returns how many ended.
   */
  closeMatching(match: (w: WatchInfo) => boolean, status?: KubeStatus): number {
    let n = 0;
    for (const w of [...this.watchers]) {
      if (!match(w)) continue;
      n++;
      if (status) w.fail(status);
      else w.stop();
    }
    return n;
  }

  /**
   * Which watches (open and future) are stalled; undefined stalls none. Watches no longer selected catch
   * up at once. Returns how many open watches are stalled now.
   */
  setStallPolicy(policy: ((w: WatchInfo) => boolean) | undefined): number {
    this.stallPolicy = policy;
    let n = 0;
    for (const w of [...this.watchers]) {
      if (policy?.(w)) {
        w.stall();
        n++;
      } else w.unstall();
    }
    return n;
  }

  closeGroupResource(gr: string): void {
    for (const w of [...this.watchers]) if (w.gr === gr) w.stop();
  }
}
