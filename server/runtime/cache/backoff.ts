// Ports apimachinery pkg/util/wait Backoff.Step and Backoff.DelayWithReset (the reflector's backoff
// manager), with time and randomness injected.
import { realClock, type Clock } from '../util/clock';

export interface BackoffOptions {
  /** First delay (ms). Reflector default 800. */
  durationMs: number;
  /** Multiplier per step. Reflector default 2. */
  factor: number;
  /** Each delay d becomes d + random·jitter·d. Reflector default 1 (so [d, 2d)). */
  jitter: number;
  /** Upper bound (ms) on the un-jittered delay; 0 = none. Reflector default 30000. */
  capMs: number;
  /** Steps before the delay stops growing. Reflector default ceil(30s/800ms) = 38. */
  steps: number;
  /** After this long (ms) since the sequence (re)started, it starts over. Reflector default 120000. */
  resetIntervalMs: number;
}

/** client-go reflector defaults (defaultBackoff* constants wrapped by DelayWithReset(2 min)). */
export const REFLECTOR_BACKOFF: BackoffOptions = Object.freeze({
  durationMs: 800,
  factor: 2,
  jitter: 1,
  capMs: 30_000,
  steps: Math.ceil(30_000 / 800),
  resetIntervalMs: 120_000,
});

/** wait.Backoff: returns the current delay, then grows it. */
export class Backoff {
  private durationMs: number;
  private steps: number;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {
    this.durationMs = options.durationMs;
    this.steps = options.steps;
  }

  step(): number {
    const { factor, jitter, capMs } = this.options;
    if (this.steps < 1) return this.jittered(this.durationMs, jitter);
    this.steps--;
    const current = this.durationMs;
    if (factor !== 0) {
      this.durationMs = current * factor;
      if (capMs > 0 && this.durationMs > capMs) {
        this.durationMs = capMs;
        this.steps = 0;
      }
    }
    return this.jittered(current, jitter);
  }

  private jittered(d: number, jitter: number): number {
    return jitter > 0 ? d + this.random() * jitter * d : d;
  }
}

export interface BackoffManagerOptions extends Partial<BackoffOptions> {
  /** Default realClock. */
  clock?: Clock;
  /** Default Math.random. */
  random?: () => number;
}

/**
 * Backoff.DelayWithReset: a backoff that starts over once resetInterval has passed since it last
 * (re)started. The start time is not refreshed by each step, so under continuous failure the delays
 * saw-tooth back to the base roughly every resetInterval, as upstream.
 */
export class BackoffManager {
  private readonly options: BackoffOptions;
  private readonly clock: Clock;
  private readonly random: () => number;
  private backoff: Backoff;
  private lastStart: number;

  constructor(options: BackoffManagerOptions = {}) {
    const { clock, random, ...rest } = options;
    this.options = { ...REFLECTOR_BACKOFF, ...rest };
    this.clock = clock ?? realClock;
    this.random = random ?? Math.random;
    this.backoff = new Backoff(this.options, this.random);
    this.lastStart = this.clock.now();
  }

  /** The next delay (ms). */
  step(): number {
    if (this.options.resetIntervalMs > 0 && this.clock.now() - this.lastStart > this.options.resetIntervalMs) {
      this.backoff = new Backoff(this.options, this.random);
      this.lastStart = this.clock.now();
    }
    return this.backoff.step();
  }
}
