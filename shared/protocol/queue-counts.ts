// How many keys a controller's queue holds, counted once for every panel that shows it. The queue reports
// its own depth on every event; the per-key table says the same thing key by key, and the two agree because
// a key re-added while a worker holds it is counted where the queue counts it: ready again (client-go's dirty
// set, controller-runtime's parked entry), not only "processing".
import type { ControllerView, KeyView } from './view';

export interface QueueCounts {
  /** Keys a worker can take now, including keys re-added while being processed. */
  ready: number;
  /** Keys waiting for a delay (RequeueAfter, error backoff). */
  waiting: number;
  /** Keys a worker holds now. */
  processing: number;
  /** ready + waiting: what is in the queue and not yet handed out. */
  queued: number;
}

/** The queue's own numbers, as its last event reported them (workqueue_depth and friends). */
export function queueCounts(c: Pick<ControllerView, 'depth'>): QueueCounts {
  const { ready, waiting, processing } = c.depth;
  return { ready, waiting, processing, queued: ready + waiting };
}

/** Where one key sits in the queue's depth: a key being processed may also be queued again. */
export function keyMembership(k: Pick<KeyView, 'state' | 'dirty' | 'nextRetryAt'>): {
  ready: boolean;
  waiting: boolean;
  processing: boolean;
} {
  const processing = k.state === 'processing';
  const ready = k.state === 'ready' || (processing && k.dirty);
  const waiting = k.state === 'waiting' || (processing && !k.dirty && k.nextRetryAt !== undefined);
  return { ready, waiting, processing };
}

/** The same counts from the per-key records (the table's filters). Equal to queueCounts while no queued key was evicted. */
export function keyCounts(c: Pick<ControllerView, 'keys'>): QueueCounts {
  let ready = 0;
  let waiting = 0;
  let processing = 0;
  for (const k of Object.values(c.keys)) {
    const m = keyMembership(k);
    if (m.ready) ready++;
    if (m.waiting) waiting++;
    if (m.processing) processing++;
  }
  return { ready, waiting, processing, queued: ready + waiting };
}

/** Queued keys across controllers: the number the Overview, the navigation and the Workqueue panel all show. */
export function totalQueued(controllers: Iterable<Pick<ControllerView, 'depth'>>): number {
  let n = 0;
  for (const c of controllers) n += queueCounts(c).queued;
  return n;
}
