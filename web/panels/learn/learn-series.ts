// Teaching models: follows one object through the whole pipeline using the recent event log (watch event →
// delta → pop → indexer → handler → enqueue → worker → reconcile → write), and picks the live numbers shown
// beside each explanation.
import type { StampedEvent } from '../../../shared/protocol/events';
import { refKey } from '../../../shared/protocol/view';

export interface JourneyStep {
  seq: number;
  ts: number;
  block:
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
  text: string;
}

function keyOf(ev: StampedEvent): string | undefined {
  const e = ev as Partial<{ key: string; ref: { namespace?: string; name: string; gvk: string } }>;
  if (e.key !== undefined) return e.key;
  if (e.ref && e.ref.name) return refKey(e.ref);
  return undefined;
}

function describe(ev: StampedEvent): Omit<JourneyStep, 'seq' | 'ts'> | undefined {
  switch (ev.kind) {
    case 'reflector.event':
      return {
        block: 'Reflector',
        text: `watch delivered ${ev.type} ${ev.ref.gvk} at rv ${ev.ref.resourceVersion ?? '?'}`,
      };
    case 'fifo.delta':
      return {
        block: 'DeltaFIFO',
        text: `queued a ${ev.delta} delta (${ev.pendingForKey} pending for this key, ${ev.queueLength} keys queued)`,
      };
    case 'fifo.pop':
      return { block: 'DeltaFIFO', text: `popped [${ev.deltas.join(', ')}] for processing` };
    case 'indexer.update':
      return { block: 'Indexer', text: `${ev.op} in the cache (now ${ev.size} objects)` };
    case 'informer.notify':
      return {
        block: 'Informer',
        text: `told handler ${ev.handler}: on${ev.type[0]?.toUpperCase()}${ev.type.slice(1)}${ev.resync ? ' (resync)' : ''}`,
      };
    case 'handler.event':
      return ev.filteredBy
        ? { block: 'Handler', text: `${ev.controller}: ${ev.handler} ${ev.eventType} filtered out by ${ev.filteredBy}` }
        : {
            block: 'Handler',
            text: `${ev.controller}: ${ev.handler} turned the ${ev.eventType} into request ${ev.keys.join(', ')}`,
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
        ? undefined
        : {
            block: 'Client',
            text: `${ev.controller ?? 'client'}: ${ev.verb} sent to the API server${ev.code ? ` → ${ev.code}` : ''}`,
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

/**
 * The story of the key of the most recent finished reconcile (of `controller` when given) as far back as the
 * log reaches: from the watch event that started it to the reconcile's end and its writes.
 */
export function latestJourney(
  log: readonly StampedEvent[],
  controller?: string,
): { key: string; steps: JourneyStep[] } | undefined {
  let endIdx = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    const ev = log[i] as StampedEvent;
    if (ev.kind === 'reconcile.end' && (!controller || ev.controller === controller)) {
      endIdx = i;
      break;
    }
  }
  if (endIdx < 0) return undefined;
  const end = log[endIdx] as Extract<StampedEvent, { kind: 'reconcile.end' }>;
  const key = end.key;
  // Walk back to the watch event (or list delta) that began this round; stop at the previous reconcile end.
  let startIdx = endIdx;
  for (let i = endIdx - 1; i >= 0; i--) {
    const ev = log[i] as StampedEvent;
    if (keyOf(ev) !== key) continue;
    if (ev.kind === 'reconcile.end' && ev.controller === end.controller) break;
    startIdx = i;
  }
  const steps: JourneyStep[] = [];
  for (let i = startIdx; i <= endIdx; i++) {
    const ev = log[i] as StampedEvent;
    if (keyOf(ev) !== key && !(ev.kind === 'client.request' && ev.controller === end.controller)) continue;
    const isOtherController =
      ('controller' in ev && ev.controller !== undefined && ev.controller !== end.controller) ||
      ('queue' in ev && ev.queue !== end.controller);
    if (isOtherController) continue;
    const d = describe(ev);
    if (d) steps.push({ seq: ev.seq, ts: ev.ts, ...d });
  }
  return { key, steps };
}
