// What a browser may ask the server to do. Every command is answered with an Ack: {ok:true,result} or
// {ok:false,error}. The server validates each one (it arrives from the network) before acting; the
// validator lives server-side (zod), these types are the contract both sides compile against.
//
// WARNING: wire-visible. `type` strings are stable: add new commands, never rename one.
import type { DriftReport } from './drift';
import type { ControllerName, InformerId, MetaNamespaceKey } from './ids';
import type { ReconcileOutcome } from './events-controller';

/**
 * Pause or resume writing the server's --record file. Viewers' streams never stop for it (each viewer records
 * its own span with GET /api/recording); refused when the server writes no file.
 */
export interface RecordingCommand {
  type: 'recording.pause' | 'recording.resume';
}

/**
 * Step mode for one controller: 'hold' stops dispatching queued keys to workers, 'next' releases exactly one,
 * 'resume' dispatches freely again (breakpoints stay armed).
 *
 * A hold belongs to the viewer who set it (or whose breakpoint fired): it is released when that viewer
 * disconnects unless pinned, and another viewer's hold, next or resume is refused (code 'conflict') unless it
 * says takeOver: true.
 */
export interface StepCommand {
  type: 'step.hold' | 'step.next' | 'step.resume';
  controller: ControllerName;
  /** Act on a controller another viewer holds, becoming its holder (or, for resume, releasing it). */
  takeOver?: boolean;
  /** With hold: keep holding after this viewer disconnects. */
  pin?: boolean;
}

/** What a breakpoint waits for after a reconcile: one outcome, or any of error, terminalError and panic. */
export type BreakOutcome = ReconcileOutcome | 'anyError';

/**
 * Adds, removes or toggles a breakpoint. Without id it adds one with the conditions given (every condition
 * must hold): before a reconcile of a matching key (key alone, or with minAttempt), or after a reconcile that
 * ended with outcome. With id: remove deletes it, enabled switches it on or off.
 */
export interface BreakpointCommand {
  type: 'step.breakpoint';
  controller: ControllerName;
  /** A queue key, or a pattern where "*" matches any run of characters. */
  key?: MetaNamespaceKey;
  /** Break after any reconcile that returns an error (outcome 'anyError'). */
  onError?: boolean;
  /** Break after a reconcile that ended this way. */
  outcome?: BreakOutcome;
  /** Only from this attempt on (1 = first try). */
  minAttempt?: number;
  /** The breakpoint to remove or toggle, as listed in StepState.list. */
  id?: string;
  /** Removes the breakpoint (by id, or the one with the same conditions) instead of adding one. */
  remove?: boolean;
  /** With id: enable or disable it. */
  enabled?: boolean;
  /** When adding: keep it after this viewer disconnects (otherwise it is removed then). */
  pin?: boolean;
}

/** Resume dispatching and hold the key when it is next about to reconcile (a one-shot breakpoint). */
export interface RunToCommand {
  type: 'step.runTo';
  controller: ControllerName;
  key: MetaNamespaceKey;
  /** Resume a controller another viewer holds to do it (see StepCommand). */
  takeOver?: boolean;
  /** Keep the one-shot breakpoint (and the hold it makes) after this viewer disconnects. */
  pin?: boolean;
}

/**
 * Enqueue a key now, with cause "manual" (controller-runtime's queue.Add). Write-like: the reconcile it
 * causes writes for real, so it is refused (code 'forbidden') against a read-only kubeconfig cluster.
 */
export interface RequeueCommand {
  type: 'requeue';
  controller: ControllerName;
  key: MetaNamespaceKey;
}

/** Which requests a fault applies to. Absent fields match everything. */
export interface FaultTarget {
  /** Resource plural, e.g. "pods"; with group for non-core, e.g. "widgets.demo.io". */
  resource?: string;
  namespace?: string;
  verbs?: ('get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete')[];
}

export type FaultSpec =
  /** End open watches with 410 Gone (and compact history) so reflectors must relist. */
  | ({ kind: 'expireWatches' } & FaultTarget)
  /** Close open watches cleanly, as an apiserver restart or a load balancer would. */
  | ({ kind: 'closeWatches' } & FaultTarget)
  /** Add latency to matching requests. */
  | ({ kind: 'latency'; ms: number } & FaultTarget)
  /** Fail a share of matching requests with an HTTP status (500, 429, 503...). */
  | ({ kind: 'errors'; rate: number; code: number } & FaultTarget)
  /** Answer a share of matching writes with 409 Conflict. */
  | ({ kind: 'conflicts'; rate: number } & FaultTarget)
  /** Stop delivering watch events (the connection stays open): a silently stuck watch. */
  | ({ kind: 'stallWatches' } & FaultTarget);

export interface FaultInjectCommand {
  type: 'fault.inject';
  fault: FaultSpec;
  /** Lifts the fault automatically after this long. Absent: until cleared. */
  durationMs?: number;
}

export interface FaultClearCommand {
  type: 'fault.clear';
  /** The id fault.inject returned; absent clears every fault. */
  id?: string;
}

/** Object churn: a named profile of the workload generator, optionally at a given rate. */
export interface WorkloadSetCommand {
  type: 'workload.set';
  profile: string;
  ratePerSecond?: number;
  namespace?: string;
}

export interface WorkloadStopCommand {
  type: 'workload.stop';
}

/** Replay only: play at 1x, 10x or as fast as possible (default: the current speed). */
export interface ReplayPlayCommand {
  type: 'replay.play';
  speed?: ReplaySpeed;
}

export interface ReplayPauseCommand {
  type: 'replay.pause';
}

export interface ReplaySeekCommand {
  type: 'replay.seek';
  /** Rebuild the view from the start of the recording up to and including this seq. */
  seq: number;
}

/** Replay only: move this many events forward (or back, when negative), one batch at a time. */
export interface ReplayStepCommand {
  type: 'replay.step';
  by: number;
}

export type ReplaySpeed = 1 | 10 | 'max';

/**
 * Compare an informer's cache with the API server: a fresh LIST (in pages of pageSize) diffed against the
 * indexer. Reads only; affects no one else.
 */
export interface CacheCompareCommand {
  type: 'cache.compare';
  informer: InformerId;
  /** Items per LIST page. Default 500. */
  pageSize?: number;
}

export type Command =
  | RecordingCommand
  | StepCommand
  | BreakpointCommand
  | RunToCommand
  | RequeueCommand
  | FaultInjectCommand
  | FaultClearCommand
  | WorkloadSetCommand
  | WorkloadStopCommand
  | ReplayPlayCommand
  | ReplayPauseCommand
  | ReplaySeekCommand
  | CacheCompareCommand
  | ReplayStepCommand;

export type CommandType = Command['type'];

/** What a successful command answers with. */
export interface CommandResultMap {
  'recording.pause': { recording: RecordingState };
  'recording.resume': { recording: RecordingState };
  'step.hold': StepState;
  'step.next': StepState & { released?: MetaNamespaceKey };
  'step.resume': StepState;
  'step.breakpoint': StepState;
  'step.runTo': StepState;
  requeue: { controller: ControllerName; key: MetaNamespaceKey };
  'fault.inject': { id: string };
  'fault.clear': { cleared: number };
  'workload.set': { profile: string; ratePerSecond?: number };
  'workload.stop': Record<string, never>;
  'replay.play': ReplayState;
  'replay.pause': ReplayState;
  'replay.seek': ReplayState;
  'cache.compare': DriftReport;
  'replay.step': ReplayState;
}

export type CommandResult<T extends CommandType = CommandType> = CommandResultMap[T];

/** The answer to every request that takes an acknowledgement. */
export type Ack<T> = { ok: true; result: T } | { ok: false; error: string; code?: AckErrorCode };

/**
 * Machine-readable reasons, beside the human message:
 * invalid (malformed), unsupported (no such capability here), forbidden (refused by policy, e.g. writes
 * to a kubeconfig cluster without --allow-writes), notFound, failed (the action threw), incompatible,
 * busy (a connection or process-wide budget is spent for now; the message names the budget and its size),
 * tooLarge (the answer is over the size cap), tooMany (a list the client grows is at its cap, named in the
 * message), conflict (another viewer holds the controller; say takeOver to act on it).
 */
export type AckErrorCode =
  | 'invalid'
  | 'unsupported'
  | 'forbidden'
  | 'notFound'
  | 'failed'
  | 'incompatible'
  | 'busy'
  | 'tooLarge'
  | 'tooMany'
  | 'conflict';

export interface RecordingState {
  /** The --record file is paused (events skipped, then a gap marker), or the recorder itself was paused. */
  paused: boolean;
  /** Events dropped while paused are not counted; this counts what the ring evicted for space. */
  evicted: number;
  /** --record file being written, if any. */
  file?: string;
}

/** One breakpoint as the stepper lists it. */
export interface StepBreakpoint {
  id: string;
  enabled: boolean;
  key?: MetaNamespaceKey;
  outcome?: BreakOutcome;
  minAttempt?: number;
  /** Removed when it fires (run to a key). */
  once?: boolean;
  /** Times it fired. */
  hits: number;
  /** The viewers who set it (the same conditions set twice share one entry's owners). */
  owners?: StepOwner[];
}

/** A viewer who set a hold or a breakpoint. */
export interface StepOwner {
  /** The viewer's connection id (the browser's socket id). */
  viewer: string;
  /** What the viewer called itself in hello, or a name made from its id. */
  name: string;
  /** Kept when the viewer disconnects. */
  pinned: boolean;
  /** false once the viewer has disconnected (only a pinned hold or breakpoint outlives it). */
  connected: boolean;
  /** Epoch ms it was set. */
  since: number;
}

/** A controller's step-mode state, as the ControllerStepper reports it. */
export interface StepState {
  controller: ControllerName;
  holding: boolean;
  /**
   * Keys ready but held back from workers, plus keys held at a breakpoint, when the state was taken. The
   * queue moves on without a status push: a live view counts ready keys from its own depth instead.
   */
  held: number;
  /** Key breakpoints and whether an error breakpoint exists: the summary older clients read. */
  breakpoints: { keys: MetaNamespaceKey[]; onError: boolean };
  /** Every breakpoint, with its conditions, id and state. */
  list?: StepBreakpoint[];
  /** Who holds the controller, while holding and known (set by hold, or the owner of the breakpoint that fired). */
  holder?: StepOwner;
  /** Keys a worker took and holds at a breakpoint, with that worker. */
  holders?: { key: MetaNamespaceKey; worker: number }[];
  /** The key the last step (or release) let through to a worker. */
  lastReleased?: { key: MetaNamespaceKey; worker: number };
  /** Set when a breakpoint fired: what it stopped on. */
  pausedAt?: {
    key: MetaNamespaceKey;
    reason: 'key' | 'error' | 'hold' | 'breakpoint';
    breakpoint?: string;
    outcome?: ReconcileOutcome;
  };
}

export type ReplayMarkKind = '410' | 'relist' | 'error' | 'hotLoop';

/** A notable moment of the recording, for the timeline. */
export interface ReplayMark {
  seq: number;
  ts: number;
  kind: ReplayMarkKind;
  text: string;
}

export interface ReplayState {
  playing: boolean;
  speed: ReplaySpeed;
  /** Last seq delivered. */
  seq: number;
  firstSeq: number;
  lastSeq: number;
  /** Recording time of the last delivered event, and the recording's span. */
  ts: number;
  firstTs: number;
  lastTs: number;
  finished: boolean;
  /** Waiting for the first viewer before playing (a replay never runs to its end unwatched). */
  waitingForViewer?: boolean;
  /** Notable moments over the whole recording (thinned to a few hundred), oldest first. */
  marks?: ReplayMark[];
}
