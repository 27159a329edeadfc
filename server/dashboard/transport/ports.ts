// What the dashboard can ask of the rest of the process. The transport only calls these interfaces; the
// controller, cluster and replay engineers implement them and the composition root passes them in. Any
// port left out makes its commands answer {ok:false, code:'unsupported'} with a message saying so.
import type {
  BreakpointCommand,
  FaultSpec,
  ReplaySpeed,
  ReplayState,
  StepState,
} from '../../../shared/protocol/commands';
import type { DriftReport } from '../../../shared/protocol/drift';
import type { ClusterInfo } from '../../../shared/protocol/socket';

/**
 * Step mode for one controller (implemented beside its workers). While holding, keys stay ready in the queue
 * and no worker takes one; next() lets exactly one through; breakpoints switch holding on by themselves.
 */
export interface ControllerStepper {
  /** Stop dispatching keys to workers (a reconcile already running finishes). */
  hold(): StepState;
  /** Release exactly one ready key to a worker while holding; released is that key, if one was ready. */
  next(): StepState & { released?: string };
  /** Dispatch freely again. Breakpoints stay armed. */
  resume(): StepState;
  /**
   * Add a breakpoint with these conditions, or with remove delete it (by id, or the one with the same
   * conditions), or with id and enabled switch it on or off. Throws, naming the problem, for an unknown id.
   */
  setBreakpoint(bp: BreakpointChange, remove: boolean): StepState;
  /** Dispatch freely and hold key when it is next about to reconcile. */
  runTo?(key: string): StepState;
  state(): StepState;
  /** Reports changes the stepper makes by itself (a breakpoint fired); returns an unsubscribe. */
  onChange?(listener: (state: StepState) => void): () => void;
}

/** A breakpoint command without its routing fields. */
export type BreakpointChange = Omit<BreakpointCommand, 'type' | 'controller' | 'remove' | 'pin'>;

/** Finds a controller's stepper; undefined when there is no such controller. */
export type StepperLookup = (controller: string) => ControllerStepper | undefined;

/** Enqueues a key with cause "manual" on a controller's queue. */
export interface Requeuer {
  /** false when no controller has that name. */
  requeue(controller: string, key: string): boolean | Promise<boolean>;
}

export interface ActiveFault {
  id: string;
  /** One line for the UI, e.g. "latency 300 ms on pods". */
  description: string;
  /** Epoch ms when it lifts by itself. */
  until?: number;
}

/**
 * Fault injection and workload controls of the cluster in use. The transport refuses both (code 'forbidden')
 * when info.writable is false: a kubeconfig cluster without --allow-writes.
 */
export interface ClusterControls {
  readonly info: ClusterInfo;
  /** Throws (with a clear message) for a fault this cluster cannot inject, e.g. on a real API server. */
  injectFault(fault: FaultSpec, durationMs?: number): ActiveFault | Promise<ActiveFault>;
  /** Clears one fault, or all when id is absent; the number cleared. */
  clearFaults(id?: string): number | Promise<number>;
  activeFaults(): ActiveFault[];
  /** The workload profiles setWorkload accepts; sent to browsers so they offer a list, not a text box. */
  workloadProfiles?(): string[];
  /** Throws for an unknown profile, naming the known ones. */
  setWorkload(profile: string, opts: { ratePerSecond?: number; namespace?: string }): void | Promise<void>;
  stopWorkload(): void | Promise<void>;
  workload(): { profile: string; ratePerSecond?: number } | undefined;
}

/** Playback of a recording (server/dashboard/replay implements it). */
export interface ReplayControls {
  play(speed?: ReplaySpeed): ReplayState;
  pause(): ReplayState;
  /** Rebuilds the view up to and including seq. */
  seek(seq: number): ReplayState;
  /** Moves n events forward (or back, when negative). */
  stepBy?(n: number): ReplayState;
  /** A viewer arrived: a replay waiting for one starts playing. */
  viewerArrived?(): void;
  state(): ReplayState;
  onChange?(listener: (state: ReplayState) => void): () => void;
}

/**
 * Compares an informer's cache with a fresh LIST from the API server (cache drift). Reads only. Throws,
 * naming the problem, for an informer no cache holds.
 */
export interface CacheComparer {
  compare(informer: string, opts: { pageSize: number }): Promise<DriftReport>;
}

export interface DashboardPorts {
  cacheComparer?: CacheComparer;
  steppers?: StepperLookup;
  requeuer?: Requeuer;
  cluster?: ClusterControls;
  replay?: ReplayControls;
}
