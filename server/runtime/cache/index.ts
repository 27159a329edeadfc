// The cache layer's front door (client-go tools/cache), for the rest of the runtime.
export * from './interfaces';
export {
  KeyError,
  errorIs,
  metaNamespaceKeyFunc,
  deletionHandlingMetaNamespaceKeyFunc,
  splitMetaNamespaceKey,
  parseObjectName,
  objectNameString,
  metaObjectToName,
  deletionHandlingObjectToName,
  deletedObjectKey,
  deletedObjectName,
  type ObjectName,
} from './keys';
export { objectRef } from './object-ref';
export { ThreadSafeStore } from './thread-safe-store';
export { CacheStore, newStore, TransactionError, type CacheStoreOptions, type Transaction } from './store';
export { NAMESPACE_INDEX, metaNamespaceIndexFunc, newIndexer } from './indexer';
export {
  FIFO,
  ErrFIFOClosed,
  FIFOClosedError,
  ErrRequeue,
  type Queue,
  type PopProcessFunc,
  type FIFOOptions,
} from './fifo';
export {
  DeltaFIFO,
  ErrZeroLengthDeltasObject,
  ZeroLengthDeltasError,
  oldest,
  newest,
  type Delta,
  type Deltas,
  type DeltaType,
  type DeltaFIFOOptions,
} from './delta-fifo';
export { RealFIFO, type RealFIFOOptions, type AtomicEvent } from './real-fifo';
export type { ReflectorStore, KeyListerGetter } from './reflector-store';
export { Backoff, BackoffManager, REFLECTOR_BACKOFF, type BackoffOptions, type BackoffManagerOptions } from './backoff';
export { listPages, DEFAULT_PAGE_SIZE, type PagedList } from './pager';
export {
  VeryShortWatchError,
  isConnectionRefused,
  isTooLargeResourceVersion,
  isInternalError,
} from './reflector-errors';
export { Reflector, DEFAULT_MIN_WATCH_TIMEOUT_MS, type ReflectorOptions } from './reflector';
export type { ReflectorTuning } from './reflector-options';
export { INITIAL_EVENTS_END_ANNOTATION } from './watch-handler';
export {
  Controller,
  processDeltas,
  processAtomicEvent,
  filteringResourceEventHandler,
  newIndexerInformer,
  type ControllerConfig,
  type DeltaStore,
  type AtomicDeltaStore,
  type IndexerInformerOptions,
} from './controller';
export { SingleFileTracker } from './synctrack';
export { ProcessorListener, SharedProcessor, determineResyncPeriod, type Notification } from './processor-listener';
export {
  SharedIndexInformerImpl,
  newSharedIndexInformer,
  waitForCacheSync,
  shutDownEventHandler,
  MINIMUM_RESYNC_PERIOD_MS,
  type SharedIndexInformerOptions,
  type FifoKind,
} from './shared-informer';
export { dropManagedFields, chainTransforms, transformStripManagedFields } from './transforms';
export {
  INTERNED_FIELDS,
  transformInternStrings,
  type InternStringsOptions,
  type InternStringsTransform,
} from './intern-strings';
export { transformShareSubtrees, type ShareSubtreesOptions, type ShareSubtreesTransform } from './share-subtrees';
