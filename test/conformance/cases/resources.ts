// Every built-in resource kube-apiserver 1.36 serves: discovery lists each one as the real server does,
// and the resources an operator creates go through create (with kube-apiserver's defaults), get, list,
// update and delete. Plus the objects and rules every cluster has (default/kubernetes Service, config keys,
// create-only reviews, the subresources controllers call).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { DiscoveryClient } from '../../../server/runtime/client';
import table from '../../../server/cluster/sandbox/resources.generated.json';
import { EXPECTED_CREATE } from '../support/expected-create';
import { apiError, newNamespace, statusOf } from '../support/helpers';
import { SAMPLES } from '../support/samples';
import type { GetTarget, TargetName } from '../support/target';

interface GeneratedGroupVersion {
  group: string;
  version: string;
  resources: {
    resource: string;
    kind: string;
    singular: string;
    namespaced: boolean;
    verbs: string[];
    shortNames?: string[];
  }[];
}

const withoutMeta = (o: KubeObject): Record<string, unknown> => {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o;
  return rest;
};

function merge(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(change)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? merge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

export function resourceCases(target: GetTarget, _targetName: TargetName): void {
  describe('built-in resources', () => {
    it('lists every resource of every group-version kube-apiserver 1.36 serves', async () => {
      const d = new DiscoveryClient(target().http);
      for (const gv of table.groupVersions as GeneratedGroupVersion[]) {
        const list = await d.serverResourcesForGroupVersion({ group: gv.group, version: gv.version });
        for (const r of gv.resources) {
          const got = list.resources.find((x) => x.name === r.resource);
          expect(got, `${gv.group}/${gv.version} ${r.resource}`).toMatchObject({
            kind: r.kind,
            namespaced: r.namespaced,
            singularName: r.singular,
          });
          expect(got?.verbs, r.resource).toEqual(r.verbs);
          expect(got?.shortNames ?? [], r.resource).toEqual(r.shortNames ?? []);
        }
      }
    });

    it.each(SAMPLES.map((s) => [s.gr, s] as const))('creates, reads, lists, updates and deletes %s', async (gr, s) => {
      const t = target();
      const ns = await newNamespace(t);
      const created = await t.client.create<KubeObject>(s.object(ns, 'sample'));
      const want = EXPECTED_CREATE[gr];
      expect(want, gr).toBeDefined();
      const body = withoutMeta(created);
      // The requester's extra attributes carry the client certificate's fingerprint (none on the sandbox).
      if (gr.startsWith('certificates.k8s.io/')) delete (body.spec as Record<string, unknown>).extra;
      expect(body).toEqual(want?.body);
      expect(created.metadata.generation ?? null).toBe(want?.generation);
      const sent = s.object(ns, 'sample');
      const ref = { apiVersion: sent.apiVersion as string, kind: sent.kind as string };
      const got = await t.client.get<KubeObject>(ref, { namespace: created.metadata.namespace, name: 'sample' });
      expect(got.metadata.uid).toBe(created.metadata.uid);
      const listed = await t.client.list(ref, {
        ...(created.metadata.namespace ? { namespace: ns } : {}),
        labelSelector: 'sample=yes',
      });
      expect(listed.items.map((i) => i.metadata.uid)).toContain(created.metadata.uid);
      const updated = await t.client.update<KubeObject>(merge(got, s.change) as KubeObject);
      expect(merge(updated, s.change)).toEqual(updated);
      expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(got.metadata.resourceVersion));
      await t.client.delete(updated);
      const gone = await apiError(t.client.get(ref, { namespace: created.metadata.namespace, name: 'sample' })).catch(
        () => undefined,
      );
      if (gone) expect(gone.code).toBe(404);
    });

    it('has the default/kubernetes Service, pointing at the API server', async () => {
      const svc = await target().client.get<KubeObject>(
        { apiVersion: 'v1', kind: 'Service' },
        { namespace: 'default', name: 'kubernetes' },
      );
      expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
      expect(svc.spec).toMatchObject({
        type: 'ClusterIP',
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: expect.any(Number) }],
      });
    });

    it('refuses Secret and ConfigMap data keys that are not config keys', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const [kind, data] of [
        ['Secret', { '': 'eA==' }],
        ['ConfigMap', { '': 'x' }],
        ['Secret', { 'a b': 'eA==' }],
      ] as const) {
        const err = await apiError(
          t.client.create({ apiVersion: 'v1', kind, metadata: { name: 'bad', namespace: ns }, data }),
        );
        const key = Object.keys(data)[0] as string;
        expect(err.code).toBe(422);
        expect(statusOf(err).message).toBe(
          `${kind} "bad" is invalid: data[${key}]: Invalid value: "${key}": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
        );
      }
    });

    it('refuses a workload whose selector is missing, empty or does not select its template', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
      const refused = async (kind: string, name: string, spec: Record<string, unknown>): Promise<string> =>
        statusOf(
          await apiError(
            t.client.create({
              apiVersion: 'apps/v1',
              kind,
              metadata: { name, namespace: ns },
              spec: { ...spec, template },
            }),
          ),
        ).message ?? '';
      const mismatch =
        'spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`';
      expect(await refused('Deployment', 'a', {})).toBe(
        `Deployment.apps "a" is invalid: [spec.selector: Required value, ${mismatch}]`,
      );
      expect(await refused('Deployment', 'f', { selector: {} })).toBe(
        'Deployment.apps "f" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
      );
      for (const kind of ['StatefulSet', 'DaemonSet', 'ReplicaSet'])
        expect(await refused(kind, 'x', { selector: { matchLabels: { app: 'x' } } })).toBe(
          `${kind}.apps "x" is invalid: ${mismatch}`,
        );
    });

    it('lists events.k8s.io/v1 Events by label and by field selector', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const EVENT = { apiVersion: 'events.k8s.io/v1', kind: 'Event' } as const;
      await t.client.create<KubeObject>({
        ...EVENT,
        metadata: { name: 'ev.1', namespace: ns, labels: { app: 'web' } },
        eventTime: '2026-01-02T03:04:05.000000Z',
        reportingController: 'example.com/controller',
        reportingInstance: 'controller-0',
        action: 'Reconcile',
        reason: 'Synced',
        type: 'Normal',
        note: 'synced',
        regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', namespace: ns },
      });
      const names = async (opts: { labelSelector?: string; fieldSelector?: string }): Promise<string[]> =>
        (await t.client.list(EVENT, { namespace: ns, ...opts })).items.map((i) => i.metadata.name ?? '');
      expect(await names({ labelSelector: 'app=web' })).toEqual(['ev.1']);
      expect(await names({ labelSelector: 'app=other' })).toEqual([]);
      expect(await names({ fieldSelector: 'regarding.name=cm,reason=Synced' })).toEqual(['ev.1']);
      expect(await names({ fieldSelector: 'reportingController=example.com/controller' })).toEqual(['ev.1']);
      expect(await names({ fieldSelector: 'regarding.kind=Pod' })).toEqual([]);
      const core = await t.client.list(
        { apiVersion: 'v1', kind: 'Event' },
        { namespace: ns, fieldSelector: 'involvedObject.name=cm', labelSelector: 'app=web' },
      );
      expect(core.items.map((i) => i.metadata.name)).toEqual(['ev.1']);
    });

    it('answers create-only reviews as for an admin, and converts HPAs between autoscaling v2 and v1', async () => {
      const t = target();
      const review = await t.client.create<KubeObject>({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        metadata: {},
        spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
      });
      expect(review.status).toMatchObject({ allowed: true });
      const ns = await newNamespace(t);
      await t.client.create<KubeObject>({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web', namespace: ns },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
      });
      const v1 = await t.client.get<KubeObject>(
        { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' },
        { namespace: ns, name: 'web' },
      );
      expect(v1.spec).toEqual({
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 3,
        targetCPUUtilizationPercentage: 80,
      });
      expect(v1.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    });

    it('serves the scale of a StatefulSet and evicts a pod', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const sample = SAMPLES.find((x) => x.gr === 'apps/statefulsets');
      await t.client.create<KubeObject>(sample!.object(ns, 'db'));
      const scale = await t.http.request<KubeObject>({
        path: `/apis/apps/v1/namespaces/${ns}/statefulsets/db/scale`,
      });
      expect(scale).toMatchObject({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 1 },
        status: { replicas: 0, selector: 'app=ss' },
      });
      await t.client.create<KubeObject>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'victim', namespace: ns },
        spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] },
      });
      await t.http.request({
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/pods/victim/eviction`,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'victim', namespace: ns } },
      });
      const err = await apiError(t.client.get({ apiVersion: 'v1', kind: 'Pod' }, { namespace: ns, name: 'victim' }));
      expect(err.code).toBe(404);
    });
  });
}
