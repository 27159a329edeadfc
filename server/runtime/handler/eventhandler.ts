// Ports controller-runtime pkg/handler/eventhandler.go: the EventHandler contract and the Funcs adapter,
// plus the priority-aware enqueue helper (WithLowPriorityWhenUnchanged) the built-in handlers share.
import type { KubeObject } from '../../../shared/models/object';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import type { Request } from '../reconcile/reconcile';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../event/event';
import type { AddOpts, TypedRateLimitingInterface } from '../workqueue/interfaces';
import { objectRef } from '../cache/object-ref';
import { queueView } from './queue-view';

/** What a handler runs with: the source's cancellation (Go's per-event context). */
export interface HandlerContext {
  signal: AbortSignal;
}

/** The queue a handler writes to: a rate-limiting queue, optionally the priority queue (addWithOpts). */
export type RequestQueue = TypedRateLimitingInterface<Request> & {
  addWithOpts?: (opts: AddOpts, ...items: Request[]) => void;
};

/** upstream handler.LowPriority */
export const LOW_PRIORITY = -100;

/** handler.TypedEventHandler. Methods may return a promise (e.g. while a REST mapping is looked up). */
export interface EventHandler<T extends KubeObject = KubeObject> {
  /** For the UI: "EnqueueRequestForObject", "EnqueueRequestForOwner", ... */
  readonly name: string;
  create(ctx: HandlerContext, e: CreateEvent<T>, q: RequestQueue): void | Promise<void>;
  update(ctx: HandlerContext, e: UpdateEvent<T>, q: RequestQueue): void | Promise<void>;
  delete(ctx: HandlerContext, e: DeleteEvent<T>, q: RequestQueue): void | Promise<void>;
  generic(ctx: HandlerContext, e: GenericEvent<T>, q: RequestQueue): void | Promise<void>;
}

/** handler.Funcs: a missing function skips the event. */
export interface HandlerFuncs<T extends KubeObject = KubeObject> {
  name?: string;
  create?: EventHandler<T>['create'];
  update?: EventHandler<T>['update'];
  delete?: EventHandler<T>['delete'];
  generic?: EventHandler<T>['generic'];
}

/**
 * handler.Funcs. As upstream's TypedFuncs, create and update functions given the priority queue see a view
 * of it whose adds default to LOW_PRIORITY for an initial-list create or an update that kept the
 * resourceVersion (a resync); an explicit priority in addWithOpts still wins.
 */
export function funcs<T extends KubeObject = KubeObject>(f: HandlerFuncs<T>): EventHandler<T> {
  return {
    name: f.name ?? 'Funcs',
    create: (ctx, e, q) => {
      if (!f.create) return;
      if (!q.addWithOpts || !e.object) return f.create(ctx, e, q);
      return f.create(ctx, e, withDefaultPriority(q, e.isInInitialList ? LOW_PRIORITY : undefined));
    },
    update: (ctx, e, q) => {
      if (!f.update) return;
      if (!q.addWithOpts || !e.objectOld || !e.objectNew) return f.update(ctx, e, q);
      const unchanged = e.objectOld.metadata.resourceVersion === e.objectNew.metadata.resourceVersion;
      return f.update(ctx, e, withDefaultPriority(q, unchanged ? LOW_PRIORITY : undefined));
    },
    delete: (ctx, e, q) => f.delete?.(ctx, e, q),
    generic: (ctx, e, q) => f.generic?.(ctx, e, q),
  };
}

/** handler.WithLowPriorityWhenUnchanged: the same priority rule for any handler, through funcs. */
export function withLowPriorityWhenUnchanged<T extends KubeObject = KubeObject>(h: EventHandler<T>): EventHandler<T> {
  return funcs<T>({
    name: h.name,
    create: (ctx, e, q) => h.create(ctx, e, q),
    update: (ctx, e, q) => h.update(ctx, e, q),
    delete: (ctx, e, q) => h.delete(ctx, e, q),
    generic: (ctx, e, q) => h.generic(ctx, e, q),
  });
}

/** upstream workqueueWithDefaultPriority: every add on the priority queue carries `priority` unless it names one. */
function withDefaultPriority(q: RequestQueue, priority: number | undefined): RequestQueue {
  // Bound: taken off the queue, the method would run with no `this` (the priority queue's own fields).
  const addWithOpts = (q.addWithOpts as NonNullable<RequestQueue['addWithOpts']>).bind(q);
  const withPriority = (o: AddOpts): AddOpts =>
    o.priority === undefined && priority !== undefined ? { ...o, priority } : o;
  return queueView(q, {
    add: (item, cause) => addWithOpts(withPriority(cause ? { cause } : {}), item),
    addAfter: (item, delayMs, cause) =>
      addWithOpts(withPriority({ after: delayMs, ...(cause ? { cause } : {}) }), item),
    addRateLimited: (item, cause) =>
      addWithOpts(withPriority({ ratelimited: true, ...(cause ? { cause } : {}) }), item),
    addWithOpts: (o, ...items) => addWithOpts(withPriority(o), ...items),
  });
}

/**
 * Adds to the queue; with the priority queue and a priority given, through addWithOpts (so the initial
 * list and resyncs can go in at LOW_PRIORITY). A plain queue gets an ordinary add.
 */
export function enqueue(q: RequestQueue, req: Request, cause: EnqueueCause, priority?: number): void {
  if (priority !== undefined && q.addWithOpts) q.addWithOpts({ priority, cause }, req);
  else q.add(req, cause);
}

/** WithLowPriorityWhenUnchanged's rule: initial-list creates and same-RV updates (resyncs) are low priority. */
export function lowPriorityFor(
  e: { kind: 'create'; ev: CreateEvent } | { kind: 'update'; ev: UpdateEvent },
): number | undefined {
  if (e.kind === 'create') return e.ev.isInInitialList ? LOW_PRIORITY : undefined;
  const { objectOld, objectNew } = e.ev;
  if (objectOld && objectNew && objectOld.metadata.resourceVersion === objectNew.metadata.resourceVersion) {
    return LOW_PRIORITY;
  }
  return undefined;
}

/** True when an update replays the same resourceVersion: a periodic resync, not a change. */
export function isResync(e: UpdateEvent): boolean {
  return (
    e.objectOld !== undefined &&
    e.objectNew !== undefined &&
    e.objectOld.metadata.resourceVersion === e.objectNew.metadata.resourceVersion
  );
}

/**
 * The cause an event gives every request a handler makes from it: its source is the event's own object (the
 * new one on updates), whichever object the handler mapped. The dashboard ties a cause to the write behind
 * it by that ref's uid and resourceVersion, so an owner found through the old object must still be traced to
 * the version the event delivered. On an update the old version is kept beside it: the span the event covers.
 */
export function eventCause(
  type: EnqueueCause['type'],
  eventType: NonNullable<EnqueueCause['eventType']>,
  objs: readonly (KubeObject | undefined)[],
  gvk: string | undefined,
): EnqueueCause {
  let obj: KubeObject | undefined;
  let old: KubeObject | undefined;
  for (const o of objs) {
    if (!o) continue;
    if (obj) old = obj;
    obj = o;
  }
  const cause: EnqueueCause = { type, eventType };
  if (!obj) return cause;
  cause.source = objectRef(obj, gvk ?? '');
  const from = old?.metadata.resourceVersion;
  if (from !== undefined && from !== cause.source.resourceVersion) cause.previousResourceVersion = from;
  return cause;
}

export function requestOf(obj: KubeObject): Request {
  return { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
}
