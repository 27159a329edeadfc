// Discovery documents: apiserver pkg/endpoints/discovery/{legacy,root,group,version}.go (legacy) and
// pkg/endpoints/discovery/aggregated (apidiscovery.k8s.io/v2), both built from the type registry.
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './resources';

const SUB_VERBS = ['get', 'patch', 'update'];

function subresourcesOf(
  t: ResourceType,
): { name: string; kind: string; group: string; version: string; verbs: string[] }[] {
  const out: { name: string; kind: string; group: string; version: string; verbs: string[] }[] = [];
  if (t.status) out.push({ name: 'status', kind: t.kind, group: t.group, version: t.version, verbs: SUB_VERBS });
  if (t.scale) out.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: SUB_VERBS });
  for (const x of t.subresources ?? [])
    out.push({ name: x.name, kind: x.kind, group: x.group, version: x.version, verbs: x.verbs });
  return out;
}

export function apiVersions(hostPort: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: hostPort }],
  };
}

function groupEntry(registry: ResourceRegistry, group: string): Record<string, unknown> {
  const versions = registry.versionsOf(group).map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: registry.groups().map((g) => groupEntry(registry, g)) };
}

export function apiGroup(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  if (!registry.groups().includes(group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(registry, group) };
}

/** The installer sorts built-in verbs; apiextensions lists custom resources' verbs in its own fixed order. */
function discoveryVerbs(t: ResourceType): string[] {
  return t.crdName ? [...t.verbs] : [...t.verbs].sort();
}

export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const t of types) {
    const entry: Record<string, unknown> = {
      name: t.resource,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: discoveryVerbs(t),
    };
    if (t.shortNames.length) entry.shortNames = t.shortNames;
    if (t.categories.length) entry.categories = t.categories;
    resources.push(entry);
    for (const s of subresourcesOf(t)) {
      const sub: Record<string, unknown> = {
        name: `${t.resource}/${s.name}`,
        singularName: '',
        namespaced: t.namespaced,
        kind: s.kind,
        verbs: s.verbs,
      };
      if (s.group !== t.group || s.version !== t.version) {
        sub.group = s.group;
        sub.version = s.version;
      }
      resources.push(sub);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

function aggregatedResource(t: ResourceType): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: t.resource,
    responseKind: { group: t.group, version: t.version, kind: t.kind },
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: discoveryVerbs(t),
  };
  if (t.shortNames.length) r.shortNames = t.shortNames;
  if (t.categories.length) r.categories = t.categories;
  const subs = subresourcesOf(t);
  if (subs.length) {
    r.subresources = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group, version: s.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return r;
}

function aggregatedGroup(registry: ResourceRegistry, group: string): Record<string, unknown> {
  return {
    metadata: { name: group },
    versions: registry.versionsOf(group).map((v) => ({
      version: v,
      resources: registry.inGroupVersion(group, v).map(aggregatedResource),
      freshness: 'Current',
    })),
  };
}

/** The aggregated document for `/api` (core only) or `/apis` (every named group). */
export function aggregatedDiscovery(registry: ResourceRegistry, core: boolean): Record<string, unknown> {
  const groups = core ? [''] : registry.groups();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => aggregatedGroup(registry, g)),
  };
}
