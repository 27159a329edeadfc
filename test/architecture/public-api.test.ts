// The runtime's public surface, held still on purpose: every name server/runtime/index.ts exports (values and
// type-only names apart, and the members of its `cache`, `workqueue` and `predicate` namespaces) is listed
// here, so adding, removing or renaming one shows up in review as a change to this file. Update the lists
// when the change is deliberate. Below them, the names a Go controller author reaches for first, used the way
// their Go code reads, so the port's naming promise is checked by the compiler as well as by this test.
import { resolve } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import * as runtime from '../../server/runtime';
import {
  cache,
  getConfigOrDie,
  newControllerManagedBy,
  newManager,
  predicate,
  workqueue,
  type Client,
  type Manager,
  type ManagerOptions,
  type Predicate,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../../server/runtime';
import { exportedNames, namespaceTarget, type ExportedName } from './public-api-names';

const INDEX = resolve(import.meta.dirname, '../../server/runtime/index.ts');

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

const TOP_VALUES = words(`
  AlreadyOwnedError ApiError Builder CONTENT_TYPE CachedClient ConfigError ConsoleLogger Controller
  DEFAULT_CACHE_SYNC_TIMEOUT_MS DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS DEFAULT_LEASE_DURATION_MS
  DEFAULT_RENEW_DEADLINE_MS DEFAULT_RETRY_PERIOD_MS DeadlineExceededError DeletedFinalStateUnknown
  DynamicRESTMapper EventChannel HealthProbeServer HealthzHandler HttpClient InformerCache JITTER_FACTOR Kind
  LOW_PRIORITY LeaderElector LeaseLock ListWatch Manager MultiProbe NOOP_PROBE NULL_LOGGER RECONCILE_TIME_BUCKETS
  REST_CLIENT_LATENCY_BUCKETS RestClient RestConfig Scheme Stepper TerminalError UPSTREAM_DEFAULTS UPSTREAM_VERSION addFinalizer and annotationChangedPredicate apiVersionOf applyPatch
  asReconciler cache channelSource childContext containsFinalizer controllerMetrics createOrUpdate
  currentReconcileScope dropManagedFields enqueue enqueueRequestForObject enqueueRequestForOwner
  enqueueRequestsFromMapFunc errorMessage eventCause everything findStatusCondition funcSource funcs generationChangedPredicate getConfig
  getConfigOrDie getReallyCrash groupKindString gvkId gvkOfObject hasControllerReference hasOwnerReference informerSource
  isAlreadyExists isBuiltInGroup isCacheRunnable isConflict isDeadlineExceeded isError isForbidden isLeaderElectionRunnable isMetadataOnly isNotFound
  isPanic isResourceExpired isResync isServerRunnable isStatusConditionFalse isStatusConditionPresentAndEqual isStatusConditionTrue isSyncingSource isTerminalError isTooManyRequests
  isUnauthorized isWarmupRunnable isWebhookRunnable isZeroResult kindSource labelChangedPredicate
  labelSelectorAsSelector labelSelectorPredicate leaderElectionMetrics lowPriorityFor matchEveryOwner mergeFrom
  metaNamespaceKeyFunc metav1Now namespacedName newAPIReader newCachedClient newControllerManagedBy newEventRecorder newInformerCache
  newListWatchForGVK newListWatchFromClient newManager newPredicateFuncs newRegistry newResourceLock newRestClient
  newScheme newSharedIndexInformer newUnmanaged not onlyMetadata or parseBindAddress parseGroupVersion parseSelector partialObjectMetadata ping predicate
  predicateFuncs rawPatch realClock reconcileFunc registerRESTClientMetrics registry removeControllerReference removeFinalizer
  removeOwnerReference removeStatusCondition requestFromKey requestKey requestOf resourcePath resourceVersionChangedPredicate
  restClientMetrics runInReconcileScope runnableFunc runtimeDefaults sameGVK selectorFromSet setControllerReference setOwnerReference
  setReallyCrash setRuntimeDefaults setStatusCondition setupSignalHandler shutDownEventHandler splitMetaNamespaceKey terminalError toGVK transformInternStrings transformShareSubtrees transformStripManagedFields validateLeaderElectionConfig
  waitForCacheSync wellKnownScope withControllerConfig withLowPriorityWhenUnchanged withPredicates workqueue
`);

const TOP_TYPES = words(`
  Breakpoint BuilderControllerOptions BuilderManager ByObject CacheOptions CacheRunnable CachedClientOptions ChannelOptions
  Checker ChildContext Client ClientCacheOptions ClientListOptions Clock Condition ConditionStatus ControllerConfig ControllerMetrics ControllerOptions
  ControllerQueue CreateEvent DecodeHint DeleteEvent EnqueueRequestForOwnerOptions EventHandler EventRecorder EventRecorderOptions EventType
  ForOptions GenericEvent GetConfigOptions GroupKind GroupVersionKind GroupVersionResource HandlerContext HandlerFuncs HealthProbeServerOptions
  HealthResponse IndexFunc Indexer Indexers InformerCacheOptions InformerSourceOptions InternStringsOptions KindCache KindDescriptor
  KindOptions KubeList KubeObject LabelSelector LeaderCallbacks LeaderElectionConfig LeaderElectionMetrics LeaderElectionOptions
  LeaderElectionRecord LeaderElectionRunnable Lease LeaseLockOptions LeaseSpec ListOptions ListerWatcher LogValues
  Logger ManagerOptions MapFunc MetadataKind NewInformerCacheOptions NewQueue NewQueueContext ObjectKey ObjectMeta ObjectReconciler
  ObjectType OperationResult OwnerRefOptions OwnerReference OwnsOptions Patch Predicate PredicateFuncs Probe RESTClientMetric Reader
  ReconcileContext ReconcileFn ReconcileScope Reconciler Request RequestQueue Requirement ResourceEventHandler
  ResourceEventHandlerRegistration ResourceLock RestClientMetrics Result Runnable RuntimeDefaults ScopeResolver Selector SelectorOperator
  ServerRunnable ShareSubtreesOptions SharedIndexInformer Source SourceContext StatusWriter StepGate StepperState Store SyncingSource
  TimerHandle TransformFunc TypedDelayingInterface TypedInterface TypedRateLimiter TypedRateLimitingInterface
  UpdateEvent UpstreamDefaultsRelease WarmupRunnable WatchStream WatchesOptions WebhookRunnable Writer
`);

const CACHE_VALUES = words(`
  Backoff BackoffManager CacheStore Controller DEFAULT_MIN_WATCH_TIMEOUT_MS DEFAULT_PAGE_SIZE
  DeletedFinalStateUnknown DeltaFIFO ErrFIFOClosed ErrRequeue ErrZeroLengthDeltasObject FIFO FIFOClosedError
  INITIAL_EVENTS_END_ANNOTATION INTERNED_FIELDS KeyError MINIMUM_RESYNC_PERIOD_MS NAMESPACE_INDEX ProcessorListener
  REFLECTOR_BACKOFF RealFIFO Reflector SharedIndexInformerImpl SharedProcessor SingleFileTracker ThreadSafeStore
  TransactionError VeryShortWatchError ZeroLengthDeltasError chainTransforms deletedObjectKey deletedObjectName
  deletionHandlingMetaNamespaceKeyFunc deletionHandlingObjectToName determineResyncPeriod dropManagedFields
  errorIs filteringResourceEventHandler isConnectionRefused isInternalError isTooLargeResourceVersion
  listPages metaNamespaceIndexFunc metaNamespaceKeyFunc metaObjectToName newIndexer newIndexerInformer
  newSharedIndexInformer newStore newest objectNameString objectRef oldest parseObjectName processAtomicEvent processDeltas
  shutDownEventHandler splitMetaNamespaceKey transformInternStrings transformShareSubtrees transformStripManagedFields waitForCacheSync
`);

const CACHE_TYPES = words(`
  AtomicDeltaStore AtomicEvent BackoffManagerOptions BackoffOptions CacheStoreOptions ControllerConfig Delta DeltaFIFOOptions DeltaStore
  DeltaType Deltas FIFOOptions FifoKind HandlerOptions IndexFunc Indexer IndexerInformerOptions Indexers KeyFunc
  InternStringsOptions InternStringsTransform KeyListerGetter ShareSubtreesOptions ShareSubtreesTransform Notification ObjectName PagedList PopProcessFunc Queue RealFIFOOptions ReflectorOptions ReflectorTuning
  ReflectorStore ResourceEventHandler ResourceEventHandlerRegistration SharedIndexInformer
  SharedIndexInformerOptions Store Transaction TransformFunc WatchErrorHandler
`);

const WORKQUEUE_VALUES = words(`
  BucketRateLimiter DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS DelayingQueue Heap ItemExponentialFailureRateLimiter
  ItemFastSlowRateLimiter LOW_PRIORITY MAX_RECOMMENDED_UNIQUE_PRIORITIES MaxOfRateLimiter NOOP_METRICS_PROVIDER
  PRIORITY_CARDINALITY_EXCEEDED PriorityQueue PrometheusMetricsProvider RateLimitingQueue TokenBucket
  UNKNOWN_CAUSE WithMaxWaitRateLimiter WorkQueue defaultControllerRateLimiter defaultPriorityQueueRateLimiter
  defaultQueue defaultTypedControllerRateLimiter defaultTypedItemBasedRateLimiter hasPriorityDepth
  newPriorityQueue newTyped newTypedDelayingQueueWithConfig newTypedRateLimitingQueueWithConfig newTypedWithConfig
`);

const WORKQUEUE_TYPES = words(`
  AddOpts BucketRateLimiterOptions CounterMetric DefaultRateLimiterOptions DelayingQueueOptions
  DepthMetricWithPriority GaugeMetric GetResult HeapEntry HistogramMetric ItemExponentialFailureRateLimiterOptions
  ItemFastSlowRateLimiterOptions KeyOf MetricsProvider MetricsProviderWithPriority PriorityGetResult
  PriorityQueueInterface PriorityQueueOptions PrometheusMetricsProviderOptions Queue QueueOptions
  RateLimitingQueueOptions SettableGaugeMetric TokenBucketOptions TypedDelayingInterface TypedInterface
  TypedRateLimiter TypedRateLimitingInterface
`);

const PREDICATE_VALUES = words(`
  and annotationChangedPredicate generationChangedPredicate labelChangedPredicate labelSelectorPredicate
  newPredicateFuncs not or predicateFuncs resourceVersionChangedPredicate
`);

const PREDICATE_TYPES = words(`
  Predicate PredicateFuncs
`);

/** What changed against a list, so a failure names the names rather than dumping two long arrays. */
function drift(actual: readonly string[], expected: readonly string[]): { added: string[]; removed: string[] } {
  return {
    added: actual.filter((n) => !expected.includes(n)),
    removed: expected.filter((n) => !actual.includes(n)),
  };
}

const values = (ns: readonly ExportedName[]): string[] => ns.filter((n) => !n.typeOnly).map((n) => n.name);
const types = (ns: readonly ExportedName[]): string[] => ns.filter((n) => n.typeOnly).map((n) => n.name);

describe('public API of server/runtime', () => {
  const top = exportedNames(INDEX);
  const inNamespace = (name: string): ExportedName[] => exportedNames(namespaceTarget(INDEX, name));

  it('exports exactly the listed names', () => {
    expect(drift(values(top), TOP_VALUES)).toEqual({ added: [], removed: [] });
    expect(drift(types(top), TOP_TYPES)).toEqual({ added: [], removed: [] });
    // Sorted lists keep the review diff readable.
    expect(TOP_VALUES).toEqual([...TOP_VALUES].sort());
    expect(TOP_TYPES).toEqual([...TOP_TYPES].sort());
  });

  it('exports exactly the listed names under cache, workqueue and predicate', () => {
    const cases: [string, string[], string[]][] = [
      ['cache', CACHE_VALUES, CACHE_TYPES],
      ['workqueue', WORKQUEUE_VALUES, WORKQUEUE_TYPES],
      ['predicate', PREDICATE_VALUES, PREDICATE_TYPES],
    ];
    for (const [ns, vals, tys] of cases) {
      const names = inNamespace(ns);
      expect(drift(values(names), vals), `${ns} values`).toEqual({ added: [], removed: [] });
      expect(drift(types(names), tys), `${ns} types`).toEqual({ added: [], removed: [] });
    }
  });

  it('the source reading agrees with what the module really exports at run time', () => {
    // An ambiguous `export *` is dropped silently at run time; this catches a name the lists claim but the
    // module does not deliver.
    expect(Object.keys(runtime).sort()).toEqual(values(top));
    expect(Object.keys(runtime.cache).sort()).toEqual(values(inNamespace('cache')));
    expect(Object.keys(runtime.workqueue).sort()).toEqual(values(inNamespace('workqueue')));
    expect(Object.keys(runtime.predicate).sort()).toEqual(values(inNamespace('predicate')));
  });

  it('has the names a Go controller author reaches for first', () => {
    // ctrl.NewManager, ctrl.NewControllerManagedBy, ctrl.GetConfigOrDie, ctrl.SetupSignalHandler
    for (const name of ['newManager', 'newControllerManagedBy', 'getConfigOrDie', 'getConfig', 'setupSignalHandler'])
      expect(typeof runtime[name as keyof typeof runtime], name).toBe('function');
    // reconcile.Func, handler.EnqueueRequestForObject / ForOwner / FromMapFunc, builder.WithPredicates
    for (const name of [
      'reconcileFunc',
      'enqueueRequestForObject',
      'enqueueRequestForOwner',
      'enqueueRequestsFromMapFunc',
      'withPredicates',
      'setControllerReference',
      'createOrUpdate',
      'mergeFrom',
      'isNotFound',
      'isConflict',
      'terminalError',
    ])
      expect(typeof runtime[name as keyof typeof runtime], name).toBe('function');
    // cache.NewSharedIndexInformer, cache.MetaNamespaceKeyFunc, cache.WaitForCacheSync, cache.DeltaFIFO
    expect(typeof cache.newSharedIndexInformer).toBe('function');
    expect(typeof cache.metaNamespaceKeyFunc).toBe('function');
    expect(typeof cache.waitForCacheSync).toBe('function');
    expect(typeof cache.DeltaFIFO).toBe('function');
    expect(typeof cache.Reflector).toBe('function');
    // workqueue.NewTypedRateLimitingQueueWithConfig, workqueue.DefaultTypedControllerRateLimiter
    expect(typeof workqueue.newTypedRateLimitingQueueWithConfig).toBe('function');
    expect(typeof workqueue.defaultTypedControllerRateLimiter).toBe('function');
    expect(typeof workqueue.newTypedDelayingQueueWithConfig).toBe('function');
    expect(typeof workqueue.newTyped).toBe('function');
    // predicate.And / Or / Not / GenerationChangedPredicate
    for (const name of ['and', 'or', 'not', 'generationChangedPredicate', 'newPredicateFuncs'] as const)
      expect(typeof predicate[name], `predicate.${name}`).toBe('function');
    expect(predicate.and).toBe(runtime.and);
  });

  it('reads like the Go it ports (checked by the compiler)', () => {
    // type PodReconciler struct{ client.Client }; func (r *PodReconciler) Reconcile(ctx, req) (ctrl.Result, error)
    class PodReconciler implements Reconciler {
      constructor(readonly client: Client) {}
      async reconcile(_ctx: ReconcileContext, req: Request): Promise<Result> {
        return req.name === 'again' ? { requeueAfterMs: 1000 } : {};
      }
      setupWithManager(mgr: Manager): Promise<void> {
        return newControllerManagedBy(mgr)
          .for(
            'v1/Pod',
            runtime.withPredicates(
              predicate.or(predicate.generationChangedPredicate(), predicate.labelChangedPredicate()),
            ),
          )
          .complete(this);
      }
    }
    expectTypeOf(PodReconciler).instance.toMatchTypeOf<Reconciler>();
    expectTypeOf(newManager).parameter(1).toEqualTypeOf<ManagerOptions | undefined>();
    expectTypeOf(getConfigOrDie).returns.toEqualTypeOf<runtime.RestConfig>();
    expectTypeOf(predicate.not).returns.toEqualTypeOf<Predicate>();

    // q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](), ...)
    const q: workqueue.TypedRateLimitingInterface<string> = workqueue.newTypedRateLimitingQueueWithConfig<string>({
      rateLimiter: workqueue.defaultTypedControllerRateLimiter<string>(),
    });
    expect(q).toBeInstanceOf(workqueue.RateLimitingQueue);
    q.add('default/a');
    expect(q.len()).toBe(1);
    q.shutDown();

    // informer := cache.NewSharedIndexInformer(lw, &v1.Pod{}, resync, cache.Indexers{})
    expectTypeOf(cache.newSharedIndexInformer).returns.toMatchTypeOf<cache.SharedIndexInformer<KubeObject>>();
    const key = cache.metaNamespaceKeyFunc({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name: 'p' } });
    expect(key).toBe('ns/p');
  });
});
