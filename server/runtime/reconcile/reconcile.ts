// Ports controller-runtime pkg/reconcile/reconcile.go: the request/result types a Reconciler speaks.
import type { MetaNamespaceKey } from '../../../shared/protocol/ids';
import type { Logger } from './logger';

/**
 * reconcile.Request: identity only — no event type, no object. Cluster-scoped objects have namespace "".
 * Two requests are equal when their keys (see requestKey) are equal; the queue de-duplicates on that.
 */
export interface Request {
  namespace: string;
  name: string;
}

/** reconcile.Result. requeueAfterMs > 0 implies a requeue (requeue need not be set). */
export interface Result {
  /** Deprecated upstream in favour of requeueAfterMs; rate-limited requeue. */
  requeue?: boolean;
  requeueAfterMs?: number;
  /** Overrides the priority of any re-enqueue (priority queue only); unset keeps the current one. */
  priority?: number;
}

/** Result.IsZero: true for undefined or an all-zero result. */
export function isZeroResult(r: Result | undefined | null): boolean {
  if (!r) return true;
  return !r.requeue && !(r.requeueAfterMs && r.requeueAfterMs > 0) && r.priority === undefined;
}

/** What a reconcile runs with: Go's context (cancellation + values) and logr. */
export interface ReconcileContext {
  /** Aborted when the controller stops or the reconcile timeout passes. */
  signal: AbortSignal;
  log: Logger;
  /** A fresh id per reconcile (controller.ReconcileIDFromContext). */
  reconcileID: string;
  /** The controller running this reconcile, when known. */
  controller?: string;
}

/** reconcile.Reconciler. Throwing an Error is the error path; throwing a TypeError & co. counts as a panic. */
export interface Reconciler {
  reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void>;
}

export type ReconcileFn = (ctx: ReconcileContext, req: Request) => Promise<Result | void>;

/** reconcile.Func: adapts a function. */
export function reconcileFunc(fn: ReconcileFn): Reconciler {
  return { reconcile: (ctx, req) => fn(ctx, req) };
}

/** The queue key of a request: "namespace/name", or "name" for cluster-scoped objects. */
export function requestKey(req: Request): MetaNamespaceKey {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

/** Inverse of requestKey (splits at the first "/", as cache.SplitMetaNamespaceKey would). */
export function requestFromKey(key: MetaNamespaceKey): Request {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** types.NamespacedName.String(): always "namespace/name" (so "/name" for cluster-scoped objects). */
export function namespacedName(req: Request): string {
  return `${req.namespace}/${req.name}`;
}
