// What a reconcile's result does to its key, as data: controller-runtime's result handling (the runtime's
// server/runtime/controller/result-handling.ts) in one table. The runtime's tests check handleResult
// against it; the panels read which outcomes are failures and what each does to the queue from here.

/** The order panels list them in. controller-runtime checks an error first, then RequeueAfter, then Requeue. */
export const RECONCILE_OUTCOMES = ['success', 'requeue', 'requeueAfter', 'error', 'terminalError', 'panic'] as const;

/** requeue: Result.Requeue (rate limited); panic: the reconciler threw and was recovered. */
export type ReconcileOutcome = (typeof RECONCILE_OUTCOMES)[number];

export interface ResultHandling {
  outcome: ReconcileOutcome;
  /** Counted as a failed reconcile. */
  failed: boolean;
  /** The rate limiter forgets the key (its backoff starts over). */
  forget: boolean;
  /** How the key comes back: not at all, after the rate limiter's delay, or after Result.RequeueAfter. */
  requeue: 'no' | 'rateLimited' | 'after';
  /** One sentence for a legend. */
  detail: string;
}

export const RESULT_HANDLING: Readonly<Record<ReconcileOutcome, ResultHandling>> = {
  success: {
    outcome: 'success',
    failed: false,
    forget: true,
    requeue: 'no',
    detail: 'Forget: the backoff starts over; the key returns only when an event enqueues it',
  },
  requeue: {
    outcome: 'requeue',
    failed: false,
    forget: false,
    requeue: 'rateLimited',
    detail: "Result.Requeue: back after the rate limiter's delay, which keeps growing",
  },
  requeueAfter: {
    outcome: 'requeueAfter',
    failed: false,
    forget: true,
    requeue: 'after',
    detail: 'Result.RequeueAfter: Forget, then back after exactly that delay',
  },
  error: {
    outcome: 'error',
    failed: true,
    forget: false,
    requeue: 'rateLimited',
    detail: "an error: back after the rate limiter's exponential delay (Result is ignored)",
  },
  terminalError: {
    outcome: 'terminalError',
    failed: true,
    forget: false,
    requeue: 'no',
    detail: 'a TerminalError: dropped, not retried; only a new event brings the key back',
  },
  panic: {
    outcome: 'panic',
    failed: true,
    forget: false,
    requeue: 'rateLimited',
    detail: 'the reconciler threw: recovered and handled as an error',
  },
};

export function isFailedOutcome(o: ReconcileOutcome): boolean {
  return RESULT_HANDLING[o].failed;
}

/** Failed reconciles in a per-outcome count (the Controller panel's "errors"). */
export function failedReconciles(counts: Readonly<Record<ReconcileOutcome, number>>): number {
  let n = 0;
  for (const o of RECONCILE_OUTCOMES) if (RESULT_HANDLING[o].failed) n += counts[o];
  return n;
}
