// Go's context deadlines in AbortSignal terms: a child signal that aborts with its parent, or with a
// DeadlineExceededError when the injected clock passes the timeout.
import { setMaxListeners } from 'node:events';
import type { Clock } from './clock';

/**
 * Signals in this runtime are shared by many concurrent waiters (every worker, informer wait and sleep
 * listens on its controller's signal, and removes its listener when done), so Node's default warning at 11
 * listeners would fire on healthy managers. Lifts the limit on a signal we hand out or are handed.
 */
export function allowManyListeners(signal: AbortSignal): void {
  setMaxListeners(0, signal);
}

/** context.DeadlineExceeded */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(message = 'context deadline exceeded') {
    super(message);
  }
}

export function isDeadlineExceeded(reason: unknown): boolean {
  return reason instanceof DeadlineExceededError;
}

export interface ChildContext {
  signal: AbortSignal;
  /** Aborts the child (context.CancelFunc) and releases its timer. */
  cancel(reason?: unknown): void;
}

/** context.WithCancel / WithTimeout: timeoutMs undefined or ≤ 0 means no deadline. */
export function childContext(parent: AbortSignal | undefined, clock: Clock, timeoutMs?: number): ChildContext {
  const ac = new AbortController();
  allowManyListeners(ac.signal);
  const onParent = (): void => ac.abort(parent?.reason);
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? clock.setTimer(() => ac.abort(new DeadlineExceededError()), timeoutMs)
      : undefined;
  const cleanup = (): void => {
    timer?.cancel();
    parent?.removeEventListener('abort', onParent);
  };
  ac.signal.addEventListener('abort', cleanup, { once: true });
  if (parent?.aborted) ac.abort(parent.reason);
  else parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: ac.signal,
    cancel: (reason?: unknown) => {
      if (!ac.signal.aborted) ac.abort(reason ?? new Error('context canceled'));
      cleanup();
    },
  };
}

/** Resolves when the signal aborts (never rejects). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
