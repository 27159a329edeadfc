// Injected time (k8s.io/utils/clock). Every delay, backoff, resync and limiter takes a Clock so tests
// can drive time with a FakeClock instead of sleeping.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs fn after ms; the handle cancels it. */
  setTimer(fn: () => void, ms: number): TimerHandle;
  /** Resolves after ms, or rejects with the signal's reason when aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    // setTimeout runs a delay over 2^31-1 ms (about 24.8 days) at once; longer ones are chained.
    let t: ReturnType<typeof setTimeout>;
    const arm = (left: number): void => {
      const step = Math.min(Math.max(0, left), MAX_TIMEOUT_MS);
      t = setTimeout(() => (left > MAX_TIMEOUT_MS ? arm(left - MAX_TIMEOUT_MS) : fn()), step);
    };
    arm(Number.isNaN(ms) ? 0 : ms);
    return { cancel: () => clearTimeout(t) };
  },
  sleep(ms, signal) {
    return sleepWith(realClock, ms, signal);
  },
};

/** sleep() in terms of setTimer, shared by the real and the fake clock. */
export function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
