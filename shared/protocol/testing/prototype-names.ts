// Names that are members of Object.prototype, and events that use one name everywhere a string becomes a
// key in the view: for tests that every record keyed by data takes such names as plain keys.
import type { RuntimeEvent } from '../events';

export const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

/** One name used as controller, key, informer, handler, group and lease: touches every record of the view. */
export function eventsNaming(name: string, namespace: string | undefined): RuntimeEvent[] {
  const key = namespace === undefined ? name : `${namespace}/${name}`;
  const ref = { gvk: name, name, ...(namespace !== undefined ? { namespace } : {}), resourceVersion: '7' };
  const depth = { ready: 1, waiting: 0, processing: 0 };
  const cause = { type: 'manual' as const, eventType: 'update' as const, source: ref };
  return [
    { kind: 'informer.lifecycle', informer: name, phase: 'started', fifo: 'DeltaFIFO' },
    { kind: 'informer.lifecycle', informer: name, phase: 'handlerAdded', handler: name },
    { kind: 'fifo.delta', informer: name, delta: 'Added', key, ref, pendingForKey: 1, queueLength: 1 },
    { kind: 'fifo.pop', informer: name, key, deltas: ['Added'], queueLength: 0, durationMs: 1 },
    { kind: 'indexer.update', informer: name, op: 'add', key, ref, size: 1 },
    { kind: 'informer.notify', informer: name, handler: name, type: 'add', ref },
    {
      kind: 'handler.event',
      controller: name,
      handler: name,
      eventType: 'create',
      ref,
      keys: [key],
    },
    { kind: 'queue.add', queue: name, key, cause, queued: true, dirtyWhileProcessing: false, depth },
    { kind: 'queue.get', queue: name, key, waitMs: 1, depth: { ready: 0, waiting: 0, processing: 1 } },
    { kind: 'reconcile.start', controller: name, key, worker: 0, causes: [cause], attempt: 0 },
    { kind: 'client.request', controller: name, verb: 'update', ref, cached: false, durationMs: 1, code: 200 },
    { kind: 'reconcile.end', controller: name, key, worker: 0, durationMs: 2, outcome: 'success' },
    { kind: 'queue.done', queue: name, key, processingMs: 2, requeued: false, depth },
    { kind: 'queue.forget', queue: name, key },
    { kind: 'manager.lifecycle', phase: 'started', group: name },
    { kind: 'leaderelection.state', lease: name, identity: name, phase: 'acquired', holder: name },
  ] as RuntimeEvent[];
}
