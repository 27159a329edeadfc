// Ports controller-runtime pkg/handler/enqueue.go: EnqueueRequestForObject.
import type { KubeObject } from '../../../shared/models/object';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { enqueue, isResync, lowPriorityFor, requestOf, type EventHandler } from './eventhandler';
import { objectRef } from '../cache/object-ref';

/** One request per event, for the object itself (the new object on updates). */
export function enqueueRequestForObject(): EventHandler {
  const cause = (eventType: EnqueueCause['eventType'], obj: KubeObject, gvk?: string): EnqueueCause => ({
    type: 'event',
    eventType,
    source: objectRef(obj, gvk ?? ''),
  });
  return {
    name: 'EnqueueRequestForObject',
    create(_ctx, e, q) {
      if (!e.object) return;
      enqueue(q, requestOf(e.object), cause('create', e.object, e.gvk), lowPriorityFor({ kind: 'create', ev: e }));
    },
    update(_ctx, e, q) {
      const obj = e.objectNew ?? e.objectOld;
      if (!obj) return;
      const c = cause('update', obj, e.gvk);
      if (isResync(e)) c.type = 'resync';
      enqueue(q, requestOf(obj), c, lowPriorityFor({ kind: 'update', ev: e }));
    },
    delete(_ctx, e, q) {
      if (!e.object) return;
      enqueue(q, requestOf(e.object), cause('delete', e.object, e.gvk));
    },
    generic(_ctx, e, q) {
      if (!e.object) return;
      enqueue(q, requestOf(e.object), cause('generic', e.object, e.gvk));
    },
  };
}
