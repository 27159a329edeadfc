// Events from workqueues (basic, delaying, rate-limiting, priority). Every enqueue carries its cause.
import type { MetaNamespaceKey, ObjectRef } from './ids';

export type CauseType =
  | 'event' // an informer event about the object itself (handler.EnqueueRequestForObject)
  | 'owner' // an event about an owned object, mapped to its owner
  | 'mapped' // an event mapped by a user function
  | 'requeue' // Result.Requeue (rate limited)
  | 'requeueAfter' // Result.RequeueAfter
  | 'errorBackoff' // the reconciler returned an error
  | 'resync' // a periodic resync replayed the object
  | 'manual' // a user asked from the dashboard
  | 'unknown';

/** Why a key was enqueued. The reconciler never sees it; the UI always does. */
export interface EnqueueCause {
  type: CauseType;
  /** The informer event that led here (create/update/delete/generic), when there was one. */
  eventType?: 'create' | 'update' | 'delete' | 'generic';
  /** The object whose event caused the enqueue (the owned object for "owner"). */
  source?: ObjectRef;
  /**
   * On an update: the resourceVersion of the old object the event replaced, so the span of versions the
   * event covers is known (a write whose version lies inside it was folded into this one event).
   */
  previousResourceVersion?: string;
  /** Free text for the UI, e.g. the error message of an errorBackoff. */
  detail?: string;
}

export type QueueKind = 'basic' | 'delaying' | 'rateLimiting' | 'priority';

/** What each event knows about the queue at that instant: the three parts of its depth. */
export interface QueueDepth {
  /** Keys ready for a worker (in the queue, not processing). */
  ready: number;
  /** Keys waiting for a delay (addAfter / rate-limited backoff). */
  waiting: number;
  /** Keys a worker holds now. */
  processing: number;
}

export interface QueueAddEvent {
  kind: 'queue.add';
  queue: string;
  key: MetaNamespaceKey;
  cause: EnqueueCause;
  /** false when the key was already queued (de-duplicated) or is processing (marked dirty). */
  queued: boolean;
  /** true when the key is being processed and will run again after done. */
  dirtyWhileProcessing: boolean;
  priority?: number;
  /**
   * true when a delayed entry (addAfter / rate-limited) became ready and was added: its causes were already
   * reported by the queue.addAfter events it absorbed, and `cause` repeats the first of them.
   */
  matured?: boolean;
  /**
   * true when the key was waiting for a delay and this add made it ready now, so that delay will not fire:
   * the priority queue folds both into one entry. client-go's delaying queue never sets it (its delayed entry
   * stays and fires later, even after the key was processed).
   */
  delayCancelled?: boolean;
  depth: QueueDepth;
}

export interface QueueAddAfterEvent {
  kind: 'queue.addAfter';
  queue: string;
  key: MetaNamespaceKey;
  cause: EnqueueCause;
  delayMs: number;
  /** Epoch ms at which the key becomes ready. */
  readyAt: number;
  /** For rate-limited adds: the limiter's count of requeues for this key. */
  requeues?: number;
  depth: QueueDepth;
}

export interface QueueGetEvent {
  kind: 'queue.get';
  queue: string;
  key: MetaNamespaceKey;
  /** How long the key waited ready in the queue. */
  waitMs: number;
  depth: QueueDepth;
}

export interface QueueDoneEvent {
  kind: 'queue.done';
  queue: string;
  key: MetaNamespaceKey;
  processingMs: number;
  /** true when the key was re-added while processing and is queued again now. */
  requeued: boolean;
  depth: QueueDepth;
}

export interface QueueForgetEvent {
  kind: 'queue.forget';
  queue: string;
  key: MetaNamespaceKey;
}

export interface QueueShutdownEvent {
  kind: 'queue.shutdown';
  queue: string;
  drain: boolean;
}

export type WorkqueueEvent =
  QueueAddEvent | QueueAddAfterEvent | QueueGetEvent | QueueDoneEvent | QueueForgetEvent | QueueShutdownEvent;
