// WATCH through our ListWatch: ordered events from a resourceVersion, selector transitions, the
// initial-events-end bookmark of a streaming list, timeoutSeconds, and 410 for a too-old start (spec §4).
import { describe, expect, it } from 'vitest';
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import { newListWatchFromClient } from '../../../server/runtime/client';
import {
  collect,
  CONFIGMAP,
  configMap,
  CONFIGMAPS_GVR,
  newNamespace,
  rvNum,
  SERVICEACCOUNTS_GVR,
  serviceAccount,
} from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

const summary = (events: WatchEvent[]): string[] =>
  events.map((e) => `${e.type} ${(e.object as KubeObject).metadata?.name ?? ''}`);

export function watchCases(target: GetTarget, _targetName: TargetName): void {
  describe('watch', () => {
    it('replays ADDED, MODIFIED, DELETED from a resourceVersion, in order, with the written objects', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const created = await t.client.create(configMap(ns, 'w'));
      const updated = await t.client.update({ ...created, data: { k: 'v2' } });
      await t.client.delete(updated);
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const { events } = await collect(stream, (evs) => evs.length >= 3);
      expect(summary(events)).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
      const [added, modified, deleted] = events.map((e) => e.object as KubeObject);
      expect(added).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
      expect(added?.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      expect(modified?.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
      expect(modified?.data).toEqual({ k: 'v2' });
      // DELETED carries the last state, stamped with the deletion's own revision.
      expect(deleted?.data).toEqual({ k: 'v2' });
      expect(rvNum(deleted!)).toBeGreaterThan(rvNum(updated));
    });

    it('delivers later changes to an open watch in strictly increasing resourceVersion order', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 4);
      const x = await t.client.create(configMap(ns, 'x'));
      await t.client.create(configMap(ns, 'y'));
      await t.client.update({ ...x, data: { k: 'x2' } });
      await t.client.delete(x);
      const { events } = await pending;
      expect(summary(events)).toEqual(['ADDED x', 'ADDED y', 'MODIFIED x', 'DELETED x']);
      const rvs = events.map((e) => rvNum(e.object as KubeObject));
      expect([...rvs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(rvs);
      expect(new Set(rvs).size).toBe(rvs.length);
    });

    it('resumes from the resourceVersion of the last event seen without missing or repeating changes', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const first = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(first, (evs) => evs.length >= 1);
      const r1 = await t.client.create(configMap(ns, 'r1'));
      const { events: seen } = await pending;
      expect(summary(seen)).toEqual(['ADDED r1']);
      // Changes made while no watch is open.
      await t.client.update({ ...r1, data: { k: 'r1b' } });
      await t.client.create(configMap(ns, 'r2'));
      const resumed = await lw.watch({ resourceVersion: (seen[0]?.object as KubeObject).metadata.resourceVersion });
      const { events } = await collect(resumed, (evs) => evs.length >= 2);
      expect(summary(events)).toEqual(['MODIFIED r1', 'ADDED r2']);
    });

    it('shows the same change with the same resourceVersion and content in every watch', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const nsWatch = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const allWatch = newListWatchFromClient({
        http: t.http,
        gvr: CONFIGMAPS_GVR,
        labelSelector: `consistency=${ns}`,
      });
      const start = await nsWatch.list({});
      const a = collect(
        await nsWatch.watch({ resourceVersion: start.metadata.resourceVersion }),
        (evs) => evs.length >= 2,
      );
      const b = collect(
        await allWatch.watch({ resourceVersion: start.metadata.resourceVersion }),
        (evs) => evs.length >= 2,
      );
      const c = await t.client.create(configMap(ns, 'same', { labels: { consistency: ns } }));
      await t.client.update({ ...c, data: { k: 'changed' } });
      const [fromNs, fromAll] = [(await a).events, (await b).events];
      expect(fromAll).toEqual(fromNs);
      expect(summary(fromNs)).toEqual(['ADDED same', 'MODIFIED same']);
    });

    it('turns selector transitions into ADDED and DELETED (with the previous state)', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({
        http: t.http,
        gvr: CONFIGMAPS_GVR,
        namespace: ns,
        labelSelector: 'watched=yes',
      });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 3);
      const c = await t.client.create(configMap(ns, 'flip', { labels: { watched: 'no' } }));
      const on = await t.client.update({ ...c, metadata: { ...c.metadata, labels: { watched: 'yes' } } });
      const touched = await t.client.update({ ...on, data: { k: 'v2' } });
      const off = await t.client.update({ ...touched, metadata: { ...touched.metadata, labels: { watched: 'no' } } });
      const { events } = await pending;
      expect(summary(events)).toEqual(['ADDED flip', 'MODIFIED flip', 'DELETED flip']);
      const last = events[2]?.object as KubeObject;
      expect(last.metadata.labels).toEqual({ watched: 'yes' });
      expect(last.metadata.resourceVersion).toBe(off.metadata.resourceVersion);
    });

    it('starts a watch without resourceVersion with ADDED for every current object, then changes', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'n1'));
      await t.client.create(configMap(ns, 'n2'));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      for (const resourceVersion of [undefined, '0']) {
        const stream = await lw.watch({ resourceVersion });
        const pending = collect(stream, (evs) => evs.filter((e) => e.type === 'ADDED').length >= 3);
        // The synthetic events come first, in no promised order.
        const extra = await t.client.create(configMap(ns, `later-${resourceVersion ?? 'unset'}`));
        const { events } = await pending;
        const addedNames = events.filter((e) => e.type === 'ADDED').map((e) => (e.object as KubeObject).metadata.name);
        expect(addedNames.slice(0, 2).sort(), `resourceVersion=${String(resourceVersion)}`).toEqual(['n1', 'n2']);
        expect(addedNames[2]).toBe(extra.metadata.name);
        expect(events.filter((e) => e.type !== 'ADDED' && e.type !== 'BOOKMARK')).toEqual([]);
        await t.client.delete(extra);
      }
    });

    it('watches a single object through a metadata.name field selector', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({
        http: t.http,
        gvr: CONFIGMAPS_GVR,
        namespace: ns,
        fieldSelector: 'metadata.name=one',
      });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 2);
      const other = await t.client.create(configMap(ns, 'other'));
      const one = await t.client.create(configMap(ns, 'one'));
      await t.client.update({ ...other, data: { k: 'x' } });
      await t.client.delete(one);
      const { events } = await pending;
      expect(summary(events)).toEqual(['ADDED one', 'DELETED one']);
    });

    it('reports every object removed by a deletecollection as DELETED', async () => {
      const t = target();
      const ns = await newNamespace(t);
      for (const n of ['c1', 'c2', 'keep']) {
        await t.client.create(configMap(ns, n, { labels: { gone: n === 'keep' ? 'no' : 'yes' } }));
      }
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 2);
      await t.client.deleteAllOf(CONFIGMAP, { namespace: ns, labelSelector: 'gone=yes' });
      const { events } = await pending;
      expect(summary(events).sort()).toEqual(['DELETED c1', 'DELETED c2']);
    });

    it('sends current objects then the initial-events-end bookmark for sendInitialEvents', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'i1'));
      const last = await t.client.create(configMap(ns, 'i2'));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const stream = await lw.watch({
        sendInitialEvents: true,
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: true,
      });
      const { events } = await collect(stream, (evs) => evs.some((e) => e.type === 'BOOKMARK'));
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
      expect(
        events
          .slice(0, 2)
          .map((e) => (e.object as KubeObject).metadata.name)
          .sort(),
      ).toEqual(['i1', 'i2']);
      const bookmark = events[2]?.object as KubeObject;
      expect(bookmark).toMatchObject({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
      expect(rvNum(bookmark)).toBeGreaterThanOrEqual(rvNum(last));
    });

    it('ends the initial events of a legacy watch from "" with the bookmark when bookmarks are allowed', async () => {
      // Servers >= 1.34 serve such a watch as a streaming list (the WatchList rewrite).
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'only'));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const stream = await lw.watch({ allowWatchBookmarks: true });
      const { events } = await collect(stream, (evs) => evs.some((e) => e.type === 'BOOKMARK'));
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
      expect((events[1]?.object as KubeObject).metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    });

    it('resumes after the initial-events-end bookmark without missing a change', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(configMap(ns, 'b1'));
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const stream = await lw.watch({
        sendInitialEvents: true,
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: true,
      });
      const { events } = await collect(stream, (evs) => evs.some((e) => e.type === 'BOOKMARK'));
      const bookmarkRv = (events.at(-1)?.object as KubeObject).metadata.resourceVersion;
      await t.client.create(configMap(ns, 'b2'));
      const resumed = await lw.watch({ resourceVersion: bookmarkRv, allowWatchBookmarks: true });
      const { events: after } = await collect(resumed, (evs) => evs.some((e) => e.type === 'ADDED'));
      expect(summary(after.filter((e) => e.type !== 'BOOKMARK'))).toEqual(['ADDED b2']);
    });

    it('ends a streaming list for a resourceVersion ahead of the server with an ERROR 504 event', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const now = await lw.list({});
      const ahead = String(rvNum(now) + 1_000_000n);
      const stream = await lw.watch({
        sendInitialEvents: true,
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: true,
        resourceVersion: ahead,
      });
      const { events, ended } = await collect(stream);
      expect(ended).toBe(true);
      expect(events.map((e) => e.type)).toEqual(['ERROR']);
      expect(events[0]?.object).toMatchObject({ kind: 'Status', code: 504, reason: 'Timeout' });
      expect((events[0]?.object as KubeStatus).message).toMatch(
        new RegExp(`Too large resource version: ${ahead}, current: \\d+`),
      );
    });

    it('rejects sendInitialEvents without resourceVersionMatch=NotOlderThan with 422', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const err = await lw.watch({ sendInitialEvents: true }).then(
        () => undefined,
        (e: unknown) => e as { code: number; reason: string; message: string },
      );
      expect([err?.code, err?.reason]).toEqual([422, 'Invalid']);
      expect(err?.message).toMatch(/^ListOptions\.meta\.k8s\.io "" is invalid/);
    });

    it('ends the stream normally after timeoutSeconds', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns });
      const start = await lw.list({});
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion, timeoutSeconds: 1 });
      const { events, ended } = await collect(stream);
      expect(ended).toBe(true);
      expect(events).toEqual([]);
    });

    it('answers a watch from a compacted resourceVersion with one ERROR 410 Expired event, then ends', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const lw = newListWatchFromClient({ http: t.http, gvr: SERVICEACCOUNTS_GVR, namespace: ns });
      const start = await lw.list({});
      await t.client.create(serviceAccount(ns, 'before'));
      await t.client.create(serviceAccount(ns, 'after'));
      await t.compact();
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const { events, ended } = await collect(stream);
      expect(ended).toBe(true);
      expect(events.map((e) => e.type)).toEqual(['ERROR']);
      const status = events[0]?.object as KubeStatus;
      expect(status).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
      });
      // The watch-cache path words it one way, the etcd path the other; clients branch on code/reason only.
      expect(status.message).toMatch(
        /^(too old resource version: \d+ \(\d+\)|The resourceVersion for the provided watch is too old\.)$/,
      );
    });
  });
}
