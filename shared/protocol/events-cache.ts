// Events from client-go's cache layer: reflector, DeltaFIFO/RealFIFO, indexer, shared informer.
// Wire-stable: add new kinds and optional fields, never rename.
import type { InformerId, MetaNamespaceKey, ObjectRef } from './ids';
import type { ReflectorState } from './reflector-machine';

export type { ReflectorState } from './reflector-machine';

/** client-go's DeltaType values, in the order panels list them. */
export const DELTA_TYPES = ['Added', 'Updated', 'Deleted', 'Replaced', 'Sync'] as const;

export type DeltaType = (typeof DELTA_TYPES)[number];

export interface ReflectorStateEvent {
  kind: 'reflector.state';
  informer: InformerId;
  /** from → to is always an edge of REFLECTOR_TRANSITIONS (reflector-machine.ts). */
  from: ReflectorState;
  to: ReflectorState;
  /** Why the transition happened, e.g. "410 Expired", "watch closed", "initial". */
  reason: string;
}

/** A list is bracketed (begin ... end) so a relist never looks like N ordinary updates. */
export interface ReflectorListBeginEvent {
  kind: 'reflector.listBegin';
  informer: InformerId;
  resourceVersion: string;
  /** true when this list replaces a previous one (410, watch failure, first list is false). */
  relist: boolean;
  cause: string;
  /**
   * How the state is fetched: 'list', a paginated LIST, then a WATCH from its resourceVersion; 'watchList',
   * one WATCH with sendInitialEvents=true that streams the state, ends it with a bookmark and stays open
   * (client-go's WatchListClient, on by default since 1.35). Absent from producers that do not say.
   */
  method?: ListMethod;
}

export type ListMethod = 'list' | 'watchList';

export interface ReflectorListEndEvent {
  kind: 'reflector.listEnd';
  informer: InformerId;
  resourceVersion: string;
  items: number;
  pages: number;
  durationMs: number;
  relist: boolean;
  /** On relist: how many known objects were absent from the new list (tombstoned as Deleted). */
  deletedFromRelist?: number;
  error?: string;
}

export interface ReflectorWatchStartEvent {
  kind: 'reflector.watchStart';
  informer: InformerId;
  resourceVersion: string;
  timeoutSeconds: number;
}

export interface ReflectorWatchEndEvent {
  kind: 'reflector.watchEnd';
  informer: InformerId;
  resourceVersion: string;
  events: number;
  durationMs: number;
  /** "timeout", "closed", "expired", "error", "stopped", "too-short". */
  reason: string;
  error?: string;
}

export interface ReflectorWatchEventEvent {
  kind: 'reflector.event';
  informer: InformerId;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  ref: ObjectRef;
}

export interface ReflectorBookmarkEvent {
  kind: 'reflector.bookmark';
  informer: InformerId;
  resourceVersion: string;
}

export interface ReflectorErrorEvent {
  kind: 'reflector.error';
  informer: InformerId;
  /** HTTP status or 0 for transport errors. */
  code: number;
  reason: string;
  message: string;
}

export interface ReflectorBackoffEvent {
  kind: 'reflector.backoff';
  informer: InformerId;
  delayMs: number;
}

export interface ReflectorResyncEvent {
  kind: 'reflector.resync';
  informer: InformerId;
  keys: number;
}

export interface FifoDeltaEvent {
  kind: 'fifo.delta';
  informer: InformerId;
  delta: DeltaType;
  key: MetaNamespaceKey;
  ref: ObjectRef;
  /** Deltas now pending for this key, after de-duplication. */
  pendingForKey: number;
  /** Keys in the queue now. */
  queueLength: number;
  /** Set when the object is a DeletedFinalStateUnknown tombstone. */
  tombstone?: boolean;
  /** Set when the queue is followed from outside (a Go process): FIFO_SHADOW_NOTE says what that means. */
  shadow?: boolean;
}

/**
 * What a shadow queue's events mean, for the panel to say: client-go keeps a Go informer's queue private, so
 * the bridge follows it from outside.
 */
export const FIFO_SHADOW_NOTE =
  'Followed from outside the Go process’s queue: a delta is seen entering when the informer’s transform runs ' +
  'for it (under the queue’s lock, its type taken from the watch event the reflector was handed) and leaving ' +
  'when the store’s side handler hears of it, which can be later than the pop. Types and order are exact; ' +
  'pending counts can run ahead of the real queue by that delay, and processing times are not known. ' +
  'Tombstones and Sync deltas skip the transform: they show when popped.';

export interface FifoPopEvent {
  kind: 'fifo.pop';
  informer: InformerId;
  key: MetaNamespaceKey;
  deltas: DeltaType[];
  queueLength: number;
  /** How long processing the popped deltas took; absent when that cannot be seen (shadow). */
  durationMs?: number;
  requeued?: boolean;
  error?: string;
  /** Set when the queue is followed from outside (a Go process): FIFO_SHADOW_NOTE says what that means. */
  shadow?: boolean;
}

export interface IndexerUpdateEvent {
  kind: 'indexer.update';
  informer: InformerId;
  op: 'add' | 'update' | 'delete' | 'replace';
  key: MetaNamespaceKey;
  ref: ObjectRef;
  size: number;
}

export interface IndexerReplaceEvent {
  kind: 'indexer.replace';
  informer: InformerId;
  size: number;
}

export interface InformerHandlerEvent {
  kind: 'informer.notify';
  informer: InformerId;
  handler: string;
  type: 'add' | 'update' | 'delete';
  ref: ObjectRef;
  /** For adds: true when the handler was added late and is being told about existing items. */
  initialList?: boolean;
  /** For updates: true when old and new share a resourceVersion (a resync). */
  resync?: boolean;
}

export interface InformerSyncedEvent {
  kind: 'informer.synced';
  informer: InformerId;
  items: number;
  durationMs: number;
}

export interface InformerLifecycleEvent {
  kind: 'informer.lifecycle';
  informer: InformerId;
  phase: 'started' | 'stopped' | 'handlerAdded' | 'handlerRemoved';
  handler?: string;
  /** The queue implementation this informer uses. */
  fifo?: 'DeltaFIFO' | 'RealFIFO';
}

export type CacheEvent =
  | ReflectorStateEvent
  | ReflectorListBeginEvent
  | ReflectorListEndEvent
  | ReflectorWatchStartEvent
  | ReflectorWatchEndEvent
  | ReflectorWatchEventEvent
  | ReflectorBookmarkEvent
  | ReflectorErrorEvent
  | ReflectorBackoffEvent
  | ReflectorResyncEvent
  | FifoDeltaEvent
  | FifoPopEvent
  | IndexerUpdateEvent
  | IndexerReplaceEvent
  | InformerHandlerEvent
  | InformerSyncedEvent
  | InformerLifecycleEvent;
