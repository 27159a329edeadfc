// What both queues' done() report (no upstream counterpart: client-go logs nothing there): how long the key
// was processing, read from a start time kept only while a probe listens.
import type { Probe } from '../instrumentation/probe';
import type { Clock } from '../util/clock';
import type { QueueDepth } from '../../../shared/protocol/events-workqueue';

/** The key's processing start, forgotten; the map is empty unless a probe listened, so skip hashing then. */
export function takeProcessingStart(since: Map<string, number>, key: string): number | undefined {
  if (since.size === 0) return undefined;
  const startedAt = since.get(key);
  since.delete(key);
  return startedAt;
}

/** Emits queue.done; call only when probe.enabled, so the depth is not counted for nobody. Positional, as
 *  done() is the hot path of every reconcile and an options object would be one more allocation. */
export function reportDone(
  probe: Probe,
  clock: Clock,
  queue: string,
  key: string,
  startedAt: number | undefined,
  requeued: boolean,
  depth: QueueDepth,
): void {
  probe.emit({
    kind: 'queue.done',
    queue,
    key,
    processingMs: startedAt === undefined ? 0 : clock.now() - startedAt,
    requeued,
    depth,
  });
}
