// Scenarios of controller-runtime pkg/client/apiutil/restmapper_test.go: lazy discovery, only the needed
// groups and versions fetched, new CRD groups and versions found on a miss, 404 evicts, errors named.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../util/errors';
import type { APIGroup, APIResource, APIResourceList } from './discovery';
import { DiscoveryClient } from './discovery';
import type { GroupVersion } from './gvk';
import { apiVersionOf } from './gvk';
import { HttpClient } from './http';
import type { DiscoveryInterface } from './rest-mapper';
import { DynamicRESTMapper, NoKindMatchError, NoResourceMatchError, ResourceDiscoveryFailedError } from './rest-mapper';
import { configFor, sendJson, startTestServer, status } from '../testing/test-server';

function res(name: string, kind: string, namespaced = true, singularName?: string): APIResource {
  return {
    name,
    kind,
    namespaced,
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    singularName,
  };
}

/** A scripted discovery the test can change between lookups; counts the calls. */
class ScriptedDiscovery implements DiscoveryInterface {
  groups: APIGroup[] = [
    { name: '', versions: ['v1'], preferredVersion: 'v1' },
    { name: 'apps', versions: ['v1'], preferredVersion: 'v1' },
  ];
  resources = new Map<string, APIResource[]>([
    ['v1', [res('pods', 'Pod', true, 'pod'), res('pods/status', 'Pod'), res('namespaces', 'Namespace', false)]],
    ['apps/v1', [res('deployments', 'Deployment', true, 'deployment')]],
  ]);
  failures = new Map<string, Error>();
  calls: string[] = [];

  async serverGroups(): Promise<APIGroup[]> {
    this.calls.push('groups');
    return this.groups.map((g) => ({ ...g, versions: [...g.versions] }));
  }

  async serverResourcesForGroupVersion(gv: GroupVersion): Promise<APIResourceList> {
    const key = apiVersionOf(gv);
    this.calls.push(key);
    const failure = this.failures.get(key);
    if (failure) throw failure;
    const resources = this.resources.get(key);
    if (!resources) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return { groupVersion: key, resources };
  }
}

describe('DynamicRESTMapper', () => {
  it('makes no requests until the first lookup (lazy)', () => {
    const d = new ScriptedDiscovery();
    new DynamicRESTMapper({ discovery: d });
    expect(d.calls).toEqual([]);
  });

  it('maps GVK to GVR and scope, fetching only the group-version needed, once', async () => {
    const d = new ScriptedDiscovery();
    const m = new DynamicRESTMapper({ discovery: d });
    const mapping = await m.restMapping({ group: 'apps', kind: 'Deployment' }, 'v1');
    expect(mapping).toMatchObject({
      gvk: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      scope: 'namespace',
    });
    expect(d.calls).toEqual(['groups', 'apps/v1']);
    await m.restMapping({ group: 'apps', kind: 'Deployment' }, 'v1');
    expect(d.calls).toEqual(['groups', 'apps/v1']);
    expect(await m.isGVKNamespaced({ group: '', version: 'v1', kind: 'Namespace' })).toBe(false);
    expect(await m.isObjectNamespaced({ apiVersion: 'v1', kind: 'Pod' })).toBe(true);
  });

  it('kindFor and resourceFor accept plural, singular and any case; subresources are not resources', async () => {
    const m = new DynamicRESTMapper({ discovery: new ScriptedDiscovery() });
    expect(await m.kindFor({ resource: 'pods' })).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(await m.kindFor({ group: 'apps', resource: 'Deployment' })).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(await m.resourceFor({ resource: 'pod' })).toEqual({ group: '', version: 'v1', resource: 'pods' });
    await expect(m.kindFor({ resource: 'pods/status' })).rejects.toBeInstanceOf(NoResourceMatchError);
  });

  it('finds a CRD group that appears after the first discovery', async () => {
    const d = new ScriptedDiscovery();
    const m = new DynamicRESTMapper({ discovery: d });
    await m.restMapping({ group: '', kind: 'Pod' });
    await expect(m.restMapping({ group: 'example.com', kind: 'Widget' }, 'v1')).rejects.toThrow(
      'no matches for kind "Widget" in version "example.com/v1"',
    );
    d.groups.push({ name: 'example.com', versions: ['v1'], preferredVersion: 'v1' });
    d.resources.set('example.com/v1', [res('widgets', 'Widget')]);
    expect((await m.restMapping({ group: 'example.com', kind: 'Widget' }, 'v1')).resource.resource).toBe('widgets');
  });

  it('finds a new kind in an already discovered group-version on a miss', async () => {
    const d = new ScriptedDiscovery();
    const m = new DynamicRESTMapper({ discovery: d });
    await m.restMapping({ group: 'apps', kind: 'Deployment' });
    d.resources.get('apps/v1')!.push(res('statefulsets', 'StatefulSet'));
    expect((await m.restMapping({ group: 'apps', kind: 'StatefulSet' })).resource.resource).toBe('statefulsets');
  });

  it('a 404 for a group-version evicts it (CRD deleted)', async () => {
    const d = new ScriptedDiscovery();
    d.groups.push({ name: 'example.com', versions: ['v1'], preferredVersion: 'v1' });
    d.resources.set('example.com/v1', [res('widgets', 'Widget')]);
    const m = new DynamicRESTMapper({ discovery: d });
    await m.restMapping({ group: 'example.com', kind: 'Widget' });
    d.resources.delete('example.com/v1');
    // A miss on the group reloads example.com/v1, which now answers 404: the cached Widget goes too.
    await expect(m.restMapping({ group: 'example.com', kind: 'Gadget' })).rejects.toBeInstanceOf(NoKindMatchError);
    const err = await m.restMapping({ group: 'example.com', kind: 'Widget' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoKindMatchError);
    expect((err as Error).message).toContain('is the CRD installed');
    // The CRD comes back: the next lookup rediscovers the group.
    d.resources.set('example.com/v1', [res('widgets', 'Widget')]);
    expect((await m.restMapping({ group: 'example.com', kind: 'Widget' })).resource.resource).toBe('widgets');
  });

  it('prefers the preferred version when none is requested', async () => {
    const d = new ScriptedDiscovery();
    d.groups.push({ name: 'example.com', versions: ['v2', 'v1'], preferredVersion: 'v2' });
    d.resources.set('example.com/v1', [res('widgets', 'Widget')]);
    d.resources.set('example.com/v2', [res('widgets', 'Widget')]);
    const m = new DynamicRESTMapper({ discovery: d });
    expect((await m.restMapping({ group: 'example.com', kind: 'Widget' })).gvk.version).toBe('v2');
    expect((await m.restMapping({ group: 'example.com', kind: 'Widget' }, 'v1')).gvk.version).toBe('v1');
  });

  it('reports discovery failures by group-version, and an empty group list', async () => {
    const d = new ScriptedDiscovery();
    d.failures.set(
      'apps/v1',
      new ApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'),
    );
    const m = new DynamicRESTMapper({ discovery: d });
    const err = await m.restMapping({ group: 'apps', kind: 'Deployment' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceDiscoveryFailedError);
    expect((err as Error).message).toContain('apps/v1: the server is currently unable');
    d.groups = [];
    await expect(new DynamicRESTMapper({ discovery: d }).restMapping({ group: '', kind: 'Pod' })).rejects.toThrow(
      'received an empty API groups list',
    );
  });

  it('concurrent lookups share one discovery', async () => {
    const d = new ScriptedDiscovery();
    const m = new DynamicRESTMapper({ discovery: d });
    await Promise.all([
      m.restMapping({ group: 'apps', kind: 'Deployment' }),
      m.restMapping({ group: 'apps', kind: 'Deployment' }),
      m.restMapping({ group: 'apps', kind: 'Deployment' }),
    ]);
    expect(d.calls.filter((c) => c === 'groups')).toHaveLength(1);
    expect(d.calls.filter((c) => c === 'apps/v1')).toHaveLength(1);
  });
});

describe('DiscoveryClient over HTTP', () => {
  it('reads /api, /apis and a group-version, preferred version first', async () => {
    const server = await startTestServer((req, resp) => {
      if (req.path === '/api') return sendJson(resp, 200, { kind: 'APIVersions', versions: ['v1'] });
      if (req.path === '/apis') {
        return sendJson(resp, 200, {
          kind: 'APIGroupList',
          groups: [
            {
              name: 'example.com',
              versions: [
                { groupVersion: 'example.com/v1', version: 'v1' },
                { groupVersion: 'example.com/v2', version: 'v2' },
              ],
              preferredVersion: { groupVersion: 'example.com/v2', version: 'v2' },
            },
          ],
        });
      }
      if (req.path === '/apis/example.com/v2') {
        return sendJson(resp, 200, {
          kind: 'APIResourceList',
          groupVersion: 'example.com/v2',
          resources: [res('widgets', 'Widget')],
        });
      }
      sendJson(resp, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    });
    try {
      const http = new HttpClient({ config: configFor(server) });
      const groups = await new DiscoveryClient(http).serverGroups();
      expect(groups).toEqual([
        { name: '', versions: ['v1'], preferredVersion: 'v1' },
        { name: 'example.com', versions: ['v2', 'v1'], preferredVersion: 'v2' },
      ]);
      const m = new DynamicRESTMapper({ http });
      expect(await m.resourceForGVK({ group: 'example.com', version: 'v2', kind: 'Widget' })).toEqual({
        group: 'example.com',
        version: 'v2',
        resource: 'widgets',
      });
      expect(server.requests.map((r) => r.path)).toEqual(['/api', '/apis', '/api', '/apis', '/apis/example.com/v2']);
    } finally {
      await server.close();
    }
  });
});
