// Ports controller-runtime pkg/handler/enqueue_mapped.go: EnqueueRequestsFromMapFunc.
import type { KubeObject } from '../../../shared/models/object';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { requestKey, type Request } from '../reconcile/reconcile';
import {
  enqueue,
  eventCause,
  lowPriorityFor,
  type EventHandler,
  type HandlerContext,
  type RequestQueue,
} from './eventhandler';

export type MapFunc = (ctx: HandlerContext, obj: KubeObject) => Request[] | Promise<Request[]>;

/** Maps each event's object (old then new on updates) to requests, de-duplicated within the event. */
export function enqueueRequestsFromMapFunc(fn: MapFunc): EventHandler {
  function run(
    ctx: HandlerContext,
    q: RequestQueue,
    eventType: NonNullable<EnqueueCause['eventType']>,
    objs: (KubeObject | undefined)[],
    gvk: string | undefined,
    priority: number | undefined,
  ): void | Promise<void> {
    const present = objs.filter((o): o is KubeObject => o !== undefined);
    const mapped = present.map((obj) => fn(ctx, obj));
    const add = (lists: Request[][]): void => {
      const seen = new Set<string>();
      const cause = eventCause('mapped', eventType, objs, gvk);
      for (const reqs of lists) {
        for (const req of reqs) {
          const key = requestKey(req);
          if (seen.has(key)) continue;
          seen.add(key);
          enqueue(q, req, cause, priority);
        }
      }
    };
    // Stay synchronous for synchronous map functions so events reach the queue in order.
    if (mapped.every((m) => Array.isArray(m))) return add(mapped as Request[][]);
    return Promise.all(mapped).then(add);
  }
  return {
    name: 'EnqueueRequestsFromMapFunc',
    create: (ctx, e, q) => run(ctx, q, 'create', [e.object], e.gvk, lowPriorityFor({ kind: 'create', ev: e })),
    update: (ctx, e, q) =>
      run(ctx, q, 'update', [e.objectOld, e.objectNew], e.gvk, lowPriorityFor({ kind: 'update', ev: e })),
    delete: (ctx, e, q) => run(ctx, q, 'delete', [e.object], e.gvk, undefined),
    generic: (ctx, e, q) => run(ctx, q, 'generic', [e.object], e.gvk, undefined),
  };
}
