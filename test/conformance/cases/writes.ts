// Create, get, update: server-set metadata, generateName, the global resourceVersion counter, dry runs,
// namespaces and Secrets, optimistic concurrency and server-owned metadata (spec §5.1, §5.2, §6, §8).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { isConflict, isNotFound } from '../../../server/runtime/util/errors';
import {
  apiError,
  CONFIGMAP,
  configMap,
  DEPLOYMENT,
  deployment,
  NAMESPACE,
  newNamespace,
  rvNum,
  SECRET,
  statusOf,
} from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export function writeCases(target: GetTarget, _targetName: TargetName): void {
  describe('create', () => {
    it('sets uid, creationTimestamp and resourceVersion, and generates a name from generateName', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create<KubeObject>({
        ...CONFIGMAP,
        metadata: { generateName: 'gen-', namespace: ns },
        data: { a: '1' },
      });
      expect(cm.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(cm.metadata.generateName).toBe('gen-');
      expect(cm.metadata.uid).toMatch(UUID);
      expect(cm.metadata.creationTimestamp).toMatch(RFC3339);
      expect(cm.metadata.resourceVersion).toMatch(/^[1-9]\d*$/);
      expect(cm.metadata.namespace).toBe(ns);
      // ConfigMaps do not track generation.
      expect(cm.metadata.generation).toBeUndefined();
      expect(cm).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });
      const got = await t.client.get<KubeObject>(CONFIGMAP, { namespace: ns, name: cm.metadata.name! });
      expect(got.metadata).toMatchObject({ uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion });
    });

    it('starts generation at 1 for kinds that track it', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const d = await t.client.create(deployment(ns, 'web'));
      expect(d.metadata.generation).toBe(1);
    });

    it('draws resourceVersions from one counter shared by all kinds and namespaces', async () => {
      const t = target();
      const a = await newNamespace(t);
      const b = await newNamespace(t);
      const first = await t.client.create(configMap(a, 'one'));
      const second = await t.client.create(deployment(b, 'two'));
      const third = await t.client.create(configMap(a, 'three'));
      expect(rvNum(second)).toBeGreaterThan(rvNum(first));
      expect(rvNum(third)).toBeGreaterThan(rvNum(second));
    });

    it('validates and answers a dryRun create without storing it', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const out = await t.client.create(configMap(ns, 'dry'), { dryRun: true });
      expect(out.metadata.name).toBe('dry');
      expect(out.metadata.uid).toMatch(UUID);
      expect(out.metadata.resourceVersion).toBeUndefined();
      expect((await apiError(t.client.get(CONFIGMAP, { namespace: ns, name: 'dry' }))).code).toBe(404);
      const invalid = await apiError(t.client.create(configMap(ns, 'Not_Valid'), { dryRun: true }));
      expect(invalid.code).toBe(422);
    });

    it('lists built-in items without kind/apiVersion on the wire', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'bare'));
      const raw = await t.http.request<{ kind: string; apiVersion: string; items: KubeObject[] }>({
        path: `/api/v1/namespaces/${ns}/configmaps`,
      });
      expect([raw.kind, raw.apiVersion]).toEqual(['ConfigMapList', 'v1']);
      expect(raw.items.map((i) => [i.kind, i.apiVersion, i.metadata.name])).toEqual([[undefined, undefined, 'bare']]);
      // Our client fills them in from the list kind, as client-go's UnstructuredList does.
      const typed = await t.client.list(CONFIGMAP, { namespace: ns });
      expect(typed.items.map((i) => [i.kind, i.apiVersion])).toEqual([['ConfigMap', 'v1']]);
    });

    it('creates a Lease on PUT of a missing name, but refuses that for a ConfigMap', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lease = await t.client.update<KubeObject>({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'leader', namespace: ns },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
      });
      expect(lease.metadata.uid).toMatch(UUID);
      expect(lease.spec).toMatchObject({ holderIdentity: 'me' });
      const err = await apiError(t.client.update(configMap(ns, 'absent')));
      expect([err.code, err.reason, err.message]).toEqual([404, 'NotFound', 'configmaps "absent" not found']);
    });

    it('gives a new Pod generation 1 and the Pending phase', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const p = await t.client.create<KubeObject>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: ns },
        spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] },
      });
      expect(p.metadata.generation).toBe(1);
      expect(p.status).toMatchObject({ phase: 'Pending', qosClass: 'BestEffort' });
      expect(p.spec).toMatchObject({
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
      });
    });

    it('refuses an existing name with 409 AlreadyExists', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'taken'));
      const err = await apiError(t.client.create(configMap(ns, 'taken')));
      expect([err.code, err.reason, err.message]).toEqual([409, 'AlreadyExists', 'configmaps "taken" already exists']);
      expect(statusOf(err)).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        details: { name: 'taken', kind: 'configmaps' },
        code: 409,
      });
    });

    it('refuses a resourceVersion on create with 500', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = configMap(ns, 'with-rv');
      cm.metadata.resourceVersion = '12';
      const err = await apiError(t.client.create(cm));
      expect([err.code, err.message]).toEqual([500, 'resourceVersion should not be set on objects to be created']);
    });

    it('answers 404 for a namespaced create in a missing namespace', async () => {
      const t = target();
      const err = await apiError(t.client.create(configMap('no-such-ns', 'x')));
      expect([err.code, err.reason, err.message]).toEqual([404, 'NotFound', 'namespaces "no-such-ns" not found']);
      expect(statusOf(err).details).toMatchObject({ name: 'no-such-ns', kind: 'namespaces' });
    });

    it('defaults a new namespace: phase Active, the kubernetes finalizer and the name label', async () => {
      const t = target();
      const ns = await t.client.create<KubeObject>({ ...NAMESPACE, metadata: { generateName: 'conf-ns-' } });
      expect(ns.status).toEqual({ phase: 'Active' });
      expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
      expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': ns.metadata.name });
      const deleted = await t.client
        .resource({ group: '', version: 'v1', resource: 'namespaces' })
        .delete(ns.metadata.name!);
      expect((deleted as KubeObject).metadata.deletionTimestamp).toMatch(RFC3339);
      expect((deleted as KubeObject).status).toEqual({ phase: 'Terminating' });
    });

    it('keeps the namespace name label and spec.finalizers through updates of the main endpoint', async () => {
      const t = target();
      const ns = await t.client.create<KubeObject>({ ...NAMESPACE, metadata: { generateName: 'conf-ns-' } });
      const name = ns.metadata.name!;
      const out = await t.client.update<KubeObject>({
        ...ns,
        metadata: { ...ns.metadata, labels: { team: 'a' } },
        spec: { finalizers: ['kubernetes', 'example.com/extra'] },
        status: { phase: 'Terminating' },
      });
      expect(out.metadata.labels).toEqual({ team: 'a', 'kubernetes.io/metadata.name': name });
      expect(out.spec).toEqual({ finalizers: ['kubernetes'] });
      expect(out.status).toEqual({ phase: 'Active' });
    });

    it('round-trips a Secret: stringData folds into base64 data, type defaults to Opaque', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const created = await t.client.create<KubeObject>({
        ...SECRET,
        metadata: { name: 's', namespace: ns },
        data: { user: Buffer.from('admin').toString('base64') },
        stringData: { password: 'hunter2' },
      });
      const expected = {
        user: Buffer.from('admin').toString('base64'),
        password: Buffer.from('hunter2').toString('base64'),
      };
      expect(created.data).toEqual(expected);
      expect(created.stringData).toBeUndefined();
      expect(created.type).toBe('Opaque');
      const got = await t.client.get<KubeObject>(SECRET, { namespace: ns, name: 's' });
      expect([got.data, got.stringData, got.type]).toEqual([expected, undefined, 'Opaque']);
      const updated = await t.client.update<KubeObject>({ ...got, stringData: { password: 'changed' } });
      expect([updated.data, updated.stringData]).toEqual([
        { ...expected, password: Buffer.from('changed').toString('base64') },
        undefined,
      ]);
      const listed = await t.client.list(SECRET, { namespace: ns, fieldSelector: 'type=Opaque' });
      expect(listed.items.map((s) => s.metadata.name)).toEqual(['s']);
    });
  });

  describe('get', () => {
    it('answers a missing object with a 404 NotFound Status naming the resource', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(t.client.get(CONFIGMAP, { namespace: ns, name: 'missing' }));
      expect(isNotFound(err)).toBe(true);
      expect(statusOf(err)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'configmaps "missing" not found',
        reason: 'NotFound',
        details: { name: 'missing', kind: 'configmaps' },
        code: 404,
      });
      const apps = await apiError(t.client.get(DEPLOYMENT, { namespace: ns, name: 'missing' }));
      expect(statusOf(apps)).toMatchObject({
        message: 'deployments.apps "missing" not found',
        reason: 'NotFound',
        details: { name: 'missing', group: 'apps', kind: 'deployments' },
        code: 404,
      });
    });
  });

  describe('update', () => {
    it('rejects a stale resourceVersion with 409 Conflict and the upstream message', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'x'));
      const stale = structuredClone(cm);
      const fresh = await t.client.update({ ...cm, data: { k: 'new' } });
      expect(rvNum(fresh)).toBeGreaterThan(rvNum(cm));
      const err = await apiError(t.client.update({ ...stale, data: { k: 'stale' } }));
      expect(isConflict(err)).toBe(true);
      expect(statusOf(err)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        details: { name: 'x', kind: 'configmaps' },
        code: 409,
      });
      const d = await t.client.create(deployment(ns, 'd'));
      await t.client.update({ ...d, metadata: { ...d.metadata, labels: { a: 'b' } } });
      const derr = await apiError(t.client.update({ ...d, metadata: { ...d.metadata, labels: { a: 'c' } } }));
      expect(statusOf(derr)).toMatchObject({
        message: expect.stringMatching(
          /^Operation cannot be fulfilled on deployments\.apps "d": the object has been modified/,
        ),
        reason: 'Conflict',
        details: { name: 'd', group: 'apps', kind: 'deployments' },
      });
    });

    it('accepts an update without resourceVersion for built-ins', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'x'));
      const next = structuredClone(cm);
      delete next.metadata.resourceVersion;
      next.data = { k: 'unconditional' };
      const out = await t.client.update(next);
      expect(out.data).toEqual({ k: 'unconditional' });
      expect(out.metadata.uid).toBe(cm.metadata.uid);
    });

    it('keeps the resourceVersion when an update changes nothing', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'same'));
      const again = await t.client.update(structuredClone(cm));
      expect(again.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    });

    it('restores server-owned metadata (uid, creationTimestamp, generation) from storage', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const d = await t.client.create(deployment(ns, 'd'));
      const out = await t.client.update({
        ...d,
        metadata: { ...d.metadata, generation: 42, creationTimestamp: '2001-01-01T00:00:00Z', labels: { x: 'y' } },
      });
      expect(out.metadata).toMatchObject({
        uid: d.metadata.uid,
        creationTimestamp: d.metadata.creationTimestamp,
        generation: 1,
        labels: { x: 'y' },
      });
    });
  });
}
