// A dashboard client for Node tests: the browser's protocol steps (web/client/connection.ts) over a real
// socket.io-client, feeding the browser's own RuntimeStore, so whatever it ends up holding is what a page
// would show. Written out here rather than imported because connection.ts reads `window` (DOM types), which
// the server typecheck does not have; the steps are the same: hello (fresh or resuming), batches applied only
// when their prevSeq is where this client is, a fresh hello with resume on a gap or a new server epoch,
// snapshots replacing the view.
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
  ServerInfo,
  ServerToClientEvents,
  ServerStatus,
  Snapshot,
} from '../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { RuntimeView } from '../../shared/protocol/view';
import { RuntimeStore } from '../../web/client/runtime-store';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What the client went through, for assertions about the path it took. */
export interface ClientStats {
  hellos: HelloResult['type'][];
  batches: number;
  batchEvents: number;
  snapshots: Snapshot['reason'][];
  gaps: number;
  lags: number;
}

export class LoopbackClient {
  readonly store = new RuntimeStore();
  readonly stats: ClientStats = { hellos: [], batches: 0, batchEvents: 0, snapshots: [], gaps: 0, lags: 0 };
  private readonly socket: ClientSocket;
  private server: ServerInfo | undefined;
  private latestStatus: ServerStatus | undefined;
  /** The server seq this client is at. */
  private seq = 0;
  private helloInFlight = false;

  constructor(url: string) {
    this.socket = io(url, { autoConnect: false, reconnection: false, forceNew: true, transports: ['websocket'] });
    this.socket.on('batch', (b) => this.onBatch(b));
    this.socket.on('snapshot', (s) => this.onSnapshot(s));
    this.socket.on('lag', () => void this.stats.lags++);
    this.socket.on('status', (s) => void (this.latestStatus = s));
  }

  get view(): RuntimeView {
    return this.store.liveView;
  }

  get at(): number {
    return this.seq;
  }

  get serverInfo(): ServerInfo | undefined {
    return this.server;
  }

  /** The server's latest status (from the hello, then every push), e.g. where a replay is. */
  get status(): ServerStatus | undefined {
    return this.latestStatus;
  }

  async connect(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
      this.socket.connect();
    });
  }

  /**
   * Says hello: from scratch (what a page does on load) or resuming from `resume` (what it does after a
   * reconnect). Resolves with the server's answer once it has been applied.
   */
  async hello(resume?: HelloRequest['resume']): Promise<HelloResult> {
    const req: HelloRequest = { protocolVersion: PROTOCOL_VERSION, ...(resume ? { resume } : {}) };
    this.helloInFlight = true;
    const res = await this.socket.timeout(10_000).emitWithAck('hello', req);
    this.helloInFlight = false;
    this.stats.hellos.push(res.type);
    if (res.type === 'snapshot' || res.type === 'replay') this.latestStatus = res.status;
    switch (res.type) {
      case 'snapshot':
        this.server = res.server;
        this.seq = res.seq;
        this.store.setSnapshot(res.view, res.server);
        break;
      case 'replay':
        this.server = res.server;
        if (res.prevSeq !== this.seq) throw new Error(`replay starts after ${res.prevSeq}, client is at ${this.seq}`);
        this.store.applyBatch(res.events);
        this.seq = res.seq;
        break;
      default:
        throw new Error(`hello refused: ${JSON.stringify(res)}`);
    }
    return res;
  }

  /** Resumes from seq 0 of this server's epoch: every event the server still holds, reduced here. */
  async helloFromZero(serverEpoch: string): Promise<HelloResult> {
    return this.hello({ serverEpoch, lastSeq: 0 });
  }

  async command<T extends Command>(cmd: T): Promise<Ack<CommandResult<T['type']>>> {
    return (await this.socket.timeout(10_000).emitWithAck('command', cmd)) as Ack<CommandResult<T['type']>>;
  }

  async inspect(req: InspectRequest): Promise<Ack<InspectResult>> {
    return (await this.socket.timeout(10_000).emitWithAck('inspect', req)) as Ack<InspectResult>;
  }

  close(): void {
    this.socket.disconnect();
  }

  private onBatch(b: EventBatch): void {
    if (this.helloInFlight) return;
    if (!this.server || b.serverEpoch !== this.server.serverEpoch) {
      void this.resync();
      return;
    }
    if (b.prevSeq !== this.seq) {
      if (b.seq <= this.seq) return;
      this.stats.gaps++;
      void this.resync();
      return;
    }
    this.stats.batches++;
    this.stats.batchEvents += b.events.length;
    this.store.applyBatch(b.events);
    this.seq = b.seq;
  }

  private onSnapshot(s: Snapshot): void {
    this.stats.snapshots.push(s.reason);
    if (this.server && s.serverEpoch !== this.server.serverEpoch) {
      void this.resync();
      return;
    }
    this.seq = s.seq;
    this.store.setSnapshot(s.view);
  }

  private async resync(): Promise<void> {
    const server = this.server;
    await this.hello(server && this.seq > 0 ? { serverEpoch: server.serverEpoch, lastSeq: this.seq } : undefined);
  }
}
