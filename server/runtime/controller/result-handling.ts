// Ports the result handling of controller-runtime pkg/internal/controller/controller.go
// (reconcileHandler, after the reconcile returned): what happens to the request, in upstream's order.
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import type { ReconcileOutcome } from '../../../shared/protocol/events-controller';
import type { ControllerMetrics, ResultLabel } from '../metrics/controller-metrics';
import type { Request, Result } from '../reconcile/reconcile';
import { errorMessage, isTerminalError } from '../util/errors';
import type { ControllerQueue } from './options';

/**
 * What the reconciler returned, as a Result, or the error that refuses it. Go's type system guarantees a
 * struct of a bool and two numbers; here anything can come back, so a value that is not a Result, a field
 * that cannot be read, or a requeueAfterMs or priority that is not a finite number becomes a reconcile error
 * naming the problem (rate-limited retry, as for any error). A negative requeueAfterMs is ignored, as upstream.
 */
export function readResult(value: unknown): Result | Error {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') {
    return new Error(
      `the reconciler returned a ${typeof value}, not a Result ({}, {requeue: true} or {requeueAfterMs: n})`,
    );
  }
  let requeue: unknown;
  let after: unknown;
  let priority: unknown;
  try {
    const r = value as Record<string, unknown>;
    requeue = r.requeue;
    after = r.requeueAfterMs;
    priority = r.priority;
  } catch (err) {
    return new Error(`reading the Result the reconciler returned failed: ${errorMessage(err)}`);
  }
  if (after !== undefined && (typeof after !== 'number' || !Number.isFinite(after))) {
    return new Error(`Result.requeueAfterMs must be a finite number of milliseconds, got ${shown(after)}`);
  }
  if (priority !== undefined && (typeof priority !== 'number' || !Number.isFinite(priority))) {
    return new Error(`Result.priority must be a finite number, got ${shown(priority)}`);
  }
  const out: Result = {};
  if (requeue) out.requeue = true;
  if (after !== undefined) out.requeueAfterMs = after;
  if (priority !== undefined) out.priority = priority;
  return out;
}

function shown(v: unknown): string {
  return typeof v === 'number'
    ? String(v)
    : typeof v === 'string'
      ? `a string ${JSON.stringify(v.slice(0, 40))}`
      : `a ${typeof v}`;
}

export interface HandledResult {
  outcome: ReconcileOutcome;
  requeueAfterMs?: number;
}

/**
 * Applies one reconcile's outcome to the queue, first matching branch wins:
 * error (terminal: drop; else rate-limited requeue, never Forget) → requeueAfter (Forget + AddAfter) →
 * requeue (rate-limited, no Forget) → success (Forget).
 * `priority` is the priority the item was taken with; Result.priority overrides it.
 */
export function handleResult(o: {
  queue: ControllerQueue;
  req: Request;
  result: Result | void;
  err: unknown;
  hasErr: boolean;
  panicked: boolean;
  priority: number;
  controller: string;
  metrics: ControllerMetrics;
}): HandledResult {
  const { queue, req, controller, metrics } = o;
  const result: Result = o.result ?? {};
  const priority = result.priority ?? o.priority;
  const count = (label: ResultLabel): void => metrics.reconcileTotal.inc({ controller, result: label });
  const usePriority = queue.addWithOpts !== undefined;

  if (o.hasErr) {
    metrics.reconcileErrors.inc({ controller });
    count('error');
    if (isTerminalError(o.err)) {
      metrics.terminalReconcileErrors.inc({ controller });
      return { outcome: 'terminalError' };
    }
    const cause: EnqueueCause = { type: 'errorBackoff', detail: errorMessage(o.err).slice(0, 4000) };
    if (usePriority) queue.addWithOpts?.({ ratelimited: true, priority, cause }, req);
    else queue.addRateLimited(req, cause);
    return { outcome: o.panicked ? 'panic' : 'error' };
  }

  const after = result.requeueAfterMs ?? 0;
  if (after > 0) {
    queue.forget(req);
    const cause: EnqueueCause = { type: 'requeueAfter', detail: `${after}ms` };
    if (usePriority) queue.addWithOpts?.({ after, priority, cause }, req);
    else queue.addAfter(req, after, cause);
    count('requeue_after');
    return { outcome: 'requeueAfter', requeueAfterMs: after };
  }

  if (result.requeue) {
    const cause: EnqueueCause = { type: 'requeue' };
    if (usePriority) queue.addWithOpts?.({ ratelimited: true, priority, cause }, req);
    else queue.addRateLimited(req, cause);
    count('requeue');
    return { outcome: 'requeue' };
  }

  queue.forget(req);
  count('success');
  return { outcome: 'success' };
}
