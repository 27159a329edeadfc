// Discovery (/api, /apis, /api/v1, /apis/G/V), /version and the REST mapper built on them (spec §1).
import { describe, expect, it } from 'vitest';
import { DiscoveryClient } from '../../../server/runtime/client';
import type { APIResource } from '../../../server/runtime/client';
import type { GetTarget, TargetName } from '../support/target';

const CRUD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function find(resources: APIResource[], name: string): APIResource {
  const r = resources.find((x) => x.name === name);
  if (!r) throw new Error(`discovery lists no "${name}"; has ${resources.map((x) => x.name).join(', ')}`);
  return r;
}

export function discoveryCases(target: GetTarget, _targetName: TargetName): void {
  describe('discovery', () => {
    it('lists the core version and the named groups with preferred versions', async () => {
      const t = target();
      const core = await t.http.request<{ kind: string; versions: string[] }>({ path: '/api' });
      expect(core).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
      const apis = await t.http.request<{
        kind: string;
        apiVersion: string;
        groups: { name: string; versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }[];
      }>({ path: '/apis' });
      expect(apis).toMatchObject({ kind: 'APIGroupList', apiVersion: 'v1' });
      const byName = new Map(apis.groups.map((g) => [g.name, g]));
      expect(byName.has('')).toBe(false);
      for (const [group, gv] of [
        ['apps', 'apps/v1'],
        ['coordination.k8s.io', 'coordination.k8s.io/v1'],
        ['events.k8s.io', 'events.k8s.io/v1'],
        ['apiextensions.k8s.io', 'apiextensions.k8s.io/v1'],
      ] as const) {
        expect(byName.get(group)?.preferredVersion.groupVersion, group).toBe(gv);
        expect(byName.get(group)?.versions.map((v) => v.groupVersion)).toContain(gv);
      }
      const groups = await new DiscoveryClient(t.http).serverGroups();
      expect(groups[0]).toEqual({ name: '', versions: ['v1'], preferredVersion: 'v1' });
    });

    it('describes resources with kind, scope, sorted verbs, short names and subresources', async () => {
      const t = target();
      const d = new DiscoveryClient(t.http);
      const core = await d.serverResourcesForGroupVersion({ group: '', version: 'v1' });
      expect(core.groupVersion).toBe('v1');
      const pods = find(core.resources, 'pods');
      expect(pods).toMatchObject({ singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'] });
      expect(pods.verbs).toEqual(CRUD_VERBS);
      expect(find(core.resources, 'pods/status')).toMatchObject({ namespaced: true, kind: 'Pod' });
      expect(find(core.resources, 'pods/status').verbs).toEqual(['get', 'patch', 'update']);
      expect(find(core.resources, 'namespaces')).toMatchObject({ namespaced: false, kind: 'Namespace' });
      expect(find(core.resources, 'namespaces').verbs).toEqual([
        'create',
        'delete',
        'get',
        'list',
        'patch',
        'update',
        'watch',
      ]);
      expect(find(core.resources, 'nodes')).toMatchObject({ namespaced: false, kind: 'Node' });
      expect(find(core.resources, 'configmaps')).toMatchObject({
        namespaced: true,
        kind: 'ConfigMap',
        shortNames: ['cm'],
      });
      expect(find(core.resources, 'secrets')).toMatchObject({ namespaced: true, kind: 'Secret' });

      const apps = await d.serverResourcesForGroupVersion({ group: 'apps', version: 'v1' });
      expect(apps.groupVersion).toBe('apps/v1');
      const deploy = find(apps.resources, 'deployments');
      expect(deploy).toMatchObject({ namespaced: true, kind: 'Deployment', shortNames: ['deploy'] });
      expect(deploy.verbs).toEqual(CRUD_VERBS);
      expect(find(apps.resources, 'deployments/status').verbs).toEqual(['get', 'patch', 'update']);
      expect(find(apps.resources, 'deployments/scale')).toMatchObject({
        kind: 'Scale',
        group: 'autoscaling',
        version: 'v1',
      });

      const crds = await d.serverResourcesForGroupVersion({ group: 'apiextensions.k8s.io', version: 'v1' });
      expect(find(crds.resources, 'customresourcedefinitions')).toMatchObject({
        namespaced: false,
        kind: 'CustomResourceDefinition',
        shortNames: ['crd', 'crds'],
      });
    });

    it('maps kinds to resources and scopes through the REST mapper', async () => {
      const t = target();
      const deploy = await t.client.mapper.restMapping({ group: 'apps', kind: 'Deployment' });
      expect(deploy).toMatchObject({
        gvk: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        scope: 'namespace',
      });
      expect((await t.client.mapper.restMapping({ group: '', kind: 'Namespace' }, 'v1')).scope).toBe('root');
      expect(await t.client.mapper.resourceFor({ resource: 'lease' })).toEqual({
        group: 'coordination.k8s.io',
        version: 'v1',
        resource: 'leases',
      });
      await expect(t.client.mapper.restMapping({ group: 'nope.example.com', kind: 'Nope' })).rejects.toThrow(
        /no matches for kind "Nope"/,
      );
    });

    it('answers /version with integer major/minor and a semver gitVersion of the same minor', async () => {
      const t = target();
      const v = await t.http.request<Record<string, string>>({ path: '/version' });
      for (const key of [
        'major',
        'minor',
        'gitVersion',
        'gitCommit',
        'gitTreeState',
        'buildDate',
        'goVersion',
        'compiler',
        'platform',
      ]) {
        expect(typeof v[key], key).toBe('string');
      }
      expect(v.major).toMatch(/^\d+$/);
      expect(v.minor).toMatch(/^\d+$/);
      const m = /^v(\d+)\.(\d+)\.(\d+)/.exec(v.gitVersion ?? '');
      expect(m, v.gitVersion).not.toBeNull();
      expect([m?.[1], m?.[2]]).toEqual([v.major, v.minor]);
      expect(v.platform).toMatch(/^[a-z0-9]+\/[a-z0-9]+$/);
      expect(v.compiler).toBe('gc');
    });
  });
}
