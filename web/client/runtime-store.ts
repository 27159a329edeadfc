// The browser's copy of the runtime view, outside React (React DevTools' Store, vitest's StateManager).
// Batches go through the same shared reducer the server uses; a hello/resync replaces the view wholesale.
// Subscribers are told once per change, and the state object is replaced on every change so
// useSyncExternalStore selectors can compare by identity.
import { dictTree } from '../../shared/protocol/records';
import { reduce } from '../../shared/protocol/reduce';
import type { StampedEvent } from '../../shared/protocol/events';
import { createView } from '../../shared/protocol/view';
import type { RuntimeView } from '../../shared/protocol/view';
import type { ServerInfo, ServerStatus } from '../../shared/protocol/socket';
import type { Subscription } from '../../shared/protocol/subscription';

/** What the connection is doing, as the top bar shows it. */
export type LinkStatus =
  | { state: 'connecting'; attempt: number }
  | { state: 'live' }
  | { state: 'replaying'; source: string }
  | { state: 'resyncing'; reason: string }
  /** The server is sending coalesced summaries because this client fell behind; a snapshot follows. */
  | { state: 'lagging'; dropped: number }
  | { state: 'disconnected'; since: number; error?: string; attempt: number }
  | { state: 'incompatible'; serverVersion: number; clientVersion: number; message: string };

export interface StoreState {
  view: RuntimeView;
  /** Increments on every applied change. */
  revision: number;
  status: LinkStatus;
  server?: ServerInfo;
  /** Command-driven server state (step mode, faults, workload, recording, replay), pushed on change. */
  serverStatus?: ServerStatus;
  /** Events applied per second over the last few seconds of wall time. */
  eventsPerSecond: number;
  /** When true the panels show `view` as it was when frozen; batches still apply underneath. */
  frozen: boolean;
  /** Snapshots (hello or resync) received since load. */
  snapshots: number;
  /** What this page asked the server to send; absent means everything. */
  subscription?: Subscription;
}

export interface RuntimeStoreOptions {
  /** Wall clock for rate computation. Default Date.now. */
  now?: () => number;
  /** Initial view. Default createView(). */
  view?: RuntimeView;
  /**
   * Coalesces batch notifications to at most one per this many ms, so a busy stream re-renders the page a few
   * times a second rather than on every batch. Status changes and snapshots publish at once. Default 0 (every
   * batch, synchronously: what tests want); the browser uses 250.
   */
  publishEveryMs?: number;
}

type Listener = () => void;

const RATE_WINDOW_MS = 5000;

export class RuntimeStore {
  private state: StoreState;
  private live: RuntimeView;
  private readonly listeners = new Set<Listener>();
  private readonly now: () => number;
  private readonly arrivals: { at: number; n: number }[] = [];
  private readonly publishEveryMs: number;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: RuntimeStoreOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.publishEveryMs = opts.publishEveryMs ?? 0;
    this.live = opts.view ?? createView();
    this.state = {
      view: this.live,
      revision: 0,
      status: { state: 'connecting', attempt: 0 },
      eventsPerSecond: 0,
      frozen: false,
      snapshots: 0,
    };
  }

  getState = (): StoreState => this.state;

  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  /** The newest view, even when the display is frozen (the connection resumes from its lastSeq). */
  get liveView(): RuntimeView {
    return this.live;
  }

  /**
   * Replaces the view with a server snapshot (hello, or a resync after a gap). The snapshot arrives as parsed
   * JSON: its records are made null-prototype so panels and the reducer can index them by any name.
   */
  setSnapshot(snapshot: RuntimeView, server?: ServerInfo): void {
    const view = dictTree(snapshot);
    this.live = view;
    this.arrivals.length = 0;
    this.publish({
      view: this.state.frozen ? this.state.view : view,
      snapshots: this.state.snapshots + 1,
      ...(server ? { server } : {}),
    });
  }

  /** Applies a batch with the shared reducer; events already applied (seq ≤ lastSeq) are skipped by it. */
  applyBatch(events: readonly StampedEvent[]): void {
    if (events.length === 0) return;
    const next = reduce(this.live, events);
    if (next === this.live) return;
    this.live = next;
    this.arrivals.push({ at: this.now(), n: events.length });
    if (this.publishEveryMs <= 0) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), this.publishEveryMs);
  }

  /** Publishes the newest view now (pending throttled batches included). */
  flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.state.view === this.live || this.state.frozen) {
      if (this.state.frozen) this.publish({ eventsPerSecond: this.rate(this.now()) });
      return;
    }
    this.publish({ view: this.live, eventsPerSecond: this.rate(this.now()) });
  }

  setSubscription(subscription: Subscription): void {
    this.publish({ subscription });
  }

  setServerStatus(serverStatus: ServerStatus): void {
    this.publish({ serverStatus: dictTree(serverStatus) });
  }

  setStatus(status: LinkStatus): void {
    this.publish({ status, ...(this.state.frozen ? {} : { view: this.live }) });
  }

  setFrozen(frozen: boolean): void {
    if (frozen === this.state.frozen) return;
    this.publish({ frozen, view: this.live });
  }

  private rate(at: number): number {
    while (this.arrivals.length > 0 && (this.arrivals[0] as { at: number }).at < at - RATE_WINDOW_MS)
      this.arrivals.shift();
    const n = this.arrivals.reduce((s, a) => s + a.n, 0);
    return Math.round((n / (RATE_WINDOW_MS / 1000)) * 10) / 10;
  }

  private publish(patch: Partial<StoreState>): void {
    this.state = { ...this.state, ...patch, revision: this.state.revision + 1 };
    for (const fn of this.listeners) fn();
  }
}
