// The runtime's one front door, under upstream names (camelCased). Internals stay behind it: other parts
// of the product, and users' controllers, import from here.

// The upstream release followed, and the switch to an older release's defaults
export {
  UPSTREAM_VERSION,
  UPSTREAM_DEFAULTS,
  runtimeDefaults,
  setRuntimeDefaults,
  type RuntimeDefaults,
  type UpstreamDefaultsRelease,
} from './upstream';

// Instrumentation, time, errors
export type { Probe } from './instrumentation/probe';
export { NOOP_PROBE, MultiProbe } from './instrumentation/probe';
export type { Clock, TimerHandle } from './util/clock';
export { realClock } from './util/clock';
export * from './util/errors';
// apimachinery util/runtime: a throw in an event handler or predicate ends the process unless this is off.
export { setReallyCrash, getReallyCrash } from './util/runtime';

// client-go tools/cache and util/workqueue, as Go code names them: cache.DeltaFIFO, workqueue.PriorityQueue.
export * as cache from './cache/index';
export * as workqueue from './workqueue/index';
// The names a controller author reaches for most, also at the top level.
export type {
  Store,
  Indexer,
  Indexers,
  IndexFunc,
  SharedIndexInformer,
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
  TransformFunc,
} from './cache/interfaces';
export { DeletedFinalStateUnknown } from './cache/interfaces';
export { metaNamespaceKeyFunc, splitMetaNamespaceKey } from './cache/keys';
export { newSharedIndexInformer, shutDownEventHandler, waitForCacheSync } from './cache/shared-informer';
export { dropManagedFields, transformStripManagedFields } from './cache/transforms';
export { transformInternStrings, type InternStringsOptions } from './cache/intern-strings';
export { transformShareSubtrees, type ShareSubtreesOptions } from './cache/share-subtrees';
export {
  InformerCache,
  newInformerCache,
  type InformerCacheOptions,
  type NewInformerCacheOptions,
  type ByObject,
} from './cache/informer-cache';
export type {
  TypedInterface,
  TypedDelayingInterface,
  TypedRateLimitingInterface,
  TypedRateLimiter,
} from './workqueue/interfaces';

// client-go rest/clientcmd + controller-runtime pkg/client, pkg/client/config, pkg/client/apiutil
export { RestConfig, getConfig, getConfigOrDie, ConfigError, type GetConfigOptions } from './client/config';
export type { DecodeHint, ListerWatcher, ListOptions, WatchStream } from './client/lister-watcher';
export { newListWatchFromClient, newListWatchForGVK, ListWatch } from './client/list-watch';
export { HttpClient } from './client/http';
export { RestClient, newRestClient, newAPIReader } from './client/rest-client';
export { CachedClient, newCachedClient, type CachedClientOptions } from './client/cached-client';
export { Scheme, newScheme, isBuiltInGroup } from './client/scheme';
export { mergeFrom, rawPatch, applyPatch, type Patch } from './client/patch';
export type {
  Client,
  Reader,
  Writer,
  StatusWriter,
  ObjectKey,
  ObjectType,
  ClientListOptions,
} from './client/interfaces';
export { DynamicRESTMapper } from './client/rest-mapper';
export {
  parseGroupVersion,
  apiVersionOf,
  resourcePath,
  toGVK,
  gvkId,
  gvkOfObject,
  sameGVK,
  groupKindString,
  partialObjectMetadata,
  isMetadataOnly,
  type KindDescriptor,
  type GroupKind,
  type MetadataKind,
} from './client/gvk';

// apimachinery: the object model a controller reads and writes, and pkg/api/meta's status-condition helpers
export type {
  KubeObject,
  KubeList,
  ObjectMeta,
  OwnerReference,
  GroupVersionKind,
  GroupVersionResource,
} from '../../shared/models/object';
export * from './meta/conditions';

// controller-runtime pkg/reconcile, pkg/handler, pkg/predicate, pkg/source, pkg/event
export * from './reconcile/reconcile';
export { asReconciler, type ObjectReconciler } from './reconcile/object-reconciler';
export { currentReconcileScope, runInReconcileScope, type ReconcileScope } from './instrumentation/reconcile-scope';
export type { Logger, LogValues } from './reconcile/logger';
export { NULL_LOGGER, ConsoleLogger } from './reconcile/logger';
export * from './handler/eventhandler';
export * from './handler/enqueue';
export * from './handler/enqueue-owner';
export * from './handler/enqueue-mapped';
export * from './predicate/predicate';
// Go code says predicate.And / predicate.Or / predicate.Not: the generic names also live under `predicate`.
export * as predicate from './predicate/predicate';
export * from './predicate/label-selector';
export * from './event/event';
export * from './source/source';
export * from './source/kind';
export * from './source/channel';
export { informerSource, type InformerSourceOptions } from './source/informer';
export { childContext, DeadlineExceededError, isDeadlineExceeded, type ChildContext } from './util/context';

// controller-runtime pkg/controller, pkg/controller/controllerutil, pkg/builder
export * from './controller/controller';
export * from './controller/options';
export * from './controller/controllerutil';
export { Stepper, type Breakpoint, type StepperState, type StepGate } from './controller/stepper';
export * from './builder/controller';
export {
  withPredicates,
  matchEveryOwner,
  onlyMetadata,
  type ForOptions,
  type OwnsOptions,
  type WatchesOptions,
} from './builder/options';

// controller-runtime pkg/manager, pkg/healthz, pkg/leaderelection, pkg/metrics
export * from './manager/manager';
export * from './manager/options';
export * from './manager/runnable';
export * from './manager/healthz';
export { newEventRecorder, type EventRecorder, type EventRecorderOptions } from './manager/event-recorder';
export { setupSignalHandler } from './manager/signals';
export { HealthProbeServer, parseBindAddress, type HealthProbeServerOptions } from './manager/health-server';
export * from './leaderelection/leader-elector';
export * from './leaderelection/options';
export { LeaseLock, type LeaseLockOptions, type Lease, type LeaseSpec } from './leaderelection/lease-lock';
export type { ResourceLock, LeaderElectionRecord } from './leaderelection/resource-lock';
export * from './metrics/index';
