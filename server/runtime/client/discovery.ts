// Ports the legacy-discovery calls of client-go discovery/discovery_client.go that a RESTMapper needs:
// ServerGroups (GET /api + /apis) and ServerResourcesForGroupVersion (GET /api/v1, /apis/G/V).
import type { HttpClient } from './http';
import { apiVersionOf } from './gvk';
import type { GroupVersion } from './gvk';

export interface APIResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

export interface APIResourceList {
  groupVersion: string;
  resources: APIResource[];
}

export interface APIGroup {
  name: string;
  /** Versions in the server's preference order; the preferred one first. */
  versions: string[];
  preferredVersion: string;
}

export class DiscoveryClient {
  constructor(private readonly http: HttpClient) {}

  /** Every group the server serves, the core group (name '') first. */
  async serverGroups(signal?: AbortSignal): Promise<APIGroup[]> {
    const core = await this.http.request<{ versions?: string[] }>({ path: '/api', signal });
    const groups = await this.http.request<{
      groups?: { name: string; versions?: { version: string }[]; preferredVersion?: { version: string } }[];
    }>({ path: '/apis', signal });
    const out: APIGroup[] = [];
    const coreVersions = core?.versions ?? [];
    const corePreferred = coreVersions[0];
    if (corePreferred) out.push({ name: '', versions: coreVersions, preferredVersion: corePreferred });
    for (const g of groups?.groups ?? []) {
      const versions = (g.versions ?? []).map((v) => v.version);
      const preferred = g.preferredVersion?.version ?? versions[0] ?? '';
      out.push({
        name: g.name,
        versions: [preferred, ...versions.filter((v) => v !== preferred)],
        preferredVersion: preferred,
      });
    }
    return out;
  }

  /** The resources of one group-version; subresources ("pods/status") included as the server lists them. */
  async serverResourcesForGroupVersion(gv: GroupVersion, signal?: AbortSignal): Promise<APIResourceList> {
    const path = gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
    const list = await this.http.request<Partial<APIResourceList>>({ path, signal });
    return { groupVersion: list?.groupVersion ?? apiVersionOf(gv), resources: list?.resources ?? [] };
  }
}
