// The one home of type identity: every way this port names a kind, one function per format. Ports
// apimachinery's pkg/runtime/schema (ParseGroupVersion, GroupVersionKind, GroupKind) and the path layout of
// client-go's rest.Request (AbsPath for a resource). Without a Go scheme, a type is named by a descriptor
// ({group, version, kind}, {apiVersion, kind}, "apps/v1/Deployment", "v1/Pod" or a well-known bare kind).
//
// Formats: GroupVersionKind (a record) · gvkId "apps/v1/Deployment" (probe events, informers, refs) ·
// gvkToString "apps/v1, Kind=Deployment" (apimachinery's messages) · groupKindString "Deployment.apps".
import type { GroupVersionKind, GroupVersionResource } from '../../../shared/models/object';

export interface GroupVersion {
  group: string;
  version: string;
}

/** "apps/v1" → {group: "apps", version: "v1"}; "v1" → core group. Throws on more than one slash or an empty string. */
export function parseGroupVersion(apiVersion: string): GroupVersion {
  if (apiVersion === '') throw new Error('apiVersion is empty');
  const [first, second, ...rest] = apiVersion.split('/');
  if (second === undefined && first) return { group: '', version: first };
  if (rest.length === 0 && first && second) return { group: first, version: second };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** The apiVersion string for a group and version: "v1" for the core group, else "group/version". */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

export interface GroupKind {
  group: string;
  kind: string;
}

/** A type, named as a GVK, as an object names itself ({apiVersion, kind}), or as a string. */
export type KindDescriptor = GroupVersionKind | { apiVersion: string; kind: string } | string;

/**
 * A kind read as metav1.PartialObjectMetadata (metadata only), as Go code marks it by setting the GVK on a
 * PartialObjectMetadata: the cache keeps a separate metadata informer for it, fed by a metadata watch.
 */
export interface MetadataKind {
  apiVersion: string;
  kind: string;
  metadataOnly: true;
}

/** The PartialObjectMetadata form of a kind (for OnlyMetadata watches and metadata-only cache reads). */
export function partialObjectMetadata(kind: KindDescriptor): MetadataKind {
  const gvk = toGVK(kind);
  return { apiVersion: apiVersionOf(gvk), kind: gvk.kind, metadataOnly: true };
}

export function isMetadataOnly(kind: unknown): kind is MetadataKind {
  return typeof kind === 'object' && kind !== null && (kind as { metadataOnly?: unknown }).metadataOnly === true;
}

/** Resolves a descriptor to a GVK; throws when a string cannot be understood. */
export function toGVK(desc: KindDescriptor): GroupVersionKind {
  if (typeof desc !== 'string') {
    if ('apiVersion' in desc) return { ...parseGroupVersion(desc.apiVersion), kind: desc.kind };
    return { group: desc.group, version: desc.version, kind: desc.kind };
  }
  const parts = desc.split('/');
  if (parts.length === 1) {
    const known = WELL_KNOWN_KINDS.find((k) => k.gvk.kind === desc)?.gvk;
    if (!known) throw new Error(`no kind is registered for the type ${desc}: name it as "group/version/Kind"`);
    return { ...known };
  }
  if (parts.length === 2) return { group: '', version: parts[0] ?? '', kind: parts[1] ?? '' };
  if (parts.length === 3) return { group: parts[0] ?? '', version: parts[1] ?? '', kind: parts[2] ?? '' };
  throw new Error(`unexpected kind descriptor: ${desc}`);
}

/** "apps/v1/Deployment" or "v1/Pod": the id probe events, informers and object refs use. */
export function gvkId(gvk: GroupVersionKind): string {
  return gvk.group ? `${gvk.group}/${gvk.version}/${gvk.kind}` : `${gvk.version}/${gvk.kind}`;
}

/** The gvkId an object declares through apiVersion and kind ("v1/Pod"), or fallback when it has neither. */
export function gvkIdOf(obj: unknown, fallback: string): string {
  if (typeof obj !== 'object' || obj === null) return fallback;
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion || !kind) return fallback;
  // Most objects are of the kind the caller expects: answering with its string rather than a new one keeps
  // one copy for every ObjectRef a probe event holds instead of one per event.
  const same =
    fallback.length === apiVersion.length + 1 + kind.length &&
    fallback.startsWith(apiVersion) &&
    fallback.endsWith(kind) &&
    fallback.charCodeAt(apiVersion.length) === 47; /* '/' */
  return same ? fallback : `${apiVersion}/${kind}`;
}

/** The GVK an object declares through apiVersion and kind, when it carries both (and they parse). */
export function gvkOfObject(obj: { apiVersion?: string; kind?: string }): GroupVersionKind | undefined {
  if (!obj.apiVersion || !obj.kind) return undefined;
  try {
    return { ...parseGroupVersion(obj.apiVersion), kind: obj.kind };
  } catch {
    return undefined;
  }
}

/** gvkOfObject for a caller that cannot go on without it: throws when apiVersion or kind is missing. */
export function mustGVKOf(obj: { apiVersion?: string; kind?: string }): GroupVersionKind {
  if (!obj.apiVersion || !obj.kind) {
    throw new Error(`object has no apiVersion/kind set (apiVersion=${obj.apiVersion ?? ''}, kind=${obj.kind ?? ''})`);
  }
  return { ...parseGroupVersion(obj.apiVersion), kind: obj.kind };
}

export function sameGVK(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

/** GroupKind.String(): "Kind.group", or "Kind" for the core group. */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** "apps/v1, Kind=Deployment", as apimachinery prints a GVK. */
export function gvkToString(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}, Kind=${gvk.kind}`;
}

/** "apps/v1, Resource=deployments". */
export function gvrToString(gvr: GroupVersionResource): string {
  return `${apiVersionOf(gvr)}, Resource=${gvr.resource}`;
}

/** "deployments.apps" or "pods", as GroupResource prints in Status messages. */
export function groupResourceString(gvr: Pick<GroupVersionResource, 'group' | 'resource'>): string {
  return gvr.group === '' ? gvr.resource : `${gvr.resource}.${gvr.group}`;
}

export interface ResourcePathOptions {
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The API path of a collection, an object or a subresource: /api/v1/namespaces/ns/pods/name/status. */
export function resourcePath(gvr: GroupVersionResource, opts: ResourcePathOptions = {}): string {
  let p = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  if (opts.namespace) p += `/namespaces/${encodeURIComponent(opts.namespace)}`;
  p += `/${gvr.resource}`;
  if (opts.name !== undefined) {
    if (opts.name === '') throw new Error('resource name may not be empty');
    p += `/${encodeURIComponent(opts.name)}`;
  }
  if (opts.subresource) p += `/${opts.subresource}`;
  return p;
}

export interface WellKnownKind {
  gvk: GroupVersionKind;
  gvr: GroupVersionResource;
  namespaced: boolean;
}

function wk(apiVersion: string, kind: string, resource: string, namespaced: boolean): WellKnownKind {
  const gv = parseGroupVersion(apiVersion);
  return { gvk: { ...gv, kind }, gvr: { ...gv, resource }, namespaced };
}

/**
 * Built-in kinds the demo and dashboard name without asking discovery. The REST mapper does not trust
 * this table (a server may not serve a kind); it is for labels, tests and defaults.
 */
export const WELL_KNOWN_KINDS: readonly WellKnownKind[] = [
  wk('v1', 'Pod', 'pods', true),
  wk('v1', 'ConfigMap', 'configmaps', true),
  wk('v1', 'Secret', 'secrets', true),
  wk('v1', 'Service', 'services', true),
  wk('v1', 'ServiceAccount', 'serviceaccounts', true),
  wk('v1', 'Event', 'events', true),
  wk('v1', 'Endpoints', 'endpoints', true),
  wk('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true),
  wk('v1', 'Namespace', 'namespaces', false),
  wk('v1', 'Node', 'nodes', false),
  wk('v1', 'PersistentVolume', 'persistentvolumes', false),
  wk('apps/v1', 'Deployment', 'deployments', true),
  wk('apps/v1', 'ReplicaSet', 'replicasets', true),
  wk('apps/v1', 'StatefulSet', 'statefulsets', true),
  wk('apps/v1', 'DaemonSet', 'daemonsets', true),
  wk('batch/v1', 'Job', 'jobs', true),
  wk('batch/v1', 'CronJob', 'cronjobs', true),
  wk('coordination.k8s.io/v1', 'Lease', 'leases', true),
  wk('events.k8s.io/v1', 'Event', 'events', true),
  wk('rbac.authorization.k8s.io/v1', 'Role', 'roles', true),
  wk('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true),
  wk('rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false),
  wk('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  wk('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', false),
];

/** Looks up a built-in kind by GVK; undefined when the table does not know it. */
export function wellKnownKind(gvk: GroupVersionKind): WellKnownKind | undefined {
  return WELL_KNOWN_KINDS.find(
    (k) => k.gvk.group === gvk.group && k.gvk.version === gvk.version && k.gvk.kind === gvk.kind,
  );
}
