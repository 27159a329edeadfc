// A probe on one run of the controller's manager: what the settle check and the invariants need, read from
// the runtime's own events. A crashed run's monitor goes deaf, so a dying manager's last events (its queue
// shutting down, reconciles failing on the dead client) count for nothing.
import type { RuntimeEvent } from '../../shared/protocol/events';
import type { QueueDepth } from '../../shared/protocol/events-workqueue';
import type { Probe } from '../runtime';

/** A key waiting for a delay this long (a periodic RequeueAfter) does not keep the run from settling. */
export const PARKED_AFTER_MS = 1_000;

export interface MonitorHooks {
  /** Synchronously before a reconcile starts (a point may fire there). */
  reconcileStarting(controller: string, key: string): void;
  /** A reconcile ended (for the failing-key and hot-loop invariants). */
  reconcileEnded(controller: string, key: string, outcome: string, error?: string): void;
  panic(what: string): void;
}

export class RunMonitor implements Probe {
  readonly enabled = true;
  deaf = false;
  lastActivity: number;
  private running = 0;
  private readonly depths = new Map<string, QueueDepth>();
  private readonly waiting = new Map<string, { readyAt: number; cause: string }>();
  private readonly phases = new Map<string, string>();
  private readonly forKinds = new Map<string, string>();

  constructor(
    private readonly hooks: MonitorHooks,
    private readonly now: () => number = Date.now,
  ) {
    this.lastActivity = now();
  }

  emit(e: RuntimeEvent): void {
    if (this.deaf) return;
    this.lastActivity = this.now();
    switch (e.kind) {
      case 'controller.lifecycle':
        this.phases.set(e.controller, e.phase);
        if (e.forKind) this.forKinds.set(e.controller, e.forKind);
        return;
      case 'reconcile.start':
        this.running++;
        this.hooks.reconcileStarting(e.controller, e.key);
        return;
      case 'reconcile.end':
        this.running = Math.max(0, this.running - 1);
        this.hooks.reconcileEnded(e.controller, e.key, e.outcome, e.error);
        if (e.outcome === 'panic')
          this.hooks.panic(`reconcile of ${e.key} (${e.controller}) panicked: ${e.error ?? ''}`);
        return;
      case 'handler.event':
        if (e.panic) this.hooks.panic(`${e.handler} of ${e.controller} threw on a ${e.eventType} event: ${e.panic}`);
        return;
      case 'queue.addAfter':
        this.waiting.set(`${e.queue}\u0000${e.key}`, { readyAt: e.readyAt, cause: e.cause.type });
        this.depths.set(e.queue, e.depth);
        return;
      case 'queue.get':
        this.waiting.delete(`${e.queue}\u0000${e.key}`);
        this.depths.set(e.queue, e.depth);
        return;
      case 'queue.add':
      case 'queue.done':
        this.depths.set(e.queue, e.depth);
        return;
      default:
        return;
    }
  }

  /** The For kind of the first controller that reported one ("v1/ConfigMap"). */
  forKind(): string | undefined {
    return this.forKinds.values().next().value;
  }

  /** Why the controllers are not idle, or undefined when they are. */
  busy(): string | undefined {
    if (this.phases.size === 0) return 'no controller has started yet';
    for (const [c, phase] of this.phases) if (phase !== 'started') return `controller ${c} is ${phase}`;
    if (this.running > 0) return `${this.running} reconcile(s) running`;
    for (const [q, d] of this.depths) {
      if (d.ready > 0 || d.processing > 0) return `queue ${q}: ${d.ready} ready, ${d.processing} processing`;
    }
    const now = this.now();
    for (const [id, w] of this.waiting) {
      const parked = w.cause === 'requeueAfter' && w.readyAt - now > PARKED_AFTER_MS;
      if (!parked) return `${id.replace('\u0000', ' ')} waits (${w.cause}) until ${new Date(w.readyAt).toISOString()}`;
    }
    return undefined;
  }
}
