// The context each reconcile runs with: upstream's reconcileHandler derives it from the controller's ctx
// (with a deadline when ReconciliationTimeout is set) and cancels it when Reconcile returns. Here its
// AbortSignal is only built when the reconciler reads it: Node's AbortController costs about 15 µs to build,
// listen to and abort, more than the rest of a cheap reconcile, and most reconcilers never look. A signal
// first read after the reconcile was aborted or returned comes back already aborted with the same reason,
// so nothing a reconciler can observe differs from an eager child signal.
import { allowManyListeners, DeadlineExceededError } from '../util/context';
import type { Clock, TimerHandle } from '../util/clock';

export class ReconcileSignal {
  private controller?: AbortController;
  private abortReason: unknown;
  private isAborted = false;
  /** Aborted by cancel(): the reason is "context canceled", built on first read. */
  private canceled = false;
  private timer?: TimerHandle;

  constructor(
    private readonly scope: ReconcileSignals,
    /** @internal */
    readonly parent: AbortSignal | undefined,
    private readonly onAbort: (ctx: ReconcileSignal) => void,
  ) {}

  /** The reconcile's AbortSignal, created on first read. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      allowManyListeners(this.controller.signal);
      if (this.isAborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.isAborted;
  }

  get reason(): unknown {
    // A returned reconcile's "context canceled" is built when first asked for: an Error captures a stack
    // trace, about 3 µs, and hardly anyone looks.
    if (this.canceled && this.abortReason === undefined) this.abortReason = new Error('context canceled');
    return this.abortReason;
  }

  /** @internal */
  armDeadline(clock: Clock, timeoutMs: number): void {
    this.timer = clock.setTimer(() => this.abort(new DeadlineExceededError()), timeoutMs);
  }

  /** Parent stopped or deadline passed while the reconcile runs: tells the controller, then the reconciler. */
  abort(reason: unknown): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.abortReason = reason;
    this.onAbort(this);
    this.controller?.abort(reason);
  }

  /** The reconcile returned: context.CancelFunc, which does not count as an abort the controller watches. */
  cancel(): void {
    if (!this.isAborted) {
      this.isAborted = true;
      this.canceled = true;
      this.controller?.abort(this.reason);
    }
    this.timer?.cancel();
    this.scope.release(this);
  }
}

/**
 * The reconciles of one controller in flight: one listener on the controller's signal for all of them
 * instead of one per reconcile (adding and removing a listener costs about 1 µs).
 */
export class ReconcileSignals {
  private readonly live = new Set<ReconcileSignal>();
  private readonly watched = new WeakSet<AbortSignal>();

  constructor(private readonly clock: Clock) {}

  /** A context for one reconcile; onAbort runs if the parent aborts or the deadline passes before cancel(). */
  open(parent: AbortSignal | undefined, timeoutMs: number, onAbort: (ctx: ReconcileSignal) => void): ReconcileSignal {
    const ctx = new ReconcileSignal(this, parent, onAbort);
    if (parent?.aborted) {
      ctx.abort(parent.reason);
      return ctx;
    }
    if (parent && !this.watched.has(parent)) {
      this.watched.add(parent);
      parent.addEventListener('abort', () => this.abortAll(parent), { once: true });
    }
    this.live.add(ctx);
    if (timeoutMs > 0) ctx.armDeadline(this.clock, timeoutMs);
    return ctx;
  }

  /** @internal */
  release(ctx: ReconcileSignal): void {
    this.live.delete(ctx);
  }

  private abortAll(parent: AbortSignal): void {
    for (const ctx of [...this.live]) if (ctx.parent === parent) ctx.abort(parent.reason);
  }
}
