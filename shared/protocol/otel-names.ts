// The OpenTelemetry names both exporters use: span names, attribute keys, link kinds and the seed of the
// deterministic write ids. One definition, generated into Go (go/protocol/protocol_gen.go) like the events, so
// a TypeScript and a Go controller produce spans a query can match by the same keys.
//
// Resource attributes are OpenTelemetry's semantic conventions; everything that describes a controller is
// ours, under `controller_scope.` (semantic conventions have no reconcile, workqueue or cause).

/** Span names. */
export const OTEL_SPAN = {
  /** One reconcile, from its start to its result. */
  reconcile: 'reconcile',
  /** A key waiting in the workqueue: from the first enqueue after its last reconcile to this reconcile's start. */
  queueWait: 'queue wait',
  /** One client write (create, update, patch, delete, status), with the version it produced. */
  write: 'write',
} as const;

/** Attribute keys on spans and links. */
export const OTEL_ATTR = {
  controller: 'controller_scope.controller',
  key: 'controller_scope.key',
  reconcileId: 'controller_scope.reconcile_id',
  result: 'controller_scope.result',
  error: 'controller_scope.error',
  attempt: 'controller_scope.attempt',
  requeueAfterMs: 'controller_scope.requeue_after_ms',
  causes: 'controller_scope.causes',
  queueWaitMs: 'controller_scope.queue_wait_ms',
  verb: 'controller_scope.verb',
  objectKind: 'controller_scope.object.kind',
  objectNamespace: 'controller_scope.object.namespace',
  objectName: 'controller_scope.object.name',
  objectUid: 'controller_scope.object.uid',
  /** On a write: the resourceVersion the API server gave the object. On a cause link: the version delivered. */
  objectResourceVersion: 'controller_scope.object.resource_version',
  statusCode: 'controller_scope.status_code',
  /** On a link: what it means (one of OTEL_LINK). */
  link: 'controller_scope.link',
  /** On a cause link: the cause's type (event, owner, mapped, requeue, ...) and the event's type. */
  causeType: 'controller_scope.cause.type',
  eventType: 'controller_scope.cause.event_type',
} as const;

/** What a link says, in its `controller_scope.link` attribute. */
export const OTEL_LINK = {
  /** reconcile → the write that produced the version a watch event delivered (any process, any language). */
  cause: 'cause',
  /** reconcile → the previous reconcile of the key, for a requeue, requeueAfter or error backoff. */
  retry: 'retry',
  /** reconcile → each write it made. */
  wrote: 'wrote',
  /** write → the reconcile that made it. */
  madeBy: 'made_by',
} as const;

/** OpenTelemetry semantic-convention resource keys the exporters set. */
export const OTEL_RESOURCE = {
  serviceName: 'service.name',
  serviceInstanceId: 'service.instance.id',
  k8sPodName: 'k8s.pod.name',
  k8sNamespaceName: 'k8s.namespace.name',
} as const;

/**
 * The seed of a write's ids: SHA-256 of seed, NUL, uid, NUL, resourceVersion; the trace id is the first 16
 * bytes, the span id the next 8. Every process computes the same ids for the write that made a version, so
 * a reconcile in another process links to it knowing only the event's uid and resourceVersion.
 */
export const OTEL_WRITE_ID_SEED = 'controller-scope/write/v1';
