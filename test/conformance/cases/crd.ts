// CustomResourceDefinitions: served once Established (namespaced and cluster-scoped), discovery and the
// REST mapper follow, CR generation and /status rules, CR-specific refusals, removal on delete (spec §7).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { DiscoveryClient, newListWatchFromClient, rawPatch } from '../../../server/runtime/client';
import { apiError, collect, CRD, eventually, names, newNamespace, statusOf } from '../support/helpers';
import type { ConformanceTarget, GetTarget, TargetName } from '../support/target';

interface CrdSpec {
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  status: boolean;
}

function crdObject(s: CrdSpec): KubeObject {
  return {
    ...CRD,
    metadata: { name: `${s.plural}.${s.group}` },
    spec: {
      group: s.group,
      scope: s.scope,
      names: { plural: s.plural, singular: s.kind.toLowerCase(), kind: s.kind, listKind: `${s.kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: s.status ? { status: {} } : undefined,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/**
 * Creates the CRD, waits for Established, for the REST mapper to find the kind and for a list to be
 * answered (kube-apiserver answers 429 "storage is (re)initializing" until the new resource's cache is up).
 */
async function installCrd(t: ConformanceTarget, s: CrdSpec, edit?: (crd: KubeObject) => void): Promise<KubeObject> {
  const obj = crdObject(s);
  edit?.(obj);
  await t.client.create(obj);
  const established = await eventually(`${s.plural}.${s.group} Established`, async () => {
    const c = await t.client.get<KubeObject>(CRD, { name: `${s.plural}.${s.group}` });
    const conds = (c.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
    return conds.some((x) => x.type === 'Established' && x.status === 'True') ? c : undefined;
  });
  await eventually(`${s.kind} in discovery`, () => t.client.mapper.restMapping({ group: s.group, kind: s.kind }, 'v1'));
  await eventually(`${s.plural} to be listable`, () => t.http.request({ path: `/apis/${s.group}/v1/${s.plural}` }));
  return established;
}

const widget = (group: string, kind: string, name: string, namespace?: string, size = 1): KubeObject => ({
  apiVersion: `${group}/v1`,
  kind,
  metadata: { name, namespace },
  spec: { size },
});

export function crdCases(target: GetTarget, _targetName: TargetName): void {
  describe('custom resources', () => {
    it('serves a namespaced CRD with a status subresource: discovery, mapper, CRUD, typed list items', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'ns.conformance.example.com',
        kind: 'Widget',
        plural: 'widgets',
        scope: 'Namespaced',
        status: true,
      };
      const crd = await installCrd(t, s);
      expect(crd.metadata.generation).toBe(1);
      expect((crd.status as { acceptedNames: unknown }).acceptedNames).toMatchObject({
        plural: 'widgets',
        kind: 'Widget',
      });
      const conds = (crd.status as { conditions: { type: string; status: string; reason: string }[] }).conditions;
      expect(conds.find((c) => c.type === 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts' });
      expect(conds.find((c) => c.type === 'Established')).toMatchObject({
        status: 'True',
        reason: 'InitialNamesAccepted',
      });

      const groups = await new DiscoveryClient(t.http).serverGroups();
      expect(groups.find((g) => g.name === s.group)).toEqual({
        name: s.group,
        versions: ['v1'],
        preferredVersion: 'v1',
      });
      const res = await new DiscoveryClient(t.http).serverResourcesForGroupVersion({ group: s.group, version: 'v1' });
      expect(res.resources.find((r) => r.name === 'widgets')).toMatchObject({
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        // apiextensions lists CR verbs in its own fixed order, not sorted like built-ins.
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      });
      expect(res.resources.find((r) => r.name === 'widgets/status')).toMatchObject({
        kind: 'Widget',
        verbs: ['get', 'patch', 'update'],
      });
      const mapping = await t.client.mapper.restMapping({ group: s.group, kind: 'Widget' });
      expect(mapping).toMatchObject({
        resource: { group: s.group, version: 'v1', resource: 'widgets' },
        scope: 'namespace',
      });

      const ns = await newNamespace(t);
      const w = await t.client.create(widget(s.group, 'Widget', 'w1', ns, 3));
      expect(w).toMatchObject({ apiVersion: `${s.group}/v1`, kind: 'Widget', spec: { size: 3 } });
      expect(w.metadata.generation).toBe(1);
      // CR list items carry apiVersion/kind on the wire.
      const raw = await t.http.request<{ kind: string; items: KubeObject[] }>({
        path: `/apis/${s.group}/v1/namespaces/${ns}/widgets`,
      });
      expect(raw.kind).toBe('WidgetList');
      expect(raw.items.map((i) => [i.apiVersion, i.kind, i.metadata.name])).toEqual([
        [`${s.group}/v1`, 'Widget', 'w1'],
      ]);
      const missing = await apiError(
        t.client.get({ apiVersion: `${s.group}/v1`, kind: 'Widget' }, { namespace: ns, name: 'nope' }),
      );
      expect([missing.code, missing.message]).toEqual([404, `widgets.${s.group} "nope" not found`]);
      expect(statusOf(missing).details).toEqual({ name: 'nope', group: s.group, kind: 'widgets' });
    });

    it('bumps CR generation on spec changes only; /status ignores spec, the main endpoint ignores status', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'gen.conformance.example.com',
        kind: 'Gadget',
        plural: 'gadgets',
        scope: 'Namespaced',
        status: true,
      };
      await installCrd(t, s);
      const ns = await newNamespace(t);
      let g: KubeObject = await t.client.create({ ...widget(s.group, 'Gadget', 'g', ns), status: { ready: true } });
      expect(g.metadata.generation).toBe(1);
      expect(g.status).toBeUndefined();
      g = await t.client.update({ ...g, metadata: { ...g.metadata, labels: { l: '1' }, annotations: { a: '1' } } });
      expect(g.metadata.generation).toBe(1);
      g = await t.client.update({ ...g, spec: { size: 2 } });
      expect(g.metadata.generation).toBe(2);
      g = await t.client.update({ ...g, status: { ready: true } });
      expect([g.metadata.generation, g.status]).toEqual([2, undefined]);
      g = await t.client.status().update({ ...g, spec: { size: 99 }, status: { ready: true } });
      expect([g.metadata.generation, g.spec, g.status]).toEqual([2, { size: 2 }, { ready: true }]);
      g = await t.client
        .status()
        .patch(g, rawPatch('merge', { metadata: { labels: { l: 'status-write' } }, status: { ready: false } }));
      expect([g.metadata.labels, g.status]).toEqual([{ l: '1' }, { ready: false }]);
      g = await t.client.patch(g, rawPatch('merge', { spec: { color: 'red' } }));
      expect(g.metadata.generation).toBe(3);
    });

    it('bumps generation on status edits when the CRD has no status subresource', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'nostatus.conformance.example.com',
        kind: 'Plain',
        plural: 'plains',
        scope: 'Namespaced',
        status: false,
      };
      await installCrd(t, s);
      const ns = await newNamespace(t);
      let p: KubeObject = await t.client.create({ ...widget(s.group, 'Plain', 'p', ns), status: { ready: true } });
      expect([p.metadata.generation, p.status]).toEqual([1, { ready: true }]);
      p = await t.client.update({ ...p, status: { ready: false } });
      expect([p.metadata.generation, p.status]).toEqual([2, { ready: false }]);
      const err = await apiError(t.client.status().update(p));
      expect(err.code).toBe(404);
    });

    it('serves a cluster-scoped CRD without a namespace in paths or objects', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'cluster.conformance.example.com',
        kind: 'Zone',
        plural: 'zones',
        scope: 'Cluster',
        status: true,
      };
      await installCrd(t, s);
      const res = await new DiscoveryClient(t.http).serverResourcesForGroupVersion({ group: s.group, version: 'v1' });
      expect(res.resources.find((r) => r.name === 'zones')).toMatchObject({ namespaced: false, kind: 'Zone' });
      expect((await t.client.mapper.restMapping({ group: s.group, kind: 'Zone' })).scope).toBe('root');
      const z = await t.client.create(widget(s.group, 'Zone', 'z1'));
      expect(z.metadata.namespace).toBeUndefined();
      const raw = await t.http.request<KubeObject>({ path: `/apis/${s.group}/v1/zones/z1` });
      expect(raw.metadata.uid).toBe(z.metadata.uid);
      const listed = await t.client.list({ apiVersion: `${s.group}/v1`, kind: 'ZoneList' });
      expect(names(listed.items)).toEqual(['z1']);
      await t.client.delete(z);
      expect((await apiError(t.client.get({ apiVersion: `${s.group}/v1`, kind: 'Zone' }, { name: 'z1' }))).code).toBe(
        404,
      );
    });

    it('refuses unconditional PUT and strategic merge patch on custom resources', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'refuse.conformance.example.com',
        kind: 'Thing',
        plural: 'things',
        scope: 'Namespaced',
        status: false,
      };
      await installCrd(t, s);
      const ns = await newNamespace(t);
      const th = await t.client.create(widget(s.group, 'Thing', 'th', ns));
      const noRv = structuredClone(th);
      delete noRv.metadata.resourceVersion;
      const put = await apiError(t.client.update(noRv));
      expect([put.code, put.reason]).toEqual([422, 'Invalid']);
      expect(put.message).toBe(
        `things.${s.group} "th" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`,
      );
      const smp = await apiError(t.client.patch(th, rawPatch('strategic', { spec: { size: 2 } })));
      expect([smp.code, smp.reason]).toEqual([415, 'UnsupportedMediaType']);
      const mismatch = await apiError(
        t.client
          .resource({ group: s.group, version: 'v1', resource: 'things' })
          .create(
            { apiVersion: `${s.group}/v2`, kind: 'Thing', metadata: { name: 'bad', namespace: ns } },
            { namespace: ns },
          ),
      );
      expect(mismatch.code).toBe(400);
    });

    it('prunes unknown fields and selects on metadata.name only', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'schema.conformance.example.com',
        kind: 'Shape',
        plural: 'shapes',
        scope: 'Namespaced',
        status: true,
      };
      await installCrd(t, s);
      const ns = await newNamespace(t);
      const created = await t.client.create<KubeObject>({
        ...widget(s.group, 'Shape', 'sq', ns, 4),
        spec: { size: 4, unknownField: 'dropped' },
        topLevelExtra: { x: 1 },
      });
      expect(created.spec).toEqual({ size: 4 });
      expect(created.topLevelExtra).toBeUndefined();
      await t.client.create(widget(s.group, 'Shape', 'circle', ns));
      const type = { apiVersion: `${s.group}/v1`, kind: 'Shape' };
      expect(
        names((await t.client.list(type, { namespace: ns, fieldSelector: 'metadata.name=circle' })).items),
      ).toEqual(['circle']);
      const unsupported = await apiError(t.client.list(type, { namespace: ns, fieldSelector: 'spec.size=1' }));
      expect([unsupported.code, unsupported.reason, unsupported.message]).toEqual([
        400,
        'BadRequest',
        'field label not supported: spec.size',
      ]);
    });

    it('refuses a custom resource whose field has the wrong type (422 from the schema)', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'typed.conformance.example.com',
        kind: 'Typed',
        plural: 'typeds',
        scope: 'Namespaced',
        status: false,
      };
      await installCrd(t, s);
      const ns = await newNamespace(t);
      const bad = await apiError(
        t.client.create<KubeObject>({ ...widget(s.group, 'Typed', 'bad', ns), spec: { size: 'big' } }),
      );
      expect([bad.code, bad.reason]).toEqual([422, 'Invalid']);
      expect(bad.message).toBe(
        `Typed.${s.group} "bad" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`,
      );
      expect(statusOf(bad).details).toMatchObject({ name: 'bad', group: s.group, kind: 'Typed' });
      expect(statusOf(bad).details?.causes?.[0]).toMatchObject({
        reason: 'FieldValueTypeInvalid',
        field: 'spec.size',
      });
    });

    it('watches custom resources and serves a scale subresource mapped by the CRD', async () => {
      const t = target();
      const group = 'scaled.conformance.example.com';
      await installCrd(t, { group, kind: 'Pool', plural: 'pools', scope: 'Namespaced', status: true }, (crd) => {
        const version = (crd.spec as { versions: Record<string, unknown>[] }).versions[0]!;
        version.subresources = {
          status: {},
          scale: {
            specReplicasPath: '.spec.size',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        };
        version.schema = {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer' } } },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        };
      });
      const ns = await newNamespace(t);
      const gvr = { group, version: 'v1', resource: 'pools' };
      const lw = newListWatchFromClient({ http: t.http, gvr, namespace: ns });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 3);
      const p = await t.client.create(widget(group, 'Pool', 'p', ns, 2));
      await t.client.status().patch(p, rawPatch('merge', { status: { replicas: 2, selector: 'app=p' } }));
      const scalePath = `/apis/${group}/v1/namespaces/${ns}/pools/p/scale`;
      const scale = await t.http.request<KubeObject>({ path: scalePath });
      expect(scale).toMatchObject({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        spec: { replicas: 2 },
        status: { replicas: 2, selector: 'app=p' },
      });
      await t.http.request({ method: 'PUT', path: scalePath, body: { ...scale, spec: { replicas: 4 } } });
      const { events } = await pending;
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
      expect(events.map((e) => (e.object as KubeObject).apiVersion)).toEqual([
        `${group}/v1`,
        `${group}/v1`,
        `${group}/v1`,
      ]);
      const last = events[2]?.object as KubeObject;
      expect([last.spec, last.metadata.generation]).toEqual([{ size: 4 }, 2]);
    });

    it('removes a deleted CRD from discovery and stops serving its resource', async () => {
      const t = target();
      const s: CrdSpec = {
        group: 'gone.conformance.example.com',
        kind: 'Ghost',
        plural: 'ghosts',
        scope: 'Namespaced',
        status: false,
      };
      const crd = await installCrd(t, s);
      await t.client.delete(crd);
      await eventually('the CRD to be removed', async () => {
        const err = await apiError(t.client.get(CRD, { name: `ghosts.${s.group}` }));
        return err.code === 404 ? true : undefined;
      });
      await eventually('the group to leave discovery', async () => {
        const groups = await new DiscoveryClient(t.http).serverGroups();
        return groups.some((g) => g.name === s.group) ? undefined : true;
      });
      const ns = await newNamespace(t);
      const err = await apiError(t.http.request({ path: `/apis/${s.group}/v1/namespaces/${ns}/ghosts` }));
      expect(err.code).toBe(404);
      t.client.mapper.reset();
      await expect(t.client.mapper.restMapping({ group: s.group, kind: 'Ghost' })).rejects.toThrow(
        /no matches for kind/,
      );
    });
  });
}
