// PATCH (merge, JSON, strategic merge), DELETE with finalizers and preconditions, deletecollection with a
// label selector (spec §5.3, §5.6, §5.7).
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject, KubeStatus } from '../../../shared/models/object';
import { mergeFrom, newListWatchFromClient, rawPatch } from '../../../server/runtime/client';
import {
  apiError,
  collect,
  CONFIGMAP,
  configMap,
  CONFIGMAPS_GVR,
  DEPLOYMENT,
  deployment,
  eventually,
  names,
  NAMESPACE,
  newNamespace,
  POD,
  pod,
  PODS_GVR,
  rvNum,
  statusOf,
} from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

interface Container {
  name: string;
  image: string;
  env?: { name: string; value: string }[];
}
const containersOf = (d: KubeObject): Container[] =>
  (d.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;

export function patchDeleteCases(target: GetTarget, _targetName: TargetName): void {
  describe('patch', () => {
    it('merge patch: maps merge, null removes a key, an unchanged result keeps the resourceVersion', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'm', { data: { a: '1', b: '2' } }));
      const out = await t.client.patch(
        cm,
        rawPatch('merge', { data: { b: null, c: '3' }, metadata: { labels: { x: 'y' } } }),
      );
      expect(out.data).toEqual({ a: '1', c: '3' });
      expect(out.metadata.labels).toEqual({ x: 'y' });
      expect(rvNum(out)).toBeGreaterThan(rvNum(cm));
      const same = await t.client.patch(out, rawPatch('merge', { data: { a: '1' } }));
      expect(same.metadata.resourceVersion).toBe(out.metadata.resourceVersion);
      // client.MergeFrom computes the same kind of patch from two object states.
      const before = structuredClone(same);
      same.data = { a: '1', c: '4' };
      const viaMergeFrom = await t.client.patch(same, mergeFrom(before));
      expect(viaMergeFrom.data).toEqual({ a: '1', c: '4' });
    });

    it('merge patch with a stale resourceVersion is a 409 Conflict', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'locked'));
      const stale = structuredClone(cm);
      await t.client.update({ ...cm, data: { k: 'moved' } });
      stale.data = { k: 'mine' };
      const err = await apiError(t.client.patch(stale, mergeFrom(cm, { optimisticLock: true })));
      expect([err.code, err.reason]).toEqual([409, 'Conflict']);
      expect(err.message).toMatch(
        /^Operation cannot be fulfilled on configmaps "locked": the object has been modified/,
      );
    });

    it('JSON patch: add, replace, remove; a failing test op is 422 Invalid', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'j', { data: { a: '1', b: '2' } }));
      const out = await t.client.patch(
        cm,
        rawPatch('json', [
          { op: 'add', path: '/data/c', value: '3' },
          { op: 'replace', path: '/data/a', value: 'one' },
          { op: 'remove', path: '/data/b' },
          { op: 'add', path: '/metadata/labels', value: { j: 'yes' } },
        ]),
      );
      expect(out.data).toEqual({ a: 'one', c: '3' });
      expect(out.metadata.labels).toEqual({ j: 'yes' });
      const err = await apiError(
        t.client.patch(out, rawPatch('json', [{ op: 'test', path: '/data/a', value: 'nope' }])),
      );
      expect([err.code, err.reason, err.message]).toEqual([
        422,
        'Invalid',
        'the server rejected our request due to an error in our request',
      ]);
    });

    it('strategic merge patch merges containers by name and env by name', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const base = deployment(ns, 'smp');
      containersOf(base).push({ name: 'sidecar', image: 'registry.example/side:1', env: [{ name: 'A', value: '1' }] });
      const d = await t.client.create(base);
      const out = await t.client.patch(
        d,
        rawPatch('strategic', {
          spec: {
            template: {
              spec: {
                containers: [{ name: 'sidecar', image: 'registry.example/side:2', env: [{ name: 'B', value: '2' }] }],
              },
            },
          },
        }),
      );
      const cs = containersOf(out);
      expect(cs.map((c) => [c.name, c.image])).toEqual([
        ['app', 'registry.example/app:1'],
        ['sidecar', 'registry.example/side:2'],
      ]);
      expect(cs[1]?.env).toEqual([
        { name: 'B', value: '2' },
        { name: 'A', value: '1' },
      ]);
      expect(out.metadata.generation).toBe(2);
      const del = await t.client.patch(
        out,
        rawPatch('strategic', {
          spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } },
        }),
      );
      expect(containersOf(del).map((c) => c.name)).toEqual(['app']);
    });

    it('answers a patch of a missing object with 404', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(t.client.patch(configMap(ns, 'ghost'), rawPatch('merge', { data: { a: 'b' } })));
      expect([err.code, err.reason, err.message]).toEqual([404, 'NotFound', 'configmaps "ghost" not found']);
    });
  });

  describe('delete', () => {
    it('answers a plain delete with a Success Status naming the uid', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'bye'));
      const res = (await t.client.resource(CONFIGMAPS_GVR).delete('bye', { namespace: ns })) as KubeStatus;
      expect(res).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Success',
        details: { name: 'bye', kind: 'configmaps', uid: cm.metadata.uid },
      });
      const err = await apiError(t.client.get(CONFIGMAP, { namespace: ns, name: 'bye' }));
      expect(err.code).toBe(404);
      const again = await apiError(t.client.delete(cm));
      expect([again.code, again.reason, again.message]).toEqual([404, 'NotFound', 'configmaps "bye" not found']);
    });

    it('keeps an object with finalizers until they are removed: deletionTimestamp, MODIFIED, then DELETED', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.some((e) => e.type === 'DELETED'));
      const cm = await t.client.create(configMap(ns, 'held', { finalizers: ['example.com/hold'] }));
      const res = (await t.client.resource(CONFIGMAPS_GVR).delete('held', { namespace: ns })) as KubeObject;
      expect(res.kind).toBe('ConfigMap');
      expect(res.metadata.deletionTimestamp).toBeTruthy();
      expect(res.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(res.metadata.finalizers).toEqual(['example.com/hold']);
      const stored = await t.client.get<KubeObject>(CONFIGMAP, { namespace: ns, name: 'held' });
      expect(stored.metadata.deletionTimestamp).toBe(res.metadata.deletionTimestamp);
      // A second delete changes nothing and answers the object again.
      const second = (await t.client.resource(CONFIGMAPS_GVR).delete('held', { namespace: ns })) as KubeObject;
      expect(second.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
      // No new finalizers while deleting.
      const add = await apiError(
        t.client.update({
          ...stored,
          metadata: { ...stored.metadata, finalizers: ['example.com/hold', 'example.com/more'] },
        }),
      );
      expect([add.code, add.reason]).toEqual([422, 'Invalid']);
      expect(add.message).toContain('no new finalizers can be added if the object is being deleted');
      const cleared = await t.client.update({ ...stored, metadata: { ...stored.metadata, finalizers: [] } });
      expect(cleared.metadata.name).toBe('held');
      const gone = await apiError(t.client.get(CONFIGMAP, { namespace: ns, name: 'held' }));
      expect(gone.code).toBe(404);
      const { events } = await pending;
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      const last = events[2]?.object as KubeObject;
      expect(last.metadata.uid).toBe(cm.metadata.uid);
      expect(last.metadata.deletionTimestamp).toBe(res.metadata.deletionTimestamp);
      expect(last.metadata.finalizers).toEqual(['example.com/hold']);
    });

    it('deletes an unscheduled pod at once and a scheduled one gracefully', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const rc = t.client.resource(PODS_GVR);
      await t.client.create(pod(ns, 'loose'));
      // Pods answer a delete with the pod itself; without a node there is nothing to wait for.
      const loose = (await rc.delete('loose', { namespace: ns })) as KubeObject;
      expect(loose.kind).toBe('Pod');
      expect((await apiError(t.client.get(POD, { namespace: ns, name: 'loose' }))).code).toBe(404);

      await t.client.create(pod(ns, 'placed', 'node-a'));
      const placed = (await rc.delete('placed', { namespace: ns })) as KubeObject;
      expect(placed.metadata.deletionTimestamp).toBeTruthy();
      expect(placed.metadata.deletionGracePeriodSeconds).toBe(30);
      const stored = await t.client.get<KubeObject>(POD, { namespace: ns, name: 'placed' });
      expect(stored.metadata.deletionGracePeriodSeconds).toBe(30);
      // A shorter grace period shortens it; 0 removes the pod (what a kubelet does once containers stopped).
      const shorter = (await rc.delete('placed', { namespace: ns, gracePeriodSeconds: 5 })) as KubeObject;
      expect(shorter.metadata.deletionGracePeriodSeconds).toBe(5);
      await rc.delete('placed', { namespace: ns, gracePeriodSeconds: 0 });
      expect((await apiError(t.client.get(POD, { namespace: ns, name: 'placed' }))).code).toBe(404);
    });

    it('keeps a namespace Terminating while content with finalizers remains, refusing new content', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'held', { finalizers: ['example.com/hold'] }));
      const nsRc = t.client.resource({ group: '', version: 'v1', resource: 'namespaces' });
      const first = (await nsRc.delete(ns)) as KubeObject;
      expect(first.status).toEqual({ phase: 'Terminating' });
      expect(first.metadata.deletionTimestamp).toBeTruthy();
      // Unlike other kinds held by finalizers, a namespace gets no deletionGracePeriodSeconds.
      expect(first.metadata.deletionGracePeriodSeconds).toBeUndefined();
      // kube-apiserver's NamespaceLifecycle admission reads namespaces from an informer, so it may admit a
      // create for a moment after the delete; probe with dry runs (admitted like real writes, never stored).
      const err = await eventually('creates in the namespace to be refused', () =>
        apiError(t.client.create(configMap(ns, 'late'), { dryRun: true })).catch(() => undefined),
      );
      expect(statusOf(err)).toMatchObject({
        reason: 'Forbidden',
        code: 403,
        message: `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
        details: {
          name: 'late',
          kind: 'configmaps',
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: `namespace ${ns} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      });
      // Deleting it again changes nothing and answers the namespace (kube-apiserver 1.36; older servers said 409).
      const again = (await nsRc.delete(ns)) as KubeObject;
      expect(again.kind).toBe('Namespace');
      expect(again.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
      const stillThere = await t.client.get<KubeObject>(NAMESPACE, { name: ns });
      expect(stillThere.status).toMatchObject({ phase: 'Terminating' });
    });

    it('bumps generation when a finalizer-held deletion starts', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const d = deployment(ns, 'held');
      d.metadata.finalizers = ['example.com/hold'];
      await t.client.create(d);
      const res = (await t.client.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete('held', {
        namespace: ns,
      })) as KubeObject;
      expect(res.metadata.generation).toBe(2);
      const stored = await t.client.get<KubeObject>(DEPLOYMENT, { namespace: ns, name: 'held' });
      await t.client.patch(stored, rawPatch('merge', { metadata: { finalizers: null } }));
      expect((await apiError(t.client.get(DEPLOYMENT, { namespace: ns, name: 'held' }))).code).toBe(404);
    });

    it('adds the orphan or foregroundDeletion finalizer for those propagation policies', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const rc = t.client.resource({ group: 'apps', version: 'v1', resource: 'deployments' });
      await t.client.create(deployment(ns, 'orphaned'));
      await t.client.create(deployment(ns, 'foreground'));
      await t.client.create(deployment(ns, 'background'));
      const o = (await rc.delete('orphaned', { namespace: ns, propagationPolicy: 'Orphan' })) as KubeObject;
      expect([o.metadata.finalizers, Boolean(o.metadata.deletionTimestamp)]).toEqual([['orphan'], true]);
      const f = (await rc.delete('foreground', { namespace: ns, propagationPolicy: 'Foreground' })) as KubeObject;
      expect([f.metadata.finalizers, Boolean(f.metadata.deletionTimestamp)]).toEqual([['foregroundDeletion'], true]);
      // What happens next is the garbage collector's job (the sandbox runs one, envtest does not).
      const b = (await rc.delete('background', { namespace: ns, propagationPolicy: 'Background' })) as KubeStatus;
      expect(b).toMatchObject({
        kind: 'Status',
        status: 'Success',
        details: { name: 'background', group: 'apps', kind: 'deployments' },
      });
    });

    it('checks uid and resourceVersion preconditions with 409 Conflict', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await t.client.create(configMap(ns, 'pre'));
      const rc = t.client.resource(CONFIGMAPS_GVR);
      const uid = await apiError(rc.delete('pre', { namespace: ns, preconditions: { uid: 'not-the-uid' } }));
      expect(statusOf(uid)).toMatchObject({
        reason: 'Conflict',
        code: 409,
        message: `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (not-the-uid) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`,
      });
      const rv = await apiError(rc.delete('pre', { namespace: ns, preconditions: { resourceVersion: '1' } }));
      expect(statusOf(rv)).toMatchObject({
        reason: 'Conflict',
        code: 409,
        message: `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cm.metadata.resourceVersion}). The object might have been modified`,
      });
      await rc.delete('pre', { namespace: ns, preconditions: { uid: cm.metadata.uid } });
    });

    it('deletecollection removes exactly the objects matching a label selector and answers a list', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const [n, tier] of [
        ['k1', 'keep'],
        ['d1', 'drop'],
        ['d2', 'drop'],
        ['k2', 'keep'],
      ] as const) {
        await t.client.create(configMap(ns, n, { labels: { tier } }));
      }
      const res = (await t.client
        .resource(CONFIGMAPS_GVR)
        .deleteCollection({ namespace: ns, labelSelector: 'tier=drop' })) as KubeList;
      expect(res.kind).toBe('ConfigMapList');
      expect(names(res.items)).toEqual(['d1', 'd2']);
      expect(names((await t.client.list(CONFIGMAP, { namespace: ns })).items)).toEqual(['k1', 'k2']);
      // Through the controller-runtime style client too.
      await t.client.deleteAllOf(CONFIGMAP, { namespace: ns, labelSelector: 'tier in (keep)' });
      expect((await t.client.list(CONFIGMAP, { namespace: ns })).items).toEqual([]);
    });
  });
}
