// Ports controller-runtime pkg/client/apiutil/restmapper.go (NewDynamicRESTMapper): starts empty, answers
// from what it has discovered so far, and on a miss discovers the group (or the requested versions), then
// retries once. A 404 for a group-version drops it, so deleted CRDs disappear and new ones are found.
import type { GroupVersionKind, GroupVersionResource, KubeObject } from '../../../shared/models/object';
import { isNotFound } from '../util/errors';
import type { APIGroup, APIResource, APIResourceList } from './discovery';
import { DiscoveryClient } from './discovery';
import type { GroupVersion } from './gvk';
import { apiVersionOf, groupKindString, mustGVKOf, type GroupKind } from './gvk';
import type { HttpClient } from './http';

export type RESTScopeName = 'namespace' | 'root';

export interface RESTMapping {
  gvk: GroupVersionKind;
  resource: GroupVersionResource;
  scope: RESTScopeName;
  /** Verbs discovery lists for the resource (get, list, watch, create, …). */
  verbs: string[];
}

/** A partial resource: group and version may be left out to match any. */
export interface PartialResource {
  group?: string;
  version?: string;
  resource: string;
}

/** meta.NoKindMatchError: no served version of the group has the kind. */
export class NoKindMatchError extends Error {
  override readonly name = 'NoKindMatchError';
  constructor(
    readonly groupKind: GroupKind,
    readonly searchedVersions: string[],
  ) {
    const gk = groupKindString(groupKind);
    const where =
      searchedVersions.length === 0
        ? `group "${groupKind.group}"`
        : `version ${searchedVersions.map((v) => `"${apiVersionOf({ group: groupKind.group, version: v })}"`).join(', ')}`;
    super(`no matches for kind "${groupKind.kind}" in ${where} (${gk}); is the CRD installed and established?`);
  }
}

/** meta.NoResourceMatchError. */
export class NoResourceMatchError extends Error {
  override readonly name = 'NoResourceMatchError';
  constructor(readonly partialResource: PartialResource) {
    const r = partialResource;
    super(
      `no matches for resource "${r.resource}"${r.group !== undefined ? ` in group "${r.group}"` : ''}${r.version ? ` version "${r.version}"` : ''}`,
    );
  }
}

/** apiutil.ErrResourceDiscoveryFailed: discovery itself failed for these group-versions. */
export class ResourceDiscoveryFailedError extends Error {
  override readonly name = 'ResourceDiscoveryFailedError';
  constructor(readonly failures: Map<string, Error>) {
    super(
      `unable to retrieve the complete list of server APIs: ${[...failures].map(([gv, e]) => `${gv}: ${e.message}`).join(', ')}`,
    );
  }
}

/** What the mapper needs from discovery; DiscoveryClient implements it, tests may script it. */
export interface DiscoveryInterface {
  serverGroups(signal?: AbortSignal): Promise<APIGroup[]>;
  serverResourcesForGroupVersion(gv: GroupVersion, signal?: AbortSignal): Promise<APIResourceList>;
}

export interface DynamicRESTMapperOptions {
  /** Either an HTTP client (discovery over it) or a discovery implementation. */
  http?: HttpClient;
  discovery?: DiscoveryInterface;
}

export class DynamicRESTMapper {
  private readonly discovery: DiscoveryInterface;
  /** group name → its versions in preference order; undefined until the group list is fetched. */
  private groups?: Map<string, APIGroup>;
  /** apiVersion → resources (subresources excluded). */
  private readonly resources = new Map<string, APIResource[]>();
  private inflight = new Map<string, Promise<void>>();

  constructor(opts: DynamicRESTMapperOptions) {
    if (opts.discovery) this.discovery = opts.discovery;
    else if (opts.http) this.discovery = new DiscoveryClient(opts.http);
    else throw new Error('DynamicRESTMapper needs http or discovery');
  }

  /** The mapping for a group/kind at the first of `versions` that serves it (any version, preferred first, when none given). */
  async restMapping(gk: GroupKind, ...versions: string[]): Promise<RESTMapping> {
    const found = this.findMapping(gk, versions);
    if (found) return found;
    await this.addKnownGroupAndReload(gk.group, versions);
    const retry = this.findMapping(gk, versions);
    if (retry) return retry;
    throw new NoKindMatchError(gk, versions);
  }

  /** The GVR serving a GVK. */
  async resourceForGVK(gvk: GroupVersionKind): Promise<GroupVersionResource> {
    return (await this.restMapping({ group: gvk.group, kind: gvk.kind }, gvk.version)).resource;
  }

  /** KindFor: the kind served at a resource name (plural or singular, any case). */
  async kindFor(resource: PartialResource): Promise<GroupVersionKind> {
    return (await this.mappingForResource(resource)).gvk;
  }

  /** ResourceFor: completes a partial resource (e.g. "deployments") to a full GVR. */
  async resourceFor(resource: PartialResource): Promise<GroupVersionResource> {
    return (await this.mappingForResource(resource)).resource;
  }

  async isGVKNamespaced(gvk: GroupVersionKind): Promise<boolean> {
    return (await this.restMapping({ group: gvk.group, kind: gvk.kind }, gvk.version)).scope === 'namespace';
  }

  /** apiutil.IsObjectNamespaced: by the scope of the object's GVK. */
  async isObjectNamespaced(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): Promise<boolean> {
    return this.isGVKNamespaced(mustGVKOf(obj));
  }

  /** Forgets everything; the next lookup rediscovers. */
  reset(): void {
    this.groups = undefined;
    this.resources.clear();
  }

  private async mappingForResource(r: PartialResource): Promise<RESTMapping> {
    const found = this.findByResource(r);
    if (found) return found;
    if (r.group !== undefined) {
      await this.addKnownGroupAndReload(r.group, r.version ? [r.version] : []);
    } else {
      await this.refreshGroups();
      for (const g of this.groups?.keys() ?? []) await this.addKnownGroupAndReload(g, r.version ? [r.version] : []);
    }
    const retry = this.findByResource(r);
    if (retry) return retry;
    throw new NoResourceMatchError(r);
  }

  private versionsToSearch(group: string, versions: string[]): string[] {
    if (versions.length > 0) return versions;
    const g = this.groups?.get(group);
    if (g) return g.versions;
    return [...this.resources.keys()].filter((gv) => groupOfApiVersion(gv) === group).map(versionOfApiVersion);
  }

  private findMapping(gk: GroupKind, versions: string[]): RESTMapping | undefined {
    for (const version of this.versionsToSearch(gk.group, versions)) {
      const res = this.resources.get(apiVersionOf({ group: gk.group, version }));
      const hit = res?.find((r) => r.kind === gk.kind);
      if (hit) return toMapping(gk.group, version, hit);
    }
    return undefined;
  }

  private findByResource(r: PartialResource): RESTMapping | undefined {
    const name = r.resource.toLowerCase();
    const groups = r.group !== undefined ? [r.group] : [...(this.groups?.keys() ?? []), ...this.cachedGroups()];
    for (const group of new Set(groups)) {
      for (const version of this.versionsToSearch(group, r.version ? [r.version] : [])) {
        const res = this.resources.get(apiVersionOf({ group, version }));
        const hit = res?.find((x) => x.name === name || x.singularName === name || x.kind.toLowerCase() === name);
        if (hit) return toMapping(group, version, hit);
      }
    }
    return undefined;
  }

  private cachedGroups(): string[] {
    return [...this.resources.keys()].map(groupOfApiVersion);
  }

  private async refreshGroups(): Promise<void> {
    await this.once('groups', async () => {
      const groups = await this.discovery.serverGroups();
      if (groups.length === 0) throw new Error('received an empty API groups list');
      this.groups = new Map(groups.map((g) => [g.name, g]));
    });
  }

  /** Discovers a group (refreshing the group list when it is unknown) and loads the wanted versions. */
  private async addKnownGroupAndReload(group: string, versions: string[]): Promise<void> {
    const known = this.groups?.get(group);
    // Refresh the group list when the group, or a requested version of it, is not known to be served.
    if (!known || known.versions.length === 0 || versions.some((v) => !known.versions.includes(v))) {
      await this.refreshGroups();
    }
    const g = this.groups?.get(group);
    if (!g) {
      // The group is gone (or never existed): drop whatever we cached for it.
      for (const gv of [...this.resources.keys()]) if (groupOfApiVersion(gv) === group) this.resources.delete(gv);
      return;
    }
    const wanted = versions.length > 0 ? versions.filter((v) => g.versions.includes(v)) : g.versions;
    const failures = new Map<string, Error>();
    await Promise.all(
      wanted.map((version) =>
        this.once(`gv:${apiVersionOf({ group, version })}`, async () => {
          const gv = apiVersionOf({ group, version });
          try {
            const list = await this.discovery.serverResourcesForGroupVersion({ group, version });
            this.resources.set(
              gv,
              list.resources.filter((r) => !r.name.includes('/')),
            );
          } catch (err) {
            if (isNotFound(err)) {
              // A CRD's version was removed: forget it so the next lookup rediscovers the group.
              this.resources.delete(gv);
              g.versions = g.versions.filter((v) => v !== version);
              return;
            }
            failures.set(gv, err instanceof Error ? err : new Error(String(err)));
          }
        }),
      ),
    );
    if (failures.size > 0) throw new ResourceDiscoveryFailedError(failures);
  }

  /** Joins concurrent discoveries of the same thing into one request. */
  private once(key: string, fn: () => Promise<void>): Promise<void> {
    const existing = this.inflight.get(key);
    if (existing) return existing;
    const p = fn().finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }
}

function toMapping(group: string, version: string, r: APIResource): RESTMapping {
  // Discovery may report a resource as living in another group/version (e.g. aggregated APIs).
  const g = r.group ?? group;
  const v = r.version ?? version;
  return {
    gvk: { group: g, version: v, kind: r.kind },
    resource: { group: g, version: v, resource: r.name },
    scope: r.namespaced ? 'namespace' : 'root',
    verbs: r.verbs ?? [],
  };
}

function groupOfApiVersion(gv: string): string {
  const i = gv.indexOf('/');
  return i < 0 ? '' : gv.slice(0, i);
}

function versionOfApiVersion(gv: string): string {
  const i = gv.indexOf('/');
  return i < 0 ? gv : gv.slice(i + 1);
}
