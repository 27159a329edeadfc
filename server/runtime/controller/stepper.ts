// The controller's step mode (no upstream counterpart): lets the dashboard hold the dispatch of queued
// requests to workers, release them one at a time, and pause on conditional breakpoints. Items held by step
// mode stay in the queue, where the UI can see them; only a breakpoint that fires before a reconcile holds a
// taken item (the worker that took it waits, and says so in the state).
import type { ReconcileOutcome } from '../../../shared/protocol/events-controller';
import { keyMatches, MAX_KEY_PATTERN_LENGTH } from './key-pattern';

/** What a breakpoint waits for after a reconcile: one outcome, or any of error, terminalError and panic. */
export type BreakOutcome = ReconcileOutcome | 'anyError';

/** The conditions of a breakpoint; every condition given must hold. */
export interface BreakpointSpec {
  /** Queue key, or a pattern where "*" matches any run of characters. Absent: every key. */
  key?: string;
  /** Pause after a reconcile that ended this way. Absent: pause before the reconcile, holding its key. */
  outcome?: BreakOutcome;
  /** Only from this attempt on (1 is the first try; the attempt is the queue's numRequeues plus one). */
  minAttempt?: number;
  /** Shorthand for outcome 'anyError'. */
  onError?: boolean;
  /** Removed when it fires (run to a key). */
  once?: boolean;
}

export interface Breakpoint extends Omit<BreakpointSpec, 'onError'> {
  id: string;
  enabled: boolean;
  /** Times it fired. */
  hits: number;
}

export interface PausedAt {
  key: string;
  /** 'key': a breakpoint before the reconcile holds the key; 'error'/'breakpoint': one after it fired. */
  reason: 'key' | 'error' | 'breakpoint';
  breakpoint?: string;
  outcome?: ReconcileOutcome;
}

export interface StepperState {
  stepMode: boolean;
  /** What the last breakpoint stopped on (cleared when dispatch resumes). */
  pausedAt?: PausedAt;
  /** Dispatches granted by step() and not yet used. */
  permits: number;
  /** Workers waiting for a permit. */
  waitingWorkers: number;
  /** Keys a worker took and holds because a breakpoint fired before their reconcile. */
  held: string[];
  /** The same, with the worker holding each. */
  holders: { key: string; worker: number }[];
  /** The key the last step let through, and the worker that took it. */
  lastReleased?: { key: string; worker: number };
  breakpoints: Breakpoint[];
}

/** What a worker knows about the item it took. */
export interface TakenItem {
  worker: number;
  /** numRequeues + 1. */
  attempt: number;
}

interface Waiter {
  resolve: () => void;
  key?: string;
  worker?: number;
}

/** A controller's dispatch gate: hold keys in the queue, let them through one at a time, break on conditions. */
export interface StepGate {
  enableStepMode(): void;
  disableStepMode(): void;
  /** Lets n more items through to workers. */
  step(n?: number): void;
  setBreakpoint(bp: BreakpointSpec): Breakpoint;
  /** Removes breakpoints with the same conditions as bp. */
  removeBreakpoint(bp: BreakpointSpec): void;
  clearBreakpoints(): void;
  state(): StepperState;
  /** Called on every state change; returns an unsubscribe function. */
  onChange(fn: (s: StepperState) => void): () => void;
}

const ERROR_OUTCOMES: ReadonlySet<ReconcileOutcome> = new Set(['error', 'terminalError', 'panic']);

function outcomeMatches(want: BreakOutcome, got: ReconcileOutcome): boolean {
  return want === 'anyError' ? ERROR_OUTCOMES.has(got) : want === got;
}

export class Stepper implements StepGate {
  private stepMode = false;
  private permits = 0;
  private breakpoints: Breakpoint[] = [];
  private nextId = 1;
  private pausedAt?: PausedAt;
  private lastReleased?: { key: string; worker: number };
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

  /** Adds a breakpoint (enabled) and returns it. */
  setBreakpoint(spec: BreakpointSpec): Breakpoint {
    const outcome = spec.outcome ?? (spec.onError ? 'anyError' : undefined);
    if (spec.key === undefined && outcome === undefined && spec.minAttempt === undefined) {
      throw new Error('a breakpoint needs a key pattern, an outcome or a minimum attempt');
    }
    if (spec.key !== undefined && spec.key.length > MAX_KEY_PATTERN_LENGTH) {
      throw new Error(
        `a breakpoint's key pattern is ${spec.key.length} characters; the limit is ${MAX_KEY_PATTERN_LENGTH}`,
      );
    }
    if (spec.minAttempt !== undefined && !(Number.isInteger(spec.minAttempt) && spec.minAttempt >= 1)) {
      throw new Error(`a breakpoint's minimum attempt must be a whole number ≥ 1, got ${spec.minAttempt}`);
    }
    const bp: Breakpoint = {
      id: `bp${this.nextId++}`,
      enabled: true,
      hits: 0,
      ...(spec.key !== undefined ? { key: spec.key } : {}),
      ...(outcome !== undefined ? { outcome } : {}),
      ...(spec.minAttempt !== undefined ? { minAttempt: spec.minAttempt } : {}),
      ...(spec.once ? { once: true } : {}),
    };
    this.breakpoints.push(bp);
    this.changed();
    return { ...bp };
  }

  /** Removes breakpoints with the same conditions as spec. */
  removeBreakpoint(spec: BreakpointSpec): void {
    const outcome = spec.outcome ?? (spec.onError ? 'anyError' : undefined);
    this.breakpoints = this.breakpoints.filter(
      (b) => !(b.key === spec.key && b.outcome === outcome && b.minAttempt === spec.minAttempt),
    );
    this.changed();
  }

  /** Removes one breakpoint by id; false when there is none. */
  removeBreakpointById(id: string): boolean {
    const before = this.breakpoints.length;
    this.breakpoints = this.breakpoints.filter((b) => b.id !== id);
    this.changed();
    return this.breakpoints.length < before;
  }

  /** Enables or disables one breakpoint; false when there is none. */
  enableBreakpoint(id: string, enabled: boolean): boolean {
    const bp = this.breakpoints.find((b) => b.id === id);
    if (!bp) return false;
    bp.enabled = enabled;
    this.changed();
    return true;
  }

  clearBreakpoints(): void {
    this.breakpoints = [];
    this.changed();
  }

  /** Dispatches freely until key is about to reconcile, then holds it (a one-shot breakpoint). */
  runTo(key: string): void {
    this.setBreakpoint({ key, once: true });
    this.disableStepMode();
  }

  state(): StepperState {
    const holders = this.waiters
      .filter((w) => w.key !== undefined)
      .map((w) => ({ key: w.key as string, worker: w.worker ?? 0 }));
    return {
      stepMode: this.stepMode,
      ...(this.pausedAt ? { pausedAt: { ...this.pausedAt } } : {}),
      permits: this.permits,
      waitingWorkers: this.waiters.filter((w) => w.key === undefined).length,
      held: holders.map((h) => h.key),
      holders,
      ...(this.lastReleased ? { lastReleased: { ...this.lastReleased } } : {}),
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

  /**
   * After a worker took key. A step's item is noted as released; otherwise a breakpoint before the reconcile
   * that matches holds it (entering step mode) until the next step or resume.
   */
  async afterGet(key: string, admittedByStep: boolean, signal: AbortSignal, item?: TakenItem): Promise<void> {
    const worker = item?.worker ?? 0;
    if (admittedByStep) {
      this.lastReleased = { key, worker };
      this.changed();
      return;
    }
    const bp = this.breakpoints.find(
      (b) => b.enabled && b.outcome === undefined && keyMatches(b.key, key) && attemptMatches(b, item),
    );
    if (!bp) return;
    this.fired(bp);
    this.enableStepMode();
    this.pausedAt = { key, reason: 'key', breakpoint: bp.id };
    await this.wait(signal, key, worker);
    this.lastReleased = { key, worker };
    this.changed();
  }

  /** A reconcile of key ended: a breakpoint on that outcome pauses further dispatch. */
  reconcileEnded(key: string, outcome: ReconcileOutcome, attempt?: number): void {
    const bp = this.breakpoints.find(
      (b) =>
        b.enabled &&
        b.outcome !== undefined &&
        outcomeMatches(b.outcome, outcome) &&
        keyMatches(b.key, key) &&
        attemptMatches(b, attempt !== undefined ? { worker: 0, attempt } : undefined),
    );
    if (!bp) return;
    this.fired(bp);
    this.enableStepMode();
    this.pausedAt = {
      key,
      reason: bp.outcome === 'anyError' ? 'error' : 'breakpoint',
      breakpoint: bp.id,
      outcome,
    };
    this.changed();
  }

  /** Releases one dispatch; returns the key of a held (breakpoint) item it let go, if that is what it released. */
  stepOne(): string | undefined {
    if (!this.stepMode) return undefined;
    const held = this.waiters.find((w) => w.key !== undefined)?.key;
    this.step(1);
    return held;
  }

  private fired(bp: Breakpoint): void {
    bp.hits++;
    if (bp.once) this.breakpoints = this.breakpoints.filter((b) => b !== bp);
  }

  private wait(signal: AbortSignal, key?: string, worker?: number): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const w: Waiter = {
        key,
        ...(worker !== undefined ? { worker } : {}),
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

function attemptMatches(bp: Breakpoint, item: TakenItem | undefined): boolean {
  return bp.minAttempt === undefined || (item !== undefined && item.attempt >= bp.minAttempt);
}
