// The sandbox over real HTTP on an ephemeral port: discovery, CRUD, lists, watches, compaction,
// conflicts, finalizers, cascading deletion, CRDs and fault injection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject, KubeStatus } from '../../../shared/models/object';
import { SandboxServer } from './server';
import { openWatch, request } from './testing/http-client';

let server: SandboxServer;
let base: string;
const CMS = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  server = new SandboxServer({ bookmarkIntervalMs: 100 });
  base = (await server.start()).url;
});
afterAll(async () => {
  await server.stop();
});

const req = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => request<T>(base, method, path, body, headers);
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { k: 'v' },
});

describe('discovery and health', () => {
  it('serves /version, health checks and a plain-text 404', async () => {
    const v = await req('GET', '/version');
    expect(v.body).toMatchObject({ major: '1', minor: '32' });
    const h = await req('GET', '/readyz');
    expect([h.status, h.text]).toEqual([200, 'ok']);
    expect((await req('GET', '/livez?verbose')).text).toContain('livez check passed');
    const nf = await req('GET', '/nope');
    expect([nf.status, nf.text, nf.headers.get('content-type')]).toEqual([
      404,
      '404 page not found\n',
      'text/plain; charset=utf-8',
    ]);
  });

  it('reports the configured Kubernetes version', async () => {
    const other = new SandboxServer({ kubernetesVersion: 'v1.36.3' });
    const { url } = await other.start();
    const v = await request(url, 'GET', '/version');
    await other.stop();
    expect(v.body).toMatchObject({ major: '1', minor: '36', gitVersion: 'v1.36.3' });
  });

  it('answers aggregated discovery with its content type, legacy otherwise', async () => {
    const agg = await req('GET', '/apis', undefined, {
      Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    expect(agg.headers.get('content-type')).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
    const items = (agg.body as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
    // kube-apiserver 1.36's group order (recorded in resources.generated.json).
    expect(items.slice(0, 4)).toEqual(['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io']);
    expect(items).toHaveLength(20);
    const legacy = await req('GET', '/apis', undefined, {
      Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    });
    expect(legacy.headers.get('content-type')).toBe('application/json');
    expect(legacy.body.kind).toBe('APIGroupList');
    const v1 = await req<{ resources: { name: string; verbs: string[] }[] }>('GET', '/api/v1');
    const pods = v1.body.resources.find((r) => r.name === 'pods');
    expect(pods?.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(v1.body.resources.some((r) => r.name === 'pods/status')).toBe(true);
    const root = await req<{ paths: Record<string, { serverRelativeURL: string }> }>('GET', '/openapi/v3');
    const doc = await req<{ paths: Record<string, { patch: { parameters: { name: string }[] } }> }>(
      'GET',
      root.body.paths['api/v1']!.serverRelativeURL,
    );
    expect(
      doc.body.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']?.patch.parameters.map((p) => p.name),
    ).toContain('fieldValidation');
  });
});

describe('CRUD', () => {
  it('creates, reads, updates with optimistic concurrency, patches and deletes', async () => {
    const created = await req<KubeObject>('POST', CMS, cm('crud'));
    expect(created.status).toBe(201);
    const got = await req<KubeObject>('GET', `${CMS}/crud`);
    expect(got.body).toEqual(created.body);
    const put = await req<KubeObject>('PUT', `${CMS}/crud`, { ...got.body, data: { k: 'v2' } });
    expect(put.status).toBe(200);
    const stale = await req<KubeStatus>('PUT', `${CMS}/crud`, { ...got.body, data: { k: 'v3' } });
    expect([stale.status, stale.body.reason]).toEqual([409, 'Conflict']);
    const merge = await req<KubeObject>(
      'PATCH',
      `${CMS}/crud`,
      { data: { m: '1' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merge.body.data).toEqual({ k: 'v2', m: '1' });
    const json = await req<KubeObject>('PATCH', `${CMS}/crud`, [{ op: 'remove', path: '/data/k' }], {
      'Content-Type': 'application/json-patch+json',
    });
    expect(json.body.data).toEqual({ m: '1' });
    const smp = await req<KubeObject>(
      'PATCH',
      `${CMS}/crud`,
      { metadata: { labels: { a: 'b' } } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(smp.body.metadata.labels).toEqual({ a: 'b' });
    const staleRv = await req(
      'PATCH',
      `${CMS}/crud`,
      { metadata: { resourceVersion: '1' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(staleRv.status).toBe(409);
    const apply = await req<KubeStatus>('PATCH', `${CMS}/crud`, '{}', {
      'Content-Type': 'application/apply-patch+yaml',
    });
    expect([apply.status, apply.body.reason]).toEqual([415, 'UnsupportedMediaType']);
    const del = await req<KubeStatus>('DELETE', `${CMS}/crud`);
    expect(del.body).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'crud', kind: 'configmaps', uid: created.body.metadata.uid },
    });
    const gone = await req<KubeStatus>('GET', `${CMS}/crud`);
    expect([gone.status, gone.body.message]).toEqual([404, 'configmaps "crud" not found']);
  });

  it('refuses undecodable protobuf bodies (415) and protobuf-only Accept (406)', async () => {
    const pb = await req<KubeStatus>('POST', CMS, 'k8s\u0000', {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    expect([pb.status, pb.body.reason]).toEqual([415, 'UnsupportedMediaType']);
    const na = await req<KubeStatus>('GET', CMS, undefined, { Accept: 'application/vnd.kubernetes.protobuf' });
    expect([na.status, na.body.reason]).toEqual([406, 'NotAcceptable']);
  });

  it('returns Tables and PartialObjectMetadataList when asked', async () => {
    await req('POST', CMS, cm('tabled'));
    const t = await req<{ kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>(
      'GET',
      CMS,
      undefined,
      {
        Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      },
    );
    expect(t.body.kind).toBe('Table');
    expect(t.body.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.body.rows.some((r) => r.cells[0] === 'tabled')).toBe(true);
    const p = await req<KubeList>('GET', CMS, undefined, {
      Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect(p.body.kind).toBe('PartialObjectMetadataList');
    expect(p.body.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
    expect(p.body.items[0]).not.toHaveProperty('data');
  });
});

describe('list', () => {
  beforeAll(async () => {
    await req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } });
    for (let i = 0; i < 25; i++)
      await req(
        'POST',
        '/api/v1/namespaces/paging/configmaps',
        cm(`item-${String(i).padStart(2, '0')}`, { labels: { even: String(i % 2 === 0) } }),
      );
  });

  it('pages in key order with one snapshot resourceVersion', async () => {
    const names: string[] = [];
    let cont = '';
    const rvs = new Set<string>();
    const remaining: (number | undefined)[] = [];
    do {
      const page = await req<KubeList>(
        'GET',
        `/api/v1/namespaces/paging/configmaps?limit=10${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      );
      expect(page.status).toBe(200);
      names.push(...page.body.items.map((o) => o.metadata.name as string));
      rvs.add(page.body.metadata.resourceVersion as string);
      remaining.push(page.body.metadata.remainingItemCount);
      cont = page.body.metadata.continue ?? '';
      if (names.length === 10) await req('POST', '/api/v1/namespaces/paging/configmaps', cm('item-99'));
    } while (cont);
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `item-${String(i).padStart(2, '0')}`));
    expect(rvs.size).toBe(1);
    expect(remaining).toEqual([15, 5, undefined]);
    await req('DELETE', '/api/v1/namespaces/paging/configmaps/item-99');
  });

  it('ignores limit with resourceVersion=0 and drops kind from built-in items', async () => {
    const all = await req<KubeList>('GET', '/api/v1/namespaces/paging/configmaps?limit=5&resourceVersion=0');
    expect(all.body.items).toHaveLength(25);
    expect(all.body.metadata.continue).toBeUndefined();
    expect(all.body.items[0]).not.toHaveProperty('kind');
  });

  it('filters with label and field selectors', async () => {
    const even = await req<KubeList>('GET', '/api/v1/namespaces/paging/configmaps?labelSelector=even%20in%20(true)');
    expect(even.body.items).toHaveLength(13);
    const one = await req<KubeList>(
      'GET',
      '/api/v1/configmaps?fieldSelector=metadata.name%3Ditem-03,metadata.namespace%3Dpaging',
    );
    expect(one.body.items.map((o) => o.metadata.name)).toEqual(['item-03']);
    const bad = await req<KubeStatus>('GET', '/api/v1/configmaps?fieldSelector=spec.x%3Dy');
    expect([bad.status, bad.body.message]).toEqual([
      400,
      '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ]);
    const podBad = await req<KubeStatus>('GET', '/api/v1/pods?fieldSelector=spec.nope%3Dy');
    expect(podBad.body.message).toBe('field label not supported: spec.nope');
    const podOk = await req('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,status.phase%21%3DFailed');
    expect(podOk.status).toBe(200);
  });

  it('validates list options', async () => {
    const r = await req<KubeStatus>('GET', `${CMS}?resourceVersionMatch=Exact`);
    expect([r.status, r.body.message]).toEqual([
      422,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    ]);
    expect((await req('GET', `${CMS}?continue=garbage`)).status).toBe(400);
    expect((await req('GET', `${CMS}?resourceVersion=abc`)).status).toBe(400);
  });
});

describe('watch', () => {
  it('streams changes after a resourceVersion as newline-delimited JSON', async () => {
    const list = await req<KubeList>('GET', CMS);
    const w = await openWatch(base, `${CMS}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    expect(w.status).toBe(200);
    const created = await req<KubeObject>('POST', CMS, cm('watched'));
    await req('DELETE', `${CMS}/watched`);
    const a = await w.next();
    const d = await w.next();
    w.close();
    expect(a).toEqual({ type: 'ADDED', object: created.body });
    expect(d?.type).toBe('DELETED');
    expect(Number((d?.object as KubeObject).metadata.resourceVersion)).toBeGreaterThan(
      Number(created.body.metadata.resourceVersion),
    );
  });

  it('sends one-row Tables when asked, with column definitions on the first event only', async () => {
    const accept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
    const w = await openWatch(base, `${CMS}?watch=true&resourceVersion=${server.store.resourceVersion}`, accept);
    await req('POST', CMS, cm('table-1'));
    await req('POST', CMS, cm('table-2'));
    const first = (await w.next())?.object as unknown as {
      kind: string;
      columnDefinitions?: unknown[];
      rows: { cells: unknown[] }[];
    };
    const second = (await w.next())?.object as unknown as {
      columnDefinitions?: unknown[];
      rows: { cells: unknown[] }[];
    };
    w.close();
    expect(first.kind).toBe('Table');
    expect(first.columnDefinitions).toHaveLength(3);
    expect(first.rows[0]?.cells[0]).toBe('table-1');
    expect(second.columnDefinitions).toBeUndefined();
    expect(second.rows[0]?.cells[0]).toBe('table-2');
  });

  it('sends bookmarks when allowed', async () => {
    const rv = (await req<KubeList>('GET', CMS)).body.metadata.resourceVersion;
    const w = await openWatch(base, `${CMS}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`);
    const ev = await w.next();
    w.close();
    expect(ev?.type).toBe('BOOKMARK');
    expect((ev?.object as KubeObject).kind).toBe('ConfigMap');
  });

  it('implements WatchList: initial ADDED events then the initial-events-end bookmark', async () => {
    await req('POST', CMS, cm('wl'));
    const w = await openWatch(
      base,
      `${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const seen: string[] = [];
    for (;;) {
      const ev = await w.next();
      if (!ev) break;
      if (ev.type === 'BOOKMARK') {
        expect((ev.object as KubeObject).metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
        break;
      }
      seen.push(`${ev.type} ${(ev.object as KubeObject).metadata.name}`);
    }
    w.close();
    expect(seen).toContain('ADDED wl');
    const bad = await req<KubeStatus>('GET', `${CMS}?watch=true&sendInitialEvents=true`);
    expect(bad.status).toBe(422);
  });

  it('ends the stream after timeoutSeconds', async () => {
    const w = await openWatch(
      base,
      `${CMS}?watch=true&timeoutSeconds=1&resourceVersion=${server.store.resourceVersion}`,
    );
    expect(await w.next()).toBeUndefined();
  });

  it('serves named watches on the legacy /watch/ path', async () => {
    await req('POST', CMS, cm('named'));
    const w = await openWatch(base, `/api/v1/watch/namespaces/default/configmaps/named`);
    const ev = await w.next();
    w.close();
    expect([ev?.type, (ev?.object as KubeObject).metadata.name]).toEqual(['ADDED', 'named']);
  });
});

describe('compaction', () => {
  it('answers 410 for old watches, exact lists and continue tokens', async () => {
    const first = await req<KubeList>('GET', '/api/v1/namespaces/paging/configmaps?limit=5');
    const oldRv = first.body.metadata.resourceVersion as string;
    await req('POST', CMS, cm('after-snapshot'));
    server.faults.compactNow();
    const w = await openWatch(base, `${CMS}?watch=true&resourceVersion=${oldRv}`);
    expect(w.status).toBe(200);
    const ev = await w.next();
    expect(ev?.type).toBe('ERROR');
    expect(ev?.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(await w.next()).toBeUndefined();
    const exact = await req<KubeStatus>('GET', `${CMS}?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
    expect([exact.status, exact.body.message]).toEqual([410, 'The resourceVersion for the provided list is too old.']);
    const cont = await req<KubeStatus>(
      'GET',
      `/api/v1/namespaces/paging/configmaps?limit=5&continue=${encodeURIComponent(first.body.metadata.continue as string)}`,
    );
    expect(cont.status).toBe(410);
    expect((cont.body.metadata as { continue?: string }).continue).toBeTruthy();
    const resumed = await req<KubeList>(
      'GET',
      `/api/v1/namespaces/paging/configmaps?limit=5&continue=${encodeURIComponent((cont.body.metadata as { continue: string }).continue)}`,
    );
    expect(resumed.body.items[0]?.metadata.name).toBe('item-05');
  });
});

describe('deletion', () => {
  it('holds objects with finalizers and removes them with the last finalizer', async () => {
    await req('POST', CMS, cm('fin', { finalizers: ['example.com/x'] }));
    const d = await req<KubeObject>('DELETE', `${CMS}/fin`);
    expect(d.status).toBe(200);
    expect(d.body.metadata.deletionTimestamp).toBeTruthy();
    const w = await openWatch(
      base,
      `${CMS}?watch=true&fieldSelector=metadata.name%3Dfin&resourceVersion=${d.body.metadata.resourceVersion}`,
    );
    await req(
      'PATCH',
      `${CMS}/fin`,
      { metadata: { finalizers: null } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const ev = await w.next();
    w.close();
    expect(ev?.type).toBe('DELETED');
    expect((ev?.object as KubeObject).metadata.finalizers).toEqual(['example.com/x']);
    expect((await req('GET', `${CMS}/fin`)).status).toBe(404);
  });

  it('cascades in the foreground through ownerReferences', async () => {
    const owner = await req<KubeObject>('POST', '/apis/apps/v1/namespaces/default/replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'owner' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } } } },
    });
    const ref = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'owner',
      uid: owner.body.metadata.uid,
      blockOwnerDeletion: true,
      controller: true,
    };
    await req('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'child', ownerReferences: [ref] },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    const w = await openWatch(
      base,
      `/apis/apps/v1/namespaces/default/replicasets?watch=true&resourceVersion=${server.store.resourceVersion}`,
    );
    const del = await req<KubeObject>('DELETE', '/apis/apps/v1/namespaces/default/replicasets/owner', {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Foreground',
    });
    expect(del.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    const types: string[] = [];
    for (;;) {
      const ev = await w.next();
      if (!ev) break;
      types.push(ev.type);
      if (ev.type === 'DELETED') break;
    }
    w.close();
    expect(types[types.length - 1]).toBe('DELETED');
    expect((await req('GET', '/api/v1/namespaces/default/pods/child')).status).toBe(404);
  });
});

describe('more verbs', () => {
  it('deletecollection removes what the selectors match and answers a list', async () => {
    for (const n of ['dc-a', 'dc-b', 'dc-c'])
      await req('POST', CMS, cm(n, { labels: { batch: n === 'dc-c' ? 'keep' : 'drop' } }));
    const r = await req<KubeList>('DELETE', `${CMS}?labelSelector=batch%3Ddrop`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('ConfigMapList');
    expect(r.body.items.map((o) => o.metadata.name)).toEqual(['dc-a', 'dc-b']);
    const left = await req<KubeList>('GET', `${CMS}?labelSelector=batch`);
    expect(left.body.items.map((o) => o.metadata.name)).toEqual(['dc-c']);
    expect((await req('DELETE', '/api/v1/configmaps')).status).toBe(405);
  });

  it('drops unknown fields of built-ins: warns by default, refuses under Strict', async () => {
    const body = { ...cm('fv'), spec: { nope: 1 }, metadata: { name: 'fv', bogus: true } };
    const strict = await req<KubeStatus>('POST', `${CMS}?fieldValidation=Strict`, body);
    expect([strict.status, strict.body.message]).toEqual([
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "spec"',
    ]);
    const warn = await req<KubeObject>('POST', CMS, body);
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe(
      '299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"spec\\""',
    );
    expect(warn.body).not.toHaveProperty('spec');
    const pod = await req<KubeObject>('POST', '/api/v1/namespaces/default/pods?fieldValidation=Ignore', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'fv-pod' },
      spec: {
        containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } }, typo: 1 }],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    });
    expect(pod.headers.get('warning')).toBeNull();
    const c = (pod.body.spec as { containers: Record<string, unknown>[]; volumes: unknown[] }).containers[0];
    expect(c).not.toHaveProperty('typo');
    expect(c).toMatchObject({ resources: { limits: { cpu: '1' } } });
    expect((pod.body.spec as { volumes: unknown[] }).volumes).toEqual([{ name: 'v', emptyDir: {} }]);
  });

  it('dryRun=All validates without storing', async () => {
    const rv = server.store.resourceVersion;
    const r = await req<KubeObject>('POST', `${CMS}?dryRun=All`, cm('dry'));
    expect(r.status).toBe(201);
    expect(r.body.metadata.resourceVersion).toBeUndefined();
    expect((await req('GET', `${CMS}/dry`)).status).toBe(404);
    expect(server.store.resourceVersion).toBe(rv);
    expect((await req('POST', `${CMS}?dryRun=Nope`, cm('dry'))).status).toBe(422);
  });

  it('serves the scale subresource of deployments', async () => {
    await req('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'scaled' },
      spec: { replicas: 1, selector: { matchLabels: { app: 's' } }, template: { metadata: { labels: { app: 's' } } } },
    });
    const scale = await req<KubeObject>('GET', '/apis/apps/v1/namespaces/default/deployments/scaled/scale');
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 1 },
      status: { replicas: 0, selector: 'app=s' },
    });
    const put = await req<KubeObject>('PUT', '/apis/apps/v1/namespaces/default/deployments/scaled/scale', {
      ...scale.body,
      spec: { replicas: 4 },
    });
    expect(put.body.spec).toEqual({ replicas: 4 });
    const patched = await req<KubeObject>(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/scaled/scale',
      { spec: { replicas: 2 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(patched.body.spec).toEqual({ replicas: 2 });
    const d = await req<KubeObject>('GET', '/apis/apps/v1/namespaces/default/deployments/scaled');
    expect([(d.body.spec as { replicas: number }).replicas, d.body.metadata.generation]).toEqual([2, 3]);
  });

  it('binds pods to nodes through pods/binding', async () => {
    await req('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bind-me' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'bind-me' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
    };
    const r = await req<KubeStatus>('POST', '/api/v1/namespaces/default/pods/bind-me/binding', binding);
    expect([r.status, r.body.status]).toEqual([201, 'Success']);
    const pod = await req<KubeObject>('GET', '/api/v1/namespaces/default/pods/bind-me');
    expect((pod.body.spec as { nodeName: string }).nodeName).toBe('node-1');
    expect((pod.body.status as { conditions: { type: string; status: string }[] }).conditions).toEqual([
      expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
    ]);
    const again = await req<KubeStatus>('POST', '/api/v1/namespaces/default/pods/bind-me/binding', binding);
    expect([again.status, again.body.reason]).toEqual([409, 'Conflict']);
  });

  it('answers 405 for verbs a path does not serve', async () => {
    const r = await req<KubeStatus>('POST', '/api/v1/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } });
    expect([r.status, r.body.reason]).toEqual([405, 'MethodNotAllowed']);
  });
});

describe('CustomResourceDefinitions', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gd'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { size: { type: 'integer', default: 1 }, color: { type: 'string' } },
                },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  };
  const GD = '/apis/example.com/v1/namespaces/default/gadgets';

  it('serves the new resource, updates discovery, and removes both on delete', async () => {
    const created = await req<KubeObject>('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    expect(created.status).toBe(201);
    expect((created.body.status as { conditions: { type: string; status: string }[] }).conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Established', status: 'True' })]),
    );
    const disc = await req<{ resources: { name: string }[] }>('GET', '/apis/example.com/v1');
    expect(disc.body.resources.map((r) => r.name)).toEqual(['gadgets', 'gadgets/status']);

    const g = await req<KubeObject>('POST', GD, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g1' },
      spec: { color: 'red', unknown: true },
      status: { ok: true },
    });
    expect(g.status).toBe(201);
    expect(g.body.spec).toEqual({ color: 'red', size: 1 });
    expect(g.body.status).toBeUndefined();
    expect(g.body.metadata.generation).toBe(1);
    const wrongType = await req<KubeStatus>('POST', GD, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g2' },
      spec: { size: 'big' },
    });
    expect([wrongType.status, wrongType.body.message]).toEqual([
      422,
      'Gadget.example.com "g2" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    ]);
    const list = await req<KubeList>('GET', GD);
    expect(list.body.items[0]).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Gadget' });

    const smp = await req<KubeStatus>(
      'PATCH',
      `${GD}/g1`,
      { spec: { size: 2 } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect([smp.status, smp.body.message]).toEqual([
      415,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
    ]);
    const { resourceVersion: _rv, ...metaNoRv } = g.body.metadata;
    const unconditional = await req<KubeStatus>('PUT', `${GD}/g1`, { ...g.body, metadata: metaNoRv });
    expect([unconditional.status, unconditional.body.reason]).toEqual([422, 'Invalid']);
    const status = await req<KubeObject>('PUT', `${GD}/g1/status`, {
      ...g.body,
      spec: { size: 9 },
      status: { ready: true },
    });
    expect(status.body.status).toEqual({ ready: true });
    expect(status.body.spec).toEqual({ color: 'red', size: 1 });
    expect(status.body.metadata.generation).toBe(1);
    const merged = await req<KubeObject>(
      'PATCH',
      `${GD}/g1`,
      { spec: { size: 3 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merged.body.metadata.generation).toBe(2);

    const w = await openWatch(base, `${GD}?watch=true&resourceVersion=${merged.body.metadata.resourceVersion}`);
    await req('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com');
    const ev = await w.next();
    expect(ev?.type).toBe('DELETED');
    expect(await w.next()).toBeUndefined();
    for (let i = 0; i < 50 && (await req('GET', '/apis/example.com/v1')).status !== 404; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await req('GET', '/apis/example.com/v1')).status).toBe(404);
    expect((await req('GET', GD)).status).toBe(404);
  });
});

describe('faults', () => {
  it('fails a fraction of a verb with the chosen code and clears', async () => {
    server.faults.setFailureRate('list', 1, 503);
    const r = await req<KubeStatus>('GET', CMS);
    expect([r.status, r.body.reason, r.headers.get('retry-after')]).toEqual([503, 'ServiceUnavailable', '1']);
    expect((await req('GET', `${CMS}/tabled`)).status).toBe(200);
    server.faults.clear();
    expect((await req('GET', CMS)).status).toBe(200);
  });

  it('adds latency without failing requests', async () => {
    server.faults.setLatency('get', 50);
    expect((await req('GET', `${CMS}/tabled`)).status).toBe(200);
    server.faults.clear();
  });

  it('closeAllWatches ends open streams', async () => {
    const w = await openWatch(base, `${CMS}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    expect(server.faults.closeAllWatches()).toBeGreaterThan(0);
    expect(await w.next()).toBeUndefined();
  });
});
