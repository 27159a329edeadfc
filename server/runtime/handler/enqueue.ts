// Ports controller-runtime pkg/handler/enqueue.go: EnqueueRequestForObject.
import { enqueue, eventCause, isResync, lowPriorityFor, requestOf, type EventHandler } from './eventhandler';

/** One request per event, for the object itself (the new object on updates). */
export function enqueueRequestForObject(): EventHandler {
  return {
    name: 'EnqueueRequestForObject',
    create(_ctx, e, q) {
      if (!e.object) return;
      const c = eventCause('event', 'create', [e.object], e.gvk);
      enqueue(q, requestOf(e.object), c, lowPriorityFor({ kind: 'create', ev: e }));
    },
    update(_ctx, e, q) {
      const obj = e.objectNew ?? e.objectOld;
      if (!obj) return;
      const c = eventCause('event', 'update', [e.objectOld, e.objectNew], e.gvk);
      if (isResync(e)) c.type = 'resync';
      enqueue(q, requestOf(obj), c, lowPriorityFor({ kind: 'update', ev: e }));
    },
    delete(_ctx, e, q) {
      if (!e.object) return;
      enqueue(q, requestOf(e.object), eventCause('event', 'delete', [e.object], e.gvk));
    },
    generic(_ctx, e, q) {
      if (!e.object) return;
      enqueue(q, requestOf(e.object), eventCause('event', 'generic', [e.object], e.gvk));
    },
  };
}
