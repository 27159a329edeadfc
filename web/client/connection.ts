// The browser's end of the dashboard socket: hello (fresh, or resuming from serverEpoch + last seq), then
// batches applied in order. A gap in seqs or a new server epoch triggers a resync; a protocol mismatch stops
// reconnecting and shows the reload banner. socket.io handles transport-level reconnects; the resume logic
// here is the application-level one the tests exercise (tldraw's lastServerClock, React DevTools' handshake).
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Ack, Command, CommandResult } from '../../shared/protocol/commands';
import type {
  ClientToServerEvents,
  EventBatch,
  HelloRequest,
  HelloResult,
  InspectRequest,
  InspectResult,
  LagSummary,
  ProtocolError,
  ServerInfo,
  ServerStatus,
  ServerToClientEvents,
  Snapshot,
} from '../../shared/protocol/socket';
import { SUBSCRIBE_ALL, isSubscribeAll } from '../../shared/protocol/subscription';
import type { Subscription } from '../../shared/protocol/subscription';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { RuntimeStore } from './runtime-store';

export type DashboardSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ConnectionOptions {
  store: RuntimeStore;
  /** Server URL; default the page's origin. */
  url?: string;
  /** Token for a non-loopback server; default from the page's ?token= (then remembered in sessionStorage). */
  token?: string;
  /** Builds the socket; tests pass a fake. Default socket.io-client's io(). */
  connect?: (url: string | undefined, token: string | undefined) => DashboardSocket;
  /** Ack timeout for hello, inspect and commands, ms. Default 10000. */
  timeoutMs?: number;
  /** Wall clock. Default Date.now. */
  now?: () => number;
  /** The protocol version this client speaks (tests override it). Default PROTOCOL_VERSION. */
  protocolVersion?: number;
}

function defaultConnect(url: string | undefined, token: string | undefined): DashboardSocket {
  const opts = {
    autoConnect: false,
    reconnectionDelay: 500,
    reconnectionDelayMax: 4000,
    // Straight to a WebSocket: the default long-polling start costs three more round trips before the hello,
    // each slow when the server is busy. A network that refuses WebSockets still gets long polling.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    ...(token ? { auth: { token } } : {}),
  };
  return (url ? io(url, opts) : io(opts)) as DashboardSocket;
}

/** The parts of window tokenFromPage uses (tests pass their own). */
export interface TokenPage {
  location: { href: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
}

/**
 * The token from ?token= (remembered in sessionStorage), else the remembered one. The token is then taken out
 * of the address bar, so it is not left in history, bookmarks, screenshots or a shared link.
 */
export function tokenFromPage(page: TokenPage | undefined = typeof window === 'undefined' ? undefined : window) {
  if (!page) return undefined;
  const url = new URL(page.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      page.sessionStorage.setItem('controller-scope-token', fromUrl);
    } catch {
      // Storage can be disabled; the token then lasts for this page load only.
    }
    url.searchParams.delete('token');
    try {
      page.history.replaceState(page.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    } catch {
      // A sandboxed frame may refuse; the connection still works.
    }
    return fromUrl;
  }
  try {
    return page.sessionStorage.getItem('controller-scope-token') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Delay before asking again when the server answered hello with an error. */
const HELLO_RETRY_MS = 2000;

export class Connection {
  private readonly store: RuntimeStore;
  private readonly socket: DashboardSocket;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly protocolVersion: number;
  private server: ServerInfo | undefined;
  /** The server seq this client is at (may run ahead of view.lastSeq when a subscription filters events). */
  private seq = 0;
  private helloInFlight = false;
  /** Bumped per hello and per disconnect, so an answer to a hello from a dead connection is ignored. */
  private helloGeneration = 0;
  private attempt = 0;
  private stopped = false;
  private subscription: Subscription = SUBSCRIBE_ALL;

  constructor(opts: ConnectionOptions) {
    this.store = opts.store;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.now = opts.now ?? Date.now;
    this.protocolVersion = opts.protocolVersion ?? PROTOCOL_VERSION;
    this.socket = (opts.connect ?? defaultConnect)(opts.url, opts.token ?? tokenFromPage());
    this.socket.on('connect', () => {
      this.attempt = 0;
      this.sendHello('connected');
    });
    this.socket.on('disconnect', (reason) => {
      this.helloInFlight = false;
      this.helloGeneration++;
      if (this.stopped || this.store.getState().status.state === 'incompatible') return;
      this.store.setStatus({ state: 'disconnected', since: this.now(), error: reason, attempt: this.attempt });
      // The server closed us on purpose (restart, kick): socket.io does not retry that by itself.
      if (reason === 'io server disconnect') this.socket.connect();
    });
    this.socket.on('connect_error', (err: Error) => {
      if (this.stopped) return;
      this.attempt++;
      this.store.setStatus({ state: 'disconnected', since: this.now(), error: err.message, attempt: this.attempt });
    });
    this.socket.on('batch', (b) => this.onBatch(b));
    this.socket.on('snapshot', (s) => this.onSnapshot(s));
    this.socket.on('lag', (l) => this.onLag(l));
    this.socket.on('status', (s: ServerStatus) => this.store.setServerStatus(s));
    this.socket.on('protocolError', (e: ProtocolError) =>
      console.warn(`controller-scope: server rejected ${e.event}: ${e.error}`),
    );
  }

  start(): void {
    this.stopped = false;
    this.store.setStatus({ state: 'connecting', attempt: this.attempt });
    this.socket.connect();
  }

  stop(): void {
    this.stopped = true;
    this.socket.disconnect();
  }

  /** This viewer as the server names it on holds and breakpoints (the socket's id while connected). */
  viewerId(): string | undefined {
    return this.socket.id;
  }

  /** True when commands and inspect can reach the server now. */
  canSend(): boolean {
    const s = this.store.getState().status.state;
    return this.socket.connected && s !== 'incompatible';
  }

  get serverInfo(): ServerInfo | undefined {
    return this.server;
  }

  command<T extends Command>(cmd: T): Promise<Ack<CommandResult<T['type']>>> {
    return new Promise((resolve) => {
      if (!this.socket.connected) return resolve(this.notConnected());
      this.socket.timeout(this.timeoutMs).emit('command', cmd, (err: Error | null, res: Ack<CommandResult>) => {
        resolve(err ? this.timedOut() : (res as Ack<CommandResult<T['type']>>));
      });
    });
  }

  /**
   * Narrows what this page receives (by namespace, controller, kind, key). The server answers with a snapshot
   * of the filtered view; the subscription is re-sent on every hello, so it survives reconnects.
   */
  subscribe(sub: Subscription): Promise<Ack<{ seq: number }>> {
    this.subscription = sub;
    this.store.setSubscription(sub);
    return new Promise((resolve) => {
      if (!this.socket.connected) return resolve({ ok: true, result: { seq: this.seq } });
      this.socket.timeout(this.timeoutMs).emit('subscribe', sub, (err: Error | null, res: Ack<{ seq: number }>) => {
        resolve(err ? this.timedOut() : res);
      });
    });
  }

  inspect(req: InspectRequest): Promise<Ack<InspectResult>> {
    return new Promise((resolve) => {
      if (!this.socket.connected) return resolve(this.notConnected());
      this.socket.timeout(this.timeoutMs).emit('inspect', req, (err: Error | null, res: Ack<InspectResult>) => {
        resolve(err ? this.timedOut() : res);
      });
    });
  }

  private notConnected(): { ok: false; error: string; code: 'failed' } {
    return { ok: false, error: 'Not connected to the controller-scope server.', code: 'failed' };
  }

  private timedOut(): { ok: false; error: string; code: 'failed' } {
    return { ok: false, error: `The server did not answer within ${this.timeoutMs / 1000}s.`, code: 'failed' };
  }

  /** Asks for a snapshot or the missed events, resuming from where this client is when it can. */
  private sendHello(reason: string): void {
    if (this.helloInFlight) return;
    this.helloInFlight = true;
    const generation = ++this.helloGeneration;
    const req: HelloRequest = { protocolVersion: this.protocolVersion };
    if (this.server && this.seq > 0) req.resume = { serverEpoch: this.server.serverEpoch, lastSeq: this.seq };
    if (!isSubscribeAll(this.subscription)) req.subscription = this.subscription;
    if (reason !== 'connected') this.store.setStatus({ state: 'resyncing', reason });
    this.socket.timeout(this.timeoutMs).emit('hello', req, (err: Error | null, res: HelloResult) => {
      if (generation !== this.helloGeneration) return;
      this.helloInFlight = false;
      if (err) {
        this.store.setStatus({
          state: 'disconnected',
          since: this.now(),
          error: 'hello timed out',
          attempt: this.attempt,
        });
        this.socket.disconnect().connect();
        return;
      }
      this.onHello(res);
    });
  }

  private onHello(res: HelloResult): void {
    switch (res.type) {
      case 'snapshot':
        this.server = res.server;
        this.seq = res.seq;
        this.store.setSnapshot(res.view, res.server);
        this.store.setServerStatus(res.status);
        this.markLive();
        return;
      case 'replay':
        this.server = res.server;
        this.store.setServerStatus(res.status);
        this.store.applyBatch(res.events);
        this.seq = res.seq;
        this.markLive();
        return;
      case 'incompatible':
        this.store.setStatus({
          state: 'incompatible',
          serverVersion: res.serverProtocolVersion,
          clientVersion: this.protocolVersion,
          message: res.error,
        });
        this.stopped = true;
        this.socket.disconnect();
        return;
      case 'error':
        // The server is up but cannot answer yet (e.g. still starting): ask again shortly.
        this.attempt++;
        this.store.setStatus({ state: 'disconnected', since: this.now(), error: res.error, attempt: this.attempt });
        setTimeout(() => {
          if (!this.stopped && this.socket.connected) this.sendHello('retry');
        }, HELLO_RETRY_MS);
        return;
    }
  }

  private markLive(): void {
    const s = this.server;
    if (s?.mode === 'replay') this.store.setStatus({ state: 'replaying', source: s.cluster.name ?? 'recording' });
    else this.store.setStatus({ state: 'live' });
  }

  private onBatch(b: EventBatch): void {
    if (this.helloInFlight) return; // the hello's answer covers these; anything after it follows in order
    if (!this.server || b.serverEpoch !== this.server.serverEpoch) {
      this.sendHello('the server restarted');
      return;
    }
    if (b.prevSeq !== this.seq) {
      // A gap (or an overlap) means this view is no longer what the server's would be: resume from ours.
      if (b.seq <= this.seq) return;
      this.sendHello(`missed events ${this.seq + 1}–${b.prevSeq}`);
      return;
    }
    this.store.applyBatch(b.events);
    this.seq = b.seq;
    const st = this.store.getState().status.state;
    if (st !== 'live' && st !== 'replaying') this.markLive();
  }

  private onSnapshot(s: Snapshot): void {
    if (this.server && s.serverEpoch !== this.server.serverEpoch) {
      this.sendHello('the server restarted');
      return;
    }
    this.seq = s.seq;
    this.store.setSnapshot(s.view);
    this.markLive();
  }

  private onLag(l: LagSummary): void {
    this.store.setStatus({ state: 'lagging', dropped: l.dropped });
  }
}
