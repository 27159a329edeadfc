// Helpers for the Reflector: the resync timer (startResync in client-go tools/cache/reflector.go) and
// abort handling for ListerWatchers that ignore their signal.
import type { Clock, TimerHandle } from '../util/clock';

export interface ResyncTimerOptions {
  clock: Clock;
  /** 0 = never. */
  periodMs: number;
  /** Consulted at each tick; default always. */
  shouldResync: (() => boolean) | undefined;
  resync: () => number | void;
  onResync: (keys: number) => void;
  /** A failed resync ends the timer; the watch then ends and the reflector relists. */
  onError: (err: unknown) => void;
}

/** A fresh one-shot timer per period, re-armed whether or not a resync happened (as upstream). */
export function startResyncTimer(o: ResyncTimerOptions): TimerHandle {
  let timer: TimerHandle | undefined;
  let cancelled = false;
  const arm = (): void => {
    if (o.periodMs <= 0 || cancelled) return;
    timer = o.clock.setTimer(() => {
      if (cancelled) return;
      if (o.shouldResync?.() ?? true) {
        try {
          const n = o.resync();
          o.onResync(typeof n === 'number' ? n : 0);
        } catch (err) {
          o.onError(err);
          return;
        }
      }
      arm();
    }, o.periodMs);
  };
  arm();
  return {
    cancel: () => {
      cancelled = true;
      timer?.cancel();
    },
  };
}

/** Settles like p, or rejects as soon as signal aborts. */
export function abortable<V>(p: Promise<V>, signal: AbortSignal): Promise<V> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
