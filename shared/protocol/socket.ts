// The socket.io contract between the dashboard server and the browser. The server is typed
// Server<ClientToServerEvents, ServerToClientEvents>, the browser Socket<ServerToClientEvents,
// ClientToServerEvents>.
//
// Session: the client connects (token in handshake auth or ?token=), then sends `hello`. With no resume
// point, or one the server cannot honour (other epoch, seq evicted from the ring), the answer is a
// snapshot: the server's view at seq N, built by the same reduce() the browser runs. With a resume point
// still in the ring, the answer is the missed events. Either way the server then streams `batch`es
// (every 50-100 ms) starting after that seq. Each batch names the seq the client must be at (prevSeq) and
// the seq it is at afterwards (seq); a client that sees a gap sends `hello` again with resume.lastSeq set to
// the last `seq` it applied (from a hello answer, batch or snapshot — not view.lastSeq, which only counts
// events its subscription let through).
//
// WARNING: wire-visible. Bump PROTOCOL_VERSION on any breaking change to this file, events or the view.
import type { Ack, Command, CommandResult, ReplayState, RecordingState, StepState } from './commands';
import type { StampedEvent } from './events';
import type { ControllerName, InformerId, MetaNamespaceKey } from './ids';
import type { KubeObject } from '../models/object';
import type { Subscription } from './subscription';
import type { InformerView, KeyView, RuntimeView } from './view';

// ---------------------------------------------------------------------------------------------------------------
// Handshake

export interface HelloRequest {
  protocolVersion: number;
  /** Present on reconnect: where this client's view is. */
  resume?: { serverEpoch: string; lastSeq: number };
  subscription?: Subscription;
  /** How this viewer is named to the others on the holds and breakpoints it sets. */
  viewer?: { name: string };
}

export type HelloResult =
  | { type: 'snapshot'; server: ServerInfo; status: ServerStatus; seq: number; view: RuntimeView }
  | {
      type: 'replay';
      server: ServerInfo;
      status: ServerStatus;
      /** The resume point the events follow. */
      prevSeq: number;
      seq: number;
      events: StampedEvent[];
    }
  | { type: 'incompatible'; serverProtocolVersion: number; error: string }
  | { type: 'error'; error: string };

export interface ServerInfo {
  protocolVersion: number;
  /** Identifies this server process (or replay session); seqs are only comparable within one epoch. */
  serverEpoch: string;
  mode: 'live' | 'replay';
  cluster: ClusterInfo;
  controllers: ControllerName[];
  startedAt: number;
  capabilities: Capabilities;
}

export interface ClusterInfo {
  kind: 'sandbox' | 'envtest' | 'kubeconfig' | 'replay' | 'none';
  /** Context or recording name, for the header. */
  name?: string;
  server?: string;
  /** false against a kubeconfig cluster unless --allow-writes: faults and workload commands are refused. */
  writable: boolean;
}

export interface Capabilities {
  step: boolean;
  requeue: boolean;
  faults: boolean;
  workload: boolean;
  replay: boolean;
  recording: boolean;
  /** cache.compare: there is an API server to compare the informers' caches with. */
  compareCache?: boolean;
  /** Names the workload generator accepts in workload.set, for the dashboard's picker. */
  workloadProfiles?: string[];
}

/** State that changes by command rather than by probe events; pushed whenever it changes. */
export interface ServerStatus {
  recording: RecordingState;
  steppers: Record<ControllerName, StepState>;
  faults: { id: string; description: string; until?: number }[];
  workload?: { profile: string; ratePerSecond?: number };
  replay?: ReplayState;
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming

export interface EventBatch {
  serverEpoch: string;
  /** The seq this client was at before this batch (the previous batch's seq, or the hello's). */
  prevSeq: number;
  /** The server's seq after this batch; events may skip seqs the subscription filtered out. */
  seq: number;
  events: StampedEvent[];
}

/** A full view sent without being asked: after subscribe, after a replay seek, or once a slow client drains. */
export interface Snapshot {
  serverEpoch: string;
  seq: number;
  view: RuntimeView;
  reason: 'subscribe' | 'overflow' | 'seek' | 'reset';
  /** Events this client missed while it was too slow (reason 'overflow'). */
  dropped?: number;
}

/**
 * Sent instead of batches while a client's socket buffer is over its limit: a few coalesced numbers (latest
 * wins) so the UI stays roughly live, plus how many events it has missed. A snapshot follows once it drains.
 */
export interface LagSummary {
  serverEpoch: string;
  seq: number;
  dropped: number;
  controllers: Record<
    ControllerName,
    { ready: number; waiting: number; processing: number; activeWorkers: number; totalReconciles: number }
  >;
  informers: Record<InformerId, { state: string; storeSize: number; fifoLength: number }>;
}

// ---------------------------------------------------------------------------------------------------------------
// Inspect: pull detail on demand (push summary, pull detail)

export interface ObjectCoordinates {
  /** "v1/Pod", "apps/v1/Deployment". */
  gvk: string;
  namespace?: string;
  name: string;
}

/**
 * The most keys one cache answer carries. Keys are short strings, so a browser can list (and search) a whole
 * large cache from one answer instead of asking again per keystroke. Other inspect limits stay at 10,000.
 */
export const CACHE_KEYS_MAX = 1_000_000;

export type InspectRequest =
  | { target: 'object'; object: ObjectCoordinates }
  | { target: 'key'; controller: ControllerName; key: MetaNamespaceKey; limit?: number }
  | { target: 'informer'; informer: InformerId; limit?: number }
  /** The keys an informer's indexer holds now (the cache browser); search is a substring match. */
  /** limit: at most CACHE_KEYS_MAX. */
  | { target: 'cache'; informer: InformerId; search?: string; limit?: number }
  | { target: 'events'; subscription?: Subscription; afterSeq?: number; limit?: number };

/** One JSON-pointer change between consecutive versions of an object. */
export interface DiffOp {
  op: 'add' | 'remove' | 'replace';
  /** RFC 6901 pointer, e.g. "/status/replicas". */
  path: string;
  value?: unknown;
  old?: unknown;
}

export interface ObjectVersion {
  resourceVersion: string;
  /** When the recorder saw this version. */
  ts: number;
  /**
   * Changes from the version before it (metadata.managedFields ignored). The first version ever seen diffs
   * against nothing (one 'add' at ""); once older versions are dropped, the oldest kept one still diffs
   * against its (dropped) predecessor.
   */
  diff: DiffOp[];
  deleted?: boolean;
}

export interface ObjectInspection {
  /** The informer's cached copy now (Secret data removed); null when not cached. */
  object: KubeObject | null;
  /** Recent versions the recorder saw, oldest first. */
  versions: ObjectVersion[];
}

export type InspectResult =
  | ({ target: 'object' } & ObjectInspection)
  | { target: 'key'; key: KeyView | null; events: StampedEvent[] }
  | { target: 'informer'; informer: InformerView | null; events: StampedEvent[] }
  | {
      target: 'cache';
      informer: InformerId;
      /** Matching keys, sorted, at most limit. */
      keys: MetaNamespaceKey[];
      /** Matching keys in the store, before the limit. */
      total: number;
      /** Secondary index name → number of index values, when the informer has indexers. */
      indexes?: Record<string, number>;
    }
  | { target: 'events'; events: StampedEvent[]; firstSeq: number; lastSeq: number };

// ---------------------------------------------------------------------------------------------------------------
// Maps

/** Sent when a message could not be answered through its acknowledgement (none given, or an unknown event). */
export interface ProtocolError {
  event: string;
  error: string;
}

export interface ServerToClientEvents {
  batch: (b: EventBatch) => void;
  snapshot: (s: Snapshot) => void;
  lag: (l: LagSummary) => void;
  status: (s: ServerStatus) => void;
  protocolError: (e: ProtocolError) => void;
}

export interface ClientToServerEvents {
  hello: (req: HelloRequest, ack: (res: HelloResult) => void) => void;
  subscribe: (sub: Subscription, ack: (res: Ack<{ seq: number }>) => void) => void;
  inspect: (req: InspectRequest, ack: (res: Ack<InspectResult>) => void) => void;
  command: (cmd: Command, ack: (res: Ack<CommandResult>) => void) => void;
}
