// Events about processes the dashboard attaches to (a Go controller-runtime manager streaming through the
// bridge module), and the bridge's own hello. Wire-stable: add new kinds and optional fields, never rename.
import type { BridgeDropCause } from './bridge-limits';

/** The attach side's view of one attached process: connected, reconnected after a gap, or gone. */
export interface BridgeProcessEvent {
  kind: 'bridge.process';
  /** The process identity its hello gave (by default hostname and pid). */
  process: string;
  /** Where the dashboard reaches it, host:port. */
  address: string;
  phase: 'connected' | 'resumed' | 'gone';
  /** Why it is gone, or what a resume could not recover. */
  reason?: string;
  /**
   * Events the process emitted that the dashboard never received: before a reconnect, or (on the first
   * connect) already evicted from the process's buffer. While any were missed, the view is incomplete.
   */
  missed?: number;
}

/**
 * The bridge dropped events because its bounded buffer was full (no reader, or a slow one): the reconciler
 * never waits for the dashboard. Sent once the buffer has room again. The attach side sends it too, with a
 * cause, for what it dropped itself.
 */
export interface BridgeDroppedEvent {
  kind: 'bridge.dropped';
  process: string;
  /** Dropped since the previous bridge.dropped. */
  dropped: number;
  /** Dropped since the process started. */
  total: number;
  /**
   * Set when the dashboard dropped them, not the process: which of its limits (bridge-limits.ts) the
   * process passed. Then dropped and total count what the dashboard dropped for that cause.
   */
  cause?: BridgeDropCause;
  /** The size of that limit, when it has one. */
  cap?: number;
}

/** What a bridge answers on its hello endpoint before it streams events. */
export interface BridgeHello {
  protocolVersion: number;
  /** Identifies this process; events' seqs are only comparable within one epoch. */
  epoch: string;
  process: string;
  /** The controller-runtime version the process was built with, when known. */
  controllerRuntime?: string;
  controllers: string[];
  /** The highest seq the process has stamped so far. */
  seq: number;
  /** The oldest seq still in its buffer (a resume from before it misses events). */
  firstSeq: number;
  /** Events dropped since the process started. */
  dropped: number;
  /** Controllers whose queue wrapper accepts step and requeue commands. */
  steppable: string[];
}

export type BridgeEvent = BridgeProcessEvent | BridgeDroppedEvent;
