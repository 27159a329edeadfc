// References that probe events carry instead of whole objects.

/** Identifies one object without carrying it: enough to find it in a cache or ask for it. */
export interface ObjectRef {
  /** "group/version/Kind", "v1/Pod" for the core group. */
  gvk: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
}

/**
 * A store or queue key: "namespace/name", or "name" for cluster-scoped objects (client-go's
 * MetaNamespaceKeyFunc). Not controller-runtime's client.ObjectKey, which is the {namespace, name} record.
 */
export type MetaNamespaceKey = string;

/** Names the informer a cache event belongs to, e.g. "v1/Pod". */
export type InformerId = string;

/** Names a controller (and its workqueue, which shares the name as upstream does). */
export type ControllerName = string;
