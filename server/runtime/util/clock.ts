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

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
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
