// The controller's step mode (no upstream counterpart): lets the dashboard hold the dispatch of queued
// requests to workers, release them one at a time, and pause on a key or on the first error. Items held
// by step mode stay in the queue, where the UI can see them; only a key breakpoint holds a taken item.

export interface Breakpoint {
  /** Pause when this queue key is taken by a worker. */
  key?: string;
  /** Pause dispatch after any reconcile that ends in an error (or panic). */
  onError?: boolean;
}

export interface StepperState {
  stepMode: boolean;
  /** What the last breakpoint stopped on (cleared when dispatch resumes). */
  pausedAt?: { key: string; reason: 'key' | 'error' };
  /** Dispatches granted by step() and not yet used. */
  permits: number;
  /** Workers waiting for a permit. */
  waitingWorkers: number;
  /** Keys a worker took and holds because a key breakpoint hit. */
  held: string[];
  breakpoints: Breakpoint[];
}

/** The surface the dashboard's ControllerStepper port drives. */
export interface ControllerStepper {
  enableStepMode(): void;
  disableStepMode(): void;
  /** Lets n more items through to workers. */
  step(n?: number): void;
  setBreakpoint(bp: Breakpoint): void;
  /** Removes breakpoints equal to bp (same key, or the onError one). */
  removeBreakpoint(bp: Breakpoint): void;
  clearBreakpoints(): void;
  state(): StepperState;
  /** Called on every state change; returns an unsubscribe function. */
  onChange(fn: (s: StepperState) => void): () => void;
}

interface Waiter {
  resolve: () => void;
  key?: string;
}

export class Stepper implements ControllerStepper {
  private stepMode = false;
  private permits = 0;
  private breakpoints: Breakpoint[] = [];
  private pausedAt?: { key: string; reason: 'key' | 'error' };
  private readonly waiters: Waiter[] = [];
  private readonly listeners = new Set<(s: StepperState) => void>();

  enableStepMode(): void {
    if (this.stepMode) return;
    this.stepMode = true;
    this.permits = 0;
    this.changed();
  }

  disableStepMode(): void {
    this.stepMode = false;
    this.permits = 0;
    this.pausedAt = undefined;
    for (const w of this.waiters.splice(0)) w.resolve();
    this.changed();
  }

  step(n = 1): void {
    if (!this.stepMode || n <= 0) return;
    this.permits += Math.floor(n);
    this.grant();
    this.changed();
  }

  setBreakpoint(bp: Breakpoint): void {
    if (bp.key === undefined && !bp.onError) throw new Error('a breakpoint needs a key or onError');
    this.breakpoints.push({ ...bp });
    this.changed();
  }

  removeBreakpoint(bp: Breakpoint): void {
    this.breakpoints = this.breakpoints.filter((b) =>
      bp.key !== undefined ? b.key !== bp.key : !(bp.onError && b.onError && b.key === undefined),
    );
    this.changed();
  }

  clearBreakpoints(): void {
    this.breakpoints = [];
    this.changed();
  }

  state(): StepperState {
    return {
      stepMode: this.stepMode,
      ...(this.pausedAt ? { pausedAt: { ...this.pausedAt } } : {}),
      permits: this.permits,
      waitingWorkers: this.waiters.filter((w) => w.key === undefined).length,
      held: this.waiters.filter((w) => w.key !== undefined).map((w) => w.key as string),
      breakpoints: this.breakpoints.map((b) => ({ ...b })),
    };
  }

  onChange(fn: (s: StepperState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * A worker asks to take the next item. Resolves at once outside step mode (false), or when a permit is
   * granted (true), or when signal aborts.
   */
  async beforeGet(signal: AbortSignal): Promise<boolean> {
    if (!this.stepMode) return false;
    if (this.permits > 0) {
      this.permits--;
      this.changed();
      return true;
    }
    await this.wait(signal);
    return true;
  }

  /** After a worker took key without a permit: holds it if a key breakpoint hits (entering step mode). */
  async afterGet(key: string, admittedByStep: boolean, signal: AbortSignal): Promise<void> {
    if (admittedByStep) return;
    if (!this.breakpoints.some((b) => b.key === key)) return;
    this.enableStepMode();
    this.pausedAt = { key, reason: 'key' };
    await this.wait(signal, key);
  }

  /** A reconcile of key ended in an error: an onError breakpoint pauses further dispatch. */
  reconcileFailed(key: string): void {
    if (!this.breakpoints.some((b) => b.onError)) return;
    this.enableStepMode();
    this.pausedAt = { key, reason: 'error' };
    this.changed();
  }

  /** Releases one dispatch; returns the key of a held (breakpoint) item it let go, if that is what it released. */
  stepOne(): string | undefined {
    if (!this.stepMode) return undefined;
    const held = this.waiters.find((w) => w.key !== undefined)?.key;
    this.step(1);
    return held;
  }

  private wait(signal: AbortSignal, key?: string): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const w: Waiter = {
        key,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        w.resolve();
        this.changed();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(w);
      this.grant();
      this.changed();
    });
  }

  /** Held items (already taken) go first, then workers waiting to take one. */
  private grant(): void {
    while (this.permits > 0 && this.waiters.length > 0) {
      const i = this.waiters.findIndex((w) => w.key !== undefined);
      const [w] = this.waiters.splice(i >= 0 ? i : 0, 1);
      this.permits--;
      w?.resolve();
    }
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const s = this.state();
    for (const fn of this.listeners) fn(s);
  }
}
