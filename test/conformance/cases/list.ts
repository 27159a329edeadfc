// LIST: label and field selectors, limit/continue pagination on one snapshot, and the resourceVersion
// parameters (spec §3).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { ListPager, newListWatchFromClient, rawPatch } from '../../../server/runtime/client';
import {
  apiError,
  CONFIGMAP,
  configMap,
  CONFIGMAPS_GVR,
  eventually,
  names,
  newNamespace,
  POD,
  pod,
  rvNum,
  SERVICEACCOUNTS_GVR,
  serviceAccount,
  statusOf,
} from '../support/helpers';
import type { ConformanceTarget, GetTarget, TargetName } from '../support/target';

async function seedLabelled(t: ConformanceTarget, ns: string): Promise<void> {
  await t.client.create(configMap(ns, 'a', { labels: { app: 'a', tier: 'front', rank: '1' } }));
  await t.client.create(configMap(ns, 'b', { labels: { app: 'b', tier: 'back', rank: '5' } }));
  await t.client.create(configMap(ns, 'c', { labels: { app: 'c' } }));
  await t.client.create(configMap(ns, 'd', { labels: { other: 'x' } }));
}

export function listCases(target: GetTarget, _targetName: TargetName): void {
  describe('list: label selectors', () => {
    const cases: [string, string[]][] = [
      ['app=a', ['a']],
      ['app==a', ['a']],
      ['app!=a', ['b', 'c', 'd']],
      ['app in (a,b)', ['a', 'b']],
      ['app notin (a,b)', ['c', 'd']],
      ['tier', ['a', 'b']],
      ['!tier', ['c', 'd']],
      ['app,!tier', ['c']],
      ['app in (a,b,c),tier=back', ['b']],
      ['rank>2', ['b']],
      ['rank<2', ['a']],
      ['', ['a', 'b', 'c', 'd']],
    ];
    it('matches equality-based and set-based requirements (AND of comma-separated parts)', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await seedLabelled(t, ns);
      for (const [selector, want] of cases) {
        const list = await t.client.list(CONFIGMAP, { namespace: ns, labelSelector: selector || undefined });
        expect(names(list.items), selector).toEqual(want);
      }
    });

    it('rejects an unparsable selector with 400 BadRequest', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const err = await apiError(t.client.list(CONFIGMAP, { namespace: ns, labelSelector: 'app in (a' }));
      expect([err.code, err.reason]).toEqual([400, 'BadRequest']);
      expect(statusOf(err).kind).toBe('Status');
    });
  });

  describe('list: field selectors', () => {
    it('selects on metadata.name and metadata.namespace, alone and across namespaces', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const other = await newNamespace(t);
      await seedLabelled(t, ns);
      await t.client.create(configMap(other, 'a', { labels: { app: 'a' } }));
      expect(
        names((await t.client.list(CONFIGMAP, { namespace: ns, fieldSelector: 'metadata.name=b' })).items),
      ).toEqual(['b']);
      expect(
        names((await t.client.list(CONFIGMAP, { namespace: ns, fieldSelector: 'metadata.name!=b' })).items),
      ).toEqual(['a', 'c', 'd']);
      const across = await t.client.list(CONFIGMAP, { fieldSelector: 'metadata.name=a', labelSelector: 'app=a' });
      const mine = across.items.filter((i) => i.metadata.namespace === ns || i.metadata.namespace === other);
      // Storage order: namespace, then name.
      expect(mine.map((i) => i.metadata.namespace)).toEqual([ns, other].sort());
      const one = await t.client.list(CONFIGMAP, { fieldSelector: `metadata.namespace=${other}` });
      expect(one.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual([`${other}/a`]);
      const both = await t.client.list(CONFIGMAP, {
        namespace: ns,
        fieldSelector: `metadata.namespace=${ns},metadata.name=c`,
      });
      expect(names(both.items)).toEqual(['c']);
    });

    it('rejects a field a kind does not index with 400 and the upstream message', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const cm = await apiError(t.client.list(CONFIGMAP, { namespace: ns, fieldSelector: 'data.k=v' }));
      expect([cm.code, cm.reason, cm.message]).toEqual([
        400,
        'BadRequest',
        '"data.k" is not a known field selector: only "metadata.name", "metadata.namespace"',
      ]);
      const p = await apiError(t.client.list(POD, { namespace: ns, fieldSelector: 'spec.nope=x' }));
      expect([p.code, p.reason, p.message]).toEqual([400, 'BadRequest', 'field label not supported: spec.nope']);
    });

    it('selects pods on spec.nodeName and status.phase', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(pod(ns, 'on-a', 'node-a'));
      await t.client.create(pod(ns, 'on-b', 'node-b'));
      const unscheduled = await t.client.create(pod(ns, 'nowhere'));
      expect(unscheduled.status).toMatchObject({ phase: 'Pending' });
      const byNode = async (sel: string): Promise<string[]> =>
        names((await t.client.list(POD, { namespace: ns, fieldSelector: sel })).items);
      expect(await byNode('spec.nodeName=node-a')).toEqual(['on-a']);
      expect(await byNode('spec.nodeName=')).toEqual(['nowhere']);
      expect(await byNode('spec.nodeName!=node-a')).toEqual(['nowhere', 'on-b']);
      expect(await byNode('status.phase=Pending')).toEqual(['nowhere', 'on-a', 'on-b']);
      const running = await t.client.get<KubeObject>(POD, { namespace: ns, name: 'on-b' });
      await t.client.status().patch(running, rawPatch('merge', { status: { phase: 'Running' } }));
      expect(await byNode('status.phase=Running')).toEqual(['on-b']);
      expect(await byNode('status.phase=Pending,spec.nodeName=node-a')).toEqual(['on-a']);
    });
  });

  describe('list: pagination', () => {
    it('pages with limit/continue on one snapshot, in name order, counting what remains', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const all = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
      for (const n of [...all].reverse()) await t.client.create(configMap(ns, n));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const first = await lw.list({ limit: 3 });
      expect(names(first.items)).toEqual(['p0', 'p1', 'p2']);
      expect(first.metadata.continue).toBeTruthy();
      expect(first.metadata.remainingItemCount).toBe(4);
      // Written after the first page: invisible to the rest of this list.
      await t.client.create(configMap(ns, 'p3a'));
      await t.client.delete(configMap(ns, 'p5'));
      const second = await lw.list({ limit: 3, continue: first.metadata.continue });
      expect(names(second.items)).toEqual(['p3', 'p4', 'p5']);
      expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
      expect(second.metadata.remainingItemCount).toBe(1);
      const third = await lw.list({ limit: 3, continue: second.metadata.continue });
      expect(names(third.items)).toEqual(['p6']);
      expect(third.metadata.continue).toBeFalsy();
      expect(third.metadata.remainingItemCount).toBeUndefined();
      expect(third.metadata.resourceVersion).toBe(first.metadata.resourceVersion);

      const paged = await new ListPager({ lister: lw, pageSize: 2 }).list({});
      expect(paged.paginatedResult).toBe(true);
      expect(names(paged.list.items)).toEqual(['p0', 'p1', 'p2', 'p3', 'p3a', 'p4', 'p6']);
    });

    it('pages an all-namespaces list in namespace, then name order', async () => {
      const t = target();
      const a = await newNamespace(t, 'conf-page-');
      const b = await newNamespace(t, 'conf-page-');
      const label = { pagetest: a };
      for (const [ns, n] of [
        [b, 'x'],
        [a, 'y'],
        [b, 'a'],
        [a, 'b'],
      ] as const) {
        await t.client.create(configMap(ns, n, { labels: label }));
      }
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR });
      const paged = await new ListPager({ lister: lw, pageSize: 1 }).list({ labelSelector: `pagetest=${a}` });
      expect(paged.paginatedResult).toBe(true);
      const [first, second] = [a, b].sort();
      const expected = [first, second].flatMap((ns) => (ns === a ? [`${a}/b`, `${a}/y`] : [`${b}/a`, `${b}/x`]));
      expect(paged.list.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(expected);
    });

    it('omits remainingItemCount when a selector is used', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const n of ['s0', 's1', 's2']) await t.client.create(configMap(ns, n, { labels: { l: 'x' } }));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const page = await lw.list({ limit: 1, labelSelector: 'l=x' });
      expect(names(page.items)).toEqual(['s0']);
      expect(page.metadata.continue).toBeTruthy();
      expect(page.metadata.remainingItemCount).toBeUndefined();
    });

    it('rejects a garbage continue token with 400', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const err = await apiError(lw.list({ limit: 1, continue: 'not-a-token' }));
      expect([err.code, err.reason]).toEqual([400, 'BadRequest']);
    });
  });

  describe('list: resourceVersion semantics', () => {
    it('reports the global revision as the list resourceVersion, advancing with writes of other kinds', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const other = await newNamespace(t);
      const before = await t.client.list(POD, { namespace: ns });
      const cm = await t.client.create(configMap(other, 'elsewhere'));
      const after = await t.client.list(POD, { namespace: ns });
      expect(rvNum(after)).toBeGreaterThanOrEqual(rvNum(cm));
      expect(rvNum(after)).toBeGreaterThan(rvNum(before));
    });

    it('ignores limit when resourceVersion="0"', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const n of ['z0', 'z1', 'z2']) await t.client.create(configMap(ns, n));
      // RV=0 may be answered from a cache that lags the writes above: wait until it shows all three.
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const list = await eventually('the cache to hold z0..z2', async () => {
        const l = await lw.list({ resourceVersion: '0', limit: 1 });
        return l.items.length === 3 ? l : undefined;
      });
      expect(names(list.items)).toEqual(['z0', 'z1', 'z2']);
      expect(list.metadata.continue).toBeFalsy();
    });

    it('serves resourceVersionMatch=Exact at an older revision', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'e1'));
      await t.client.create(configMap(ns, 'e2'));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const snap = await lw.list({});
      await t.client.create(configMap(ns, 'e3'));
      await t.client.delete(configMap(ns, 'e1'));
      const exact = await lw.list({ resourceVersion: snap.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
      expect(names(exact.items)).toEqual(['e1', 'e2']);
      expect(exact.metadata.resourceVersion).toBe(snap.metadata.resourceVersion);
      const notOlder = await lw.list({
        resourceVersion: snap.metadata.resourceVersion,
        resourceVersionMatch: 'NotOlderThan',
      });
      expect(rvNum(notOlder)).toBeGreaterThanOrEqual(rvNum(snap));
      const now = await lw.list({});
      expect(names(now.items)).toEqual(['e2', 'e3']);
    });

    it('answers 410 Expired for an exact list at a compacted revision', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(serviceAccount(ns, 'old'));
      const lw = newListWatchFromClient({ http: t.http, gvr: SERVICEACCOUNTS_GVR, namespace: ns });
      const snap = await lw.list({});
      await t.client.create(serviceAccount(ns, 'newer'));
      await t.compact();
      const err = await apiError(
        lw.list({ resourceVersion: snap.metadata.resourceVersion, resourceVersionMatch: 'Exact' }),
      );
      expect([err.code, err.reason, err.message]).toEqual([
        410,
        'Expired',
        'The resourceVersion for the provided list is too old.',
      ]);
    });

    it('answers 410 Expired with a fresh continue token when the token outlives compaction', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const n of ['sa0', 'sa1', 'sa2']) await t.client.create(serviceAccount(ns, n));
      const lw = newListWatchFromClient({ http: t.http, gvr: SERVICEACCOUNTS_GVR, namespace: ns });
      const first = await lw.list({ limit: 1 });
      expect(names(first.items)).toEqual(['sa0']);
      await t.client.create(serviceAccount(ns, 'sa1b'));
      await t.compact();
      const err = await apiError(lw.list({ limit: 1, continue: first.metadata.continue }));
      expect([err.code, err.reason]).toEqual([410, 'Expired']);
      expect(err.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
      const fresh = (statusOf(err).metadata as { continue?: string }).continue;
      expect(fresh).toBeTruthy();
      // The new token continues after the same key, at the current revision.
      const rest = await lw.list({ limit: 10, continue: fresh });
      expect(names(rest.items)).toEqual(['sa1', 'sa1b', 'sa2']);
      expect(rvNum(rest)).toBeGreaterThan(rvNum(first));
      // ListPager recovers by listing everything once.
      const pagedAfterCompaction = await new ListPager({ lister: lw, pageSize: 1 }).list({});
      expect(names(pagedAfterCompaction.list.items)).toEqual(['sa0', 'sa1', 'sa1b', 'sa2']);
    });

    it('waits for a resourceVersion ahead of the server, then answers 504 Too large resource version', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const now = await lw.list({});
      const ahead = String(rvNum(now) + 1_000_000n);
      const err = await apiError(lw.list({ resourceVersion: ahead, resourceVersionMatch: 'NotOlderThan' }));
      expect([err.code, err.reason]).toEqual([504, 'Timeout']);
      expect(err.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`));
      expect(statusOf(err).details).toMatchObject({
        causes: [{ reason: 'ResourceVersionTooLarge', message: `Too large resource version` }],
        retryAfterSeconds: 1,
      });
    });

    it('validates list options with 422 Invalid ListOptions', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const err = await apiError(lw.list({ resourceVersionMatch: 'Exact' }));
      expect([err.code, err.reason]).toEqual([422, 'Invalid']);
      expect(err.message).toMatch(
        /^ListOptions\.meta\.k8s\.io "" is invalid: .*resourceVersionMatch is forbidden unless resourceVersion is provided/,
      );
      const bad = await apiError(lw.list({ resourceVersion: 'abc' }));
      expect([bad.code, bad.reason]).toEqual([400, 'BadRequest']);
    });
  });
}
