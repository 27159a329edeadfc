// The live stream: a typed socket.io server over the recorder. Each client says hello (fresh or resuming),
// gets a snapshot or the events it missed, then batches at the recorder's flush rhythm, filtered by its
// subscription. A client that cannot keep up is never buffered without bound: once its socket holds more
// than a few batches it gets only small lag summaries and a dropped count, then one fresh snapshot when
// its socket has drained. Connections, undelivered bytes and inspects are budgeted for the whole process
// (budgets.ts), so more sockets never buy more memory or CPU.
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import type { Ack, CommandResult } from '../../../shared/protocol/commands';
import type { StampedEvent } from '../../../shared/protocol/events';
import type {
  Capabilities,
  ClientToServerEvents,
  ClusterInfo,
  HelloResult,
  LagSummary,
  ServerInfo,
  ServerStatus,
  ServerToClientEvents,
  Snapshot,
} from '../../../shared/protocol/socket';
import { dict } from '../../../shared/protocol/records';
import { filterView, matchesEvent } from '../../../shared/protocol/subscription';
import type { Subscription } from '../../../shared/protocol/subscription';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import type { Recorder } from '../recorder/recorder';
import type { Clock, TimerHandle } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import type { AuthPolicy } from './auth';
import { hostAllowed, hostRefusal } from '../../net/host-check';
import { originAllowed, tokenMatches } from './auth';
import { CommandHandler } from './command-handler';
import { inspect } from './inspect';
import { jsonOnlyParser } from './json-parser';
import { busyRefusal, capAnswer, DEFAULT_INSPECT_LIMITS, type InspectLimits } from './inspect-limits';
import type { DashboardPorts } from './ports';
import { parseHello, parseSubscription } from './schemas';
import { buildStatus } from './status';
import { refuse, resolveBudgets, type Budgets } from './budgets';
import { TurnQueue } from './turn-queue';
import { corkEachTurn } from './turn-cork';
import { pressure } from './pressure';
import type { Viewer } from './step-ownership';

export interface SocketServerOptions {
  recorder: Recorder;
  auth: AuthPolicy;
  ports?: DashboardPorts;
  /** What hello reports about this server. */
  /** controllers may be a function: the set changes when `run --watch` reloads a module. */
  info: { mode: 'live' | 'replay'; cluster: ClusterInfo; controllers: string[] | (() => string[]); startedAt?: number };
  /** Default realClock. */
  clock?: Clock;
  /** Packets waiting in a client's socket before it counts as slow. Default 8 (8 batches). */
  maxBufferedPackets?: number;
  /** Bytes waiting in a client's websocket before it counts as slow. Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Above this many missed events a resume gets a snapshot instead. Default 20_000. */
  maxReplayEvents?: number;
  /** How often lagging clients are checked and sent a summary. Default 500 ms. */
  lagCheckIntervalMs?: number;
  /**
   * A client that falls behind again soon after an overflow snapshot waits this long for the next one, doubling
   * each time up to 30 times this (lag summaries meanwhile), so a client that cannot keep up costs the server
   * one snapshot per backoff instead of one per drain. Default 1000 ms.
   */
  overflowSnapshotBackoffMs?: number;
  /** Per-connection bounds on inspect answers. Default DEFAULT_INSPECT_LIMITS. */
  inspectLimits?: Partial<InspectLimits>;
  /** List caps and process-wide budgets. Default DEFAULT_BUDGETS. */
  budgets?: Partial<Budgets>;
}

type DashSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

interface Session {
  socket: DashSocket;
  viewer: Viewer;
  ready: boolean;
  /** The last seq this client was told it is at. */
  cursor: number;
  sub: Subscription;
  lagging: boolean;
  dropped: number;
  /** Overflow snapshots sent in a row (reset once the client keeps up for twice its backoff). */
  overflows: number;
  lastOverflowAt: number;
}

const KNOWN_EVENTS = new Set(['hello', 'subscribe', 'inspect', 'command']);

export interface ClientStats {
  id: string;
  ready: boolean;
  cursor: number;
  lagging: boolean;
  dropped: number;
  bufferedPackets: number;
  bufferedBytes: number;
}

export class DashboardSocketServer {
  readonly io: Server<ClientToServerEvents, ServerToClientEvents>;
  private readonly sessions = new Map<string, Session>();
  private readonly commands: CommandHandler;
  private readonly clock: Clock;
  private readonly maxPackets: number;
  private readonly maxBytes: number;
  private readonly maxReplay: number;
  private readonly lagIntervalMs: number;
  private readonly overflowBackoffMs: number;
  private readonly inspectLimits: InspectLimits;
  private readonly budgets: Budgets;
  private readonly inspects: TurnQueue;
  private readonly commandQueue: TurnQueue;
  private readonly snapshotQueue: TurnQueue;
  private statusPending = false;
  private lagTimer: TimerHandle | undefined;
  private unsubscribeBatches: (() => void) | undefined;
  private readonly cleanups: (() => void)[] = [];
  private readonly startedAt: number;

  constructor(
    httpServer: HttpServer,
    private readonly opts: SocketServerOptions,
  ) {
    this.clock = opts.clock ?? realClock;
    this.maxPackets = opts.maxBufferedPackets ?? 8;
    this.maxBytes = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.maxReplay = opts.maxReplayEvents ?? 20_000;
    this.lagIntervalMs = opts.lagCheckIntervalMs ?? 500;
    this.overflowBackoffMs = opts.overflowSnapshotBackoffMs ?? 1000;
    this.inspectLimits = { ...DEFAULT_INSPECT_LIMITS, ...opts.inspectLimits };
    this.startedAt = opts.info.startedAt ?? this.clock.now();
    this.budgets = resolveBudgets(opts.budgets);
    this.inspects = new TurnQueue({ what: 'inspect', budget: 'inspects', size: this.budgets.inspects, sliceMs: 0 });
    // Snapshots are the largest answers there are: 20 viewers saying hello at once are served one per turn.
    this.snapshotQueue = new TurnQueue({
      what: 'hello or subscribe',
      budget: 'snapshots',
      size: this.budgets.snapshots,
      sliceMs: 0,
    });
    this.commandQueue = new TurnQueue({
      what: 'command',
      budget: 'commands',
      size: this.budgets.commands,
      sliceMs: 5,
    });
    this.commands = new CommandHandler({
      recorder: opts.recorder,
      ports: opts.ports ?? {},
      cluster: opts.info.cluster,
      budgets: this.budgets,
      clock: this.clock,
      onStatusChange: () => this.broadcastStatus(),
    });
    const auth = opts.auth;
    this.io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
      serveClient: false,
      maxHttpBufferSize: 1_000_000,
      parser: jsonOnlyParser,
      allowRequest: (req, cb) => {
        if (!hostAllowed(auth.hosts, req.headers.host)) {
          cb(hostRefusal(auth.hosts, req.headers.host, 'the dashboard'), false);
          return;
        }
        const ok = originAllowed(auth, req.headers.origin, req.headers.host);
        if (!ok) return cb('cross-origin connection refused', false);
        // Transport connections that never join get closed by socket.io's connect timeout; until then they are
        // held to twice the socket budget so a flood of them cannot grow without bound.
        const engines = this.io.engine.clientsCount;
        if (engines >= 2 * this.budgets.sockets) return cb(this.socketRefusal(engines), false);
        cb(null, true);
      },
    });
    this.io.use((socket, next) => {
      const presented =
        (socket.handshake.auth as { token?: unknown } | undefined)?.token ?? socket.handshake.query.token;
      if (!tokenMatches(auth, presented)) {
        next(new Error(presented === undefined ? 'unauthorized: a token is required' : 'unauthorized: wrong token'));
      } else if (this.sessions.size >= this.budgets.sockets) next(new Error(this.socketRefusal(this.sessions.size)));
      else next();
    });
    this.io.on('connection', (socket) => this.onConnection(socket));
    this.cleanups.push(opts.recorder.onReset((reason) => this.onReset(reason)));
    const replay = opts.ports?.replay;
    if (replay?.onChange) this.cleanups.push(replay.onChange(() => this.broadcastStatus()));
    for (const name of this.controllerNames()) {
      const stepper = opts.ports?.steppers?.(name);
      if (stepper?.onChange) this.cleanups.push(stepper.onChange(() => this.broadcastStatus()));
    }
  }

  serverInfo(): ServerInfo {
    const p = this.opts.ports ?? {};
    const capabilities: Capabilities = {
      step: p.steppers !== undefined,
      requeue: p.requeuer !== undefined,
      faults: p.cluster !== undefined && p.cluster.info.writable,
      workload: p.cluster !== undefined && p.cluster.info.writable,
      replay: p.replay !== undefined,
      recording: true,
      compareCache: p.cacheComparer !== undefined,
    };
    const profiles = p.cluster?.info.writable ? p.cluster.workloadProfiles?.() : undefined;
    if (profiles && profiles.length > 0) capabilities.workloadProfiles = profiles;
    return {
      protocolVersion: PROTOCOL_VERSION,
      serverEpoch: this.opts.recorder.serverEpoch,
      mode: this.opts.info.mode,
      cluster: this.opts.info.cluster,
      controllers: this.controllerNames(),
      startedAt: this.startedAt,
      capabilities,
    };
  }

  status(): ServerStatus {
    const owners = this.commands.ownership;
    return buildStatus(this.opts.recorder, this.opts.ports ?? {}, this.controllerNames(), (s) => owners.decorate(s));
  }

  /** Bytes written to every viewer together and not yet delivered. */
  undeliveredBytes(): number {
    let total = 0;
    for (const s of this.sessions.values()) total += pressure(s.socket).bufferedBytes;
    return total;
  }

  private socketRefusal(connected: number): string {
    return refuse(
      'connection',
      'sockets',
      this.budgets.sockets,
      `${connected} sockets are connected to this process`,
      'close another dashboard tab or client and reconnect',
    ).message;
  }

  /** A refusal when all viewers together already hold the undelivered-bytes budget, else undefined. */
  private undeliveredRefusal(what: string): { ok: false; code: 'busy'; error: string } | undefined {
    const total = this.undeliveredBytes();
    if (total < this.budgets.undeliveredBytes) return undefined;
    const r = refuse(
      what,
      'undeliveredBytes',
      this.budgets.undeliveredBytes,
      `${(total / (1024 * 1024)).toFixed(1)} MiB written to viewers is not yet delivered`,
      'wait for slow viewers to catch up (or close them) and ask again',
    );
    return { ok: false, code: 'busy', error: r.message };
  }

  private controllerNames(): string[] {
    const c = this.opts.info.controllers;
    return typeof c === 'function' ? c() : c;
  }

  clientStats(): ClientStats[] {
    return [...this.sessions.values()].map((s) => ({
      id: s.socket.id,
      ready: s.ready,
      cursor: s.cursor,
      lagging: s.lagging,
      dropped: s.dropped,
      ...pressure(s.socket),
    }));
  }

  /**
   * Sends the status to every viewer once this turn of the event loop is over: a burst of commands (3,000
   * breakpoint adds) then costs one status per turn, not one per command per viewer.
   */
  broadcastStatus(): void {
    if (this.statusPending) return;
    this.statusPending = true;
    setImmediate(() => {
      this.statusPending = false;
      const status = this.status();
      for (const s of this.sessions.values()) if (s.ready) s.socket.emit('status', status);
    });
  }

  async close(): Promise<void> {
    this.lagTimer?.cancel();
    this.unsubscribeBatches?.();
    for (const c of this.cleanups) c();
    await this.io.close();
  }

  // -------------------------------------------------------------------------------------------------------------

  private onConnection(socket: DashSocket): void {
    const session: Session = {
      socket,
      viewer: { id: socket.id, name: `viewer ${socket.id.slice(0, 6)}` },
      ready: false,
      cursor: 0,
      sub: {},
      lagging: false,
      dropped: 0,
      overflows: 0,
      lastOverflowAt: 0,
    };
    this.sessions.set(socket.id, session);
    this.commands.ownership.viewerJoined(session.viewer);
    corkEachTurn(socket);
    // Only stream while somebody listens: with no clients the recorder has no batch listener from us.
    this.unsubscribeBatches ??= this.opts.recorder.onBatch((events) => this.onBatch(events));
    socket.on('disconnect', () => {
      this.sessions.delete(socket.id);
      // What this viewer held or set goes with it (unless pinned): a closed tab must not leave a controller held.
      if (this.commands.ownership.viewerLeft(socket.id).length > 0) this.broadcastStatus();
      if (this.sessions.size === 0) {
        this.unsubscribeBatches?.();
        this.unsubscribeBatches = undefined;
      }
    });
    socket.onAny((event: string) => {
      if (!KNOWN_EVENTS.has(event)) socket.emit('protocolError', { event, error: `unknown event "${event}"` });
    });
    socket.on('hello', (req, ack) => {
      if (!this.checkAck(socket, 'hello', ack)) return;
      // A snapshot is the largest answer of all: not built while the client has not read what it was sent,
      // checked when the hello arrives and again when its turn comes.
      const helloBusy = () =>
        busyRefusal(pressure(socket), this.inspectLimits, 'hello') ?? this.undeliveredRefusal('hello');
      const early = helloBusy();
      if (early) return ack({ type: 'error', error: early.error });
      const refused = this.snapshotQueue.submit(() => {
        if (!socket.connected) return;
        const busy = helloBusy();
        const res: HelloResult = busy ? { type: 'error', error: busy.error } : this.hello(session, req);
        ack(res);
        // A replay waiting for its first viewer starts once that viewer holds the opening view.
        if (res.type !== 'incompatible' && res.type !== 'error') this.opts.ports?.replay?.viewerArrived?.();
      });
      if (refused) ack({ type: 'error', error: refused.message });
    });
    socket.on('subscribe', (sub, ack) => {
      if (!this.checkAck(socket, 'subscribe', ack)) return;
      // Through the same queue as hello, so a subscribe sent after a hello is applied after it.
      const refused = this.snapshotQueue.submit(() => {
        if (socket.connected) ack(this.subscribe(session, sub));
      });
      if (refused) ack({ ok: false, code: refused.code, error: refused.message });
    });
    socket.on('inspect', (req, ack) => {
      if (!this.checkAck(socket, 'inspect', ack)) return;
      const refused = this.inspects.submit(() => {
        if (!socket.connected) return;
        const busy = busyRefusal(pressure(socket), this.inspectLimits) ?? this.undeliveredRefusal('inspect');
        ack(busy ?? capAnswer(inspect(this.opts.recorder, req), this.inspectLimits));
      });
      if (refused) ack({ ok: false, code: refused.code, error: refused.message });
    });
    socket.on('command', (cmd, ack) => {
      if (!this.checkAck(socket, 'command', ack)) return;
      const refused = this.commandQueue.submit(() => {
        if (!socket.connected) return;
        void this.commands.handle(cmd, session.viewer).then((res: Ack<CommandResult>) => ack(res));
      });
      if (refused) ack({ ok: false, code: refused.code, error: refused.message });
    });
  }

  private checkAck(socket: DashSocket, event: string, ack: unknown): ack is (...args: never[]) => void {
    if (typeof ack === 'function') return true;
    socket.emit('protocolError', { event, error: `"${event}" needs an acknowledgement callback` });
    return false;
  }

  private hello(session: Session, input: unknown): HelloResult {
    const version = (input as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (version !== PROTOCOL_VERSION) {
      return {
        type: 'incompatible',
        serverProtocolVersion: PROTOCOL_VERSION,
        error:
          typeof version === 'number'
            ? `protocol version ${version} is not supported: this server speaks ${PROTOCOL_VERSION}; reload the page`
            : `hello needs protocolVersion as a number (this server speaks ${PROTOCOL_VERSION}), got ` +
              `${version === undefined ? 'none' : `${typeof version} ${String(JSON.stringify(version)).slice(0, 40)}`}`,
      };
    }
    const parsed = parseHello(input);
    if (!parsed.ok) return { type: 'error', error: parsed.error };
    const { resume, subscription, viewer } = parsed.value;
    if (viewer) session.viewer.name = viewer.name;
    const recorder = this.opts.recorder;
    // Hand everything stamped so far to the other clients first, so this one starts from a clean cut.
    recorder.flush();
    session.sub = subscription ?? {};
    session.lagging = false;
    session.dropped = 0;
    session.ready = true;
    const server = this.serverInfo();
    const status = this.status();
    if (resume && resume.serverEpoch === recorder.serverEpoch && resume.lastSeq <= recorder.seq) {
      const missed = recorder.eventsAfter(resume.lastSeq);
      if (missed && missed.length <= this.maxReplay) {
        session.cursor = recorder.seq;
        const events = missed.filter((ev) => matchesEvent(ev, session.sub));
        return { type: 'replay', server, status, prevSeq: resume.lastSeq, seq: recorder.seq, events };
      }
    }
    session.cursor = recorder.seq;
    return { type: 'snapshot', server, status, seq: recorder.seq, view: filterView(recorder.view, session.sub) };
  }

  private subscribe(session: Session, input: unknown): Ack<{ seq: number }> {
    const parsed = parseSubscription(input);
    if (!parsed.ok) return { ok: false, code: 'invalid', error: parsed.error };
    session.sub = parsed.value;
    if (!session.ready) return { ok: true, result: { seq: session.cursor } };
    this.opts.recorder.flush();
    this.sendSnapshot(session, 'subscribe');
    return { ok: true, result: { seq: session.cursor } };
  }

  private sendSnapshot(session: Session, reason: Snapshot['reason']): void {
    const recorder = this.opts.recorder;
    const snapshot: Snapshot = {
      serverEpoch: recorder.serverEpoch,
      seq: recorder.seq,
      view: filterView(recorder.view, session.sub),
      reason,
      ...(reason === 'overflow' ? { dropped: session.dropped } : {}),
    };
    session.cursor = recorder.seq;
    session.lagging = false;
    session.dropped = 0;
    session.socket.emit('snapshot', snapshot);
  }

  private onBatch(events: StampedEvent[]): void {
    const last = events[events.length - 1];
    if (!last) return;
    const epoch = this.opts.recorder.serverEpoch;
    // Over the process-wide budget, every viewer that has anything unsent counts as slow.
    const overBudget = this.undeliveredBytes() >= this.budgets.undeliveredBytes;
    for (const s of this.sessions.values()) {
      if (!s.ready) continue;
      const fresh = events.filter((ev) => ev.seq > s.cursor && matchesEvent(ev, s.sub));
      if (s.lagging) {
        s.dropped += fresh.length;
        continue;
      }
      if (fresh.length === 0) continue;
      if (this.isSlow(s.socket) || (overBudget && pressure(s.socket).bufferedBytes > 0)) {
        if (this.clock.now() - s.lastOverflowAt > 2 * this.overflowBackoff(s)) s.overflows = 0;
        s.lagging = true;
        s.dropped += fresh.length;
        this.sendLag(s);
        this.scheduleLagCheck();
        continue;
      }
      s.socket.emit('batch', { serverEpoch: epoch, prevSeq: s.cursor, seq: last.seq, events: fresh });
      s.cursor = last.seq;
    }
  }

  private isSlow(socket: DashSocket): boolean {
    const p = pressure(socket);
    return p.bufferedPackets > this.maxPackets || p.bufferedBytes > this.maxBytes;
  }

  private sendLag(s: Session): void {
    const view = this.opts.recorder.view;
    const summary: LagSummary = {
      serverEpoch: this.opts.recorder.serverEpoch,
      seq: this.opts.recorder.seq,
      dropped: s.dropped,
      controllers: dict(),
      informers: dict(),
    };
    for (const c of Object.values(view.controllers)) {
      summary.controllers[c.name] = { ...c.depth, activeWorkers: c.activeWorkers, totalReconciles: c.totalReconciles };
    }
    for (const i of Object.values(view.informers)) {
      summary.informers[i.id] = { state: i.state, storeSize: i.storeSize, fifoLength: i.fifoLength };
    }
    // Volatile: dropped rather than queued when the socket cannot take it now, so lag itself never piles up.
    s.socket.volatile.emit('lag', summary);
  }

  private scheduleLagCheck(): void {
    if (this.lagTimer) return;
    this.lagTimer = this.clock.setTimer(() => {
      this.lagTimer = undefined;
      let still = false;
      for (const s of this.sessions.values()) {
        if (!s.lagging) continue;
        // A snapshot is the largest message there is (megabytes at thousands of keys): a client that cannot keep
        // up gets them at a widening interval, not every time its socket drains.
        if (this.isDrained(s.socket) && this.clock.now() >= s.lastOverflowAt + this.overflowBackoff(s)) {
          this.opts.recorder.flush();
          this.sendSnapshot(s, 'overflow');
          s.overflows++;
          s.lastOverflowAt = this.clock.now();
        } else {
          this.sendLag(s);
          still = true;
        }
      }
      if (still) this.scheduleLagCheck();
    }, this.lagIntervalMs);
  }

  /** How long after its last overflow snapshot a session waits for the next: none before the first. */
  private overflowBackoff(s: Session): number {
    if (s.overflows === 0) return 0;
    return Math.min(30 * this.overflowBackoffMs, this.overflowBackoffMs * 2 ** (s.overflows - 1));
  }

  private isDrained(socket: DashSocket): boolean {
    const p = pressure(socket);
    return p.bufferedPackets === 0 && p.bufferedBytes < this.maxBytes / 4;
  }

  private onReset(reason: 'seek' | 'reset'): void {
    for (const s of this.sessions.values()) if (s.ready) this.sendSnapshot(s, reason);
    this.broadcastStatus();
  }
}
