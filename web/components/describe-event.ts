// One line per probe event, in words, naming the block it came from: used by the learn panel's journey and
// the trace panel's raw event list. Events with nothing to teach (gauges, lifecycle) describe as undefined.
import type { StampedEvent } from '../../shared/protocol/events';
import type { ObjectRef } from '../../shared/protocol/ids';

/** " at rv 197": every step of one object's change says which version it carried, so a walk can be checked. */
const atRv = (ref: ObjectRef): string => (ref.resourceVersion ? ` at rv ${ref.resourceVersion}` : '');

export type JourneyBlock =
  | 'API server'
  | 'Reflector'
  | 'DeltaFIFO'
  | 'Indexer'
  | 'Informer'
  | 'Handler'
  | 'Workqueue'
  | 'Worker'
  | 'Reconciler'
  | 'Client';

export function describeEvent(ev: StampedEvent): { block: JourneyBlock; text: string } | undefined {
  switch (ev.kind) {
    case 'reflector.listBegin':
      return {
        block: 'Reflector',
        text: `${ev.relist ? 'relist' : 'initial list'} began${ev.resourceVersion ? ` from rv ${ev.resourceVersion}` : ''}${ev.cause ? ` (${ev.cause})` : ''}`,
      };
    case 'reflector.event':
      return {
        block: 'Reflector',
        text: `watch delivered ${ev.type} ${ev.ref.gvk} ${ev.ref.namespace ? `${ev.ref.namespace}/` : ''}${ev.ref.name} at rv ${ev.ref.resourceVersion ?? '?'}`,
      };
    case 'fifo.delta':
      return {
        block: 'DeltaFIFO',
        text: `queued ${/^[AEIOU]/.test(ev.delta) ? 'an' : 'a'} ${ev.delta} delta${ev.tombstone ? ' (a tombstone: DeletedFinalStateUnknown)' : ''}${atRv(ev.ref)} (${ev.pendingForKey} pending for this key, ${ev.queueLength} keys queued)`,
      };
    case 'fifo.pop':
      return { block: 'DeltaFIFO', text: `popped [${ev.deltas.join(', ')}] for processing` };
    case 'indexer.update':
      return { block: 'Indexer', text: `${ev.op}${atRv(ev.ref)} in the cache (now ${ev.size} objects)` };
    case 'informer.notify':
      return {
        block: 'Informer',
        text: `told handler ${ev.handler}: on${ev.type[0]?.toUpperCase()}${ev.type.slice(1)}${atRv(ev.ref)}${ev.resync ? ' (resync)' : ''}`,
      };
    case 'handler.event':
      if (ev.panic !== undefined) {
        return {
          block: 'Handler',
          text: `${ev.controller}: ${ev.handler} ${ev.eventType} panicked (recovered): ${ev.panic}`,
        };
      }
      return ev.filteredBy
        ? { block: 'Handler', text: `${ev.controller}: ${ev.handler} ${ev.eventType} filtered out by ${ev.filteredBy}` }
        : {
            block: 'Handler',
            text: `${ev.controller}: ${ev.handler} turned the ${ev.eventType}${atRv(ev.ref)} into request ${ev.keys.join(', ')}`,
          };
    case 'queue.add':
      return {
        block: 'Workqueue',
        text: `${ev.queue}: add (${ev.cause.type})${ev.queued ? '' : ev.dirtyWhileProcessing ? ' — already processing, marked dirty' : ' — already queued, de-duplicated'}`,
      };
    case 'queue.addAfter':
      return {
        block: 'Workqueue',
        text: `${ev.queue}: will be ready in ${Math.round(ev.delayMs)}ms (${ev.cause.type})`,
      };
    case 'queue.get':
      return {
        block: 'Worker',
        text: `${ev.queue}: a worker took the key after ${Math.round(ev.waitMs)}ms in the queue`,
      };
    case 'reconcile.start':
      return {
        block: 'Reconciler',
        text: `${ev.controller}: Reconcile started on worker ${ev.worker}, absorbing ${ev.causes.length} cause(s)`,
      };
    case 'reconcile.end':
      return {
        block: 'Reconciler',
        text: `${ev.controller}: Reconcile returned ${ev.outcome} after ${ev.durationMs.toFixed(1)}ms${ev.error ? `: ${ev.error}` : ''}`,
      };
    case 'client.request':
      return ev.cached
        ? {
            block: 'Client',
            text: `${ev.controller ?? 'client'}: ${ev.verb} ${ev.ref.gvk}${ev.ref.name ? ` ${ev.ref.namespace ? `${ev.ref.namespace}/` : ''}${ev.ref.name}` : ''} read from the informer's cache (no request to the API server)${ev.code === 404 ? ': not found (an answer, not an error)' : ''}`,
          }
        : {
            block: 'Client',
            text: `${ev.controller ?? 'client'}: ${ev.verb} sent to the API server${ev.code ? ` → ${ev.code}` : ''}${ev.code === 404 && (ev.verb === 'get' || ev.verb === 'list') ? ' NotFound (an answer, not an error)' : ''}`,
          };
    case 'queue.done':
      return {
        block: 'Workqueue',
        text: `${ev.queue}: done${ev.requeued ? ' — re-queued because it changed meanwhile' : ''}`,
      };
    default:
      return undefined;
  }
}
