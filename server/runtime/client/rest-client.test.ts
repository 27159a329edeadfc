// The REST client against a small in-test API server: the wire requests each verb sends (method, path,
// query, content type, body), the mapper-driven paths and scope checks, status subresource, and probes.
import type http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ApiError, isConflict, isNotFound } from '../util/errors';
import { HttpClient } from './http';
import { applyPatch, createMergePatch, mergeFrom, rawPatch } from './patch';
import { newAPIReader, newRestClient, normalizeType, RestClient } from './rest-client';
import type { RecordedRequest, TestServer } from '../testing/test-server';
import { configFor, sendJson, startTestServer, status } from '../testing/test-server';

const discovery: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/apis': { kind: 'APIGroupList', groups: [] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list'] },
      { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get'] },
      { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'update', 'patch'] },
      { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['get'] },
    ],
  },
};

let server: TestServer;
let store: Map<string, KubeObject>;
let rv: number;

/** Stores objects by path; enough of the API to check what the client sends and decodes. */
function handler(req: RecordedRequest, res: http.ServerResponse): void {
  const disc = discovery[req.path];
  if (disc) return sendJson(res, 200, disc);
  const parts = req.path.split('/').filter(Boolean); // api v1 [namespaces ns] resource [name] [sub]
  const rest = parts.slice(2);
  const ns = rest[0] === 'namespaces' && rest.length > 2 ? rest[1] : undefined;
  const [resource, name, sub] = ns ? rest.slice(2) : rest;
  const key = `${ns ?? ''}/${resource}/${name ?? ''}`;
  const body = req.body ? (JSON.parse(req.body) as KubeObject) : undefined;
  if (req.method === 'GET' && name) {
    const obj = store.get(key);
    return obj
      ? sendJson(res, 200, obj)
      : sendJson(res, 404, status(404, 'NotFound', `${resource} "${name}" not found`));
  }
  if (req.method === 'GET') {
    const items = [...store.entries()].filter(
      ([k]) => k.startsWith(ns ? `${ns}/${resource}/` : '') && k.includes(`/${resource}/`),
    );
    return sendJson(res, 200, {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(rv) },
      items: items.map(([, o]) => ({ ...o, kind: undefined, apiVersion: undefined })),
    });
  }
  if (req.method === 'POST') {
    const k = `${ns ?? ''}/${resource}/${body!.metadata.name}`;
    if (store.has(k))
      return sendJson(res, 409, status(409, 'AlreadyExists', `${resource} "${body!.metadata.name}" already exists`));
    const obj = { ...body!, metadata: { ...body!.metadata, resourceVersion: String(++rv), uid: `uid-${rv}` } };
    store.set(k, obj);
    return sendJson(res, 201, obj);
  }
  if (req.method === 'PUT') {
    const cur = store.get(key);
    if (!cur) return sendJson(res, 404, status(404, 'NotFound', `${resource} "${name}" not found`));
    if (body!.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      return sendJson(
        res,
        409,
        status(
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        ),
      );
    }
    const next = sub === 'status' ? { ...cur, status: body!.status } : { ...body!, status: cur.status };
    next.metadata = { ...next.metadata, resourceVersion: String(++rv) };
    store.set(key, next);
    return sendJson(res, 200, next);
  }
  if (req.method === 'PATCH') {
    const cur = store.get(key);
    if (!cur) return sendJson(res, 404, status(404, 'NotFound', `${resource} "${name}" not found`));
    const next = {
      ...cur,
      ...(body as object),
      metadata: { ...cur.metadata, resourceVersion: String(++rv) },
    } as KubeObject;
    store.set(key, next);
    return sendJson(res, 200, next);
  }
  if (req.method === 'DELETE') {
    if (name) {
      store.delete(key);
      return sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
    }
    return sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] });
  }
  sendJson(res, 405, status(405, 'MethodNotAllowed', 'nope'));
}

beforeEach(async () => {
  store = new Map();
  rv = 100;
  server = await startTestServer(handler);
});
afterEach(() => server.close());

function client(
  extra: { probe?: RecordingProbe; clock?: FakeClock; fieldOwner?: string; dryRun?: boolean } = {},
): RestClient {
  return new RestClient({ http: new HttpClient({ config: configFor(server) }), ...extra });
}

function cm(name: string, data: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

const writes = (): RecordedRequest[] => server.requests.filter((r) => !(r.path in discovery));

describe('RestClient', () => {
  it('create, get, list: paths from the mapper, GVK restored on typed lists', async () => {
    const c = client({ fieldOwner: 'scope' });
    const created = await c.create(cm('a', { k: 'v' }));
    expect(created.metadata.resourceVersion).toBe('101');
    expect(writes()[0]).toMatchObject({ method: 'POST', path: '/api/v1/namespaces/default/configmaps' });
    expect(writes()[0]!.query.get('fieldManager')).toBe('scope');
    const got = await c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: 'a' });
    expect(got.data).toEqual({ k: 'v' });
    const list = await c.list(
      { group: '', version: 'v1', kind: 'ConfigMapList' },
      { namespace: 'default', labelSelector: 'x=y' },
    );
    expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(writes()[2]!.query.get('labelSelector')).toBe('x=y');
  });

  it('get of a missing object is NotFound; a stale update is a Conflict', async () => {
    const c = client();
    await expect(
      c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: 'zzz' }),
    ).rejects.toSatisfy(isNotFound);
    const a = await c.create(cm('a'));
    await c.update({ ...a, data: { x: '1' } });
    await expect(c.update({ ...a, data: { x: '2' } })).rejects.toSatisfy(isConflict);
  });

  it('patch sends the right content type for each patch type', async () => {
    const c = client({ fieldOwner: 'scope' });
    const a = await c.create(cm('a', { k: 'v' }));
    const modified = { ...a, data: { k: 'w' } };
    await c.patch(modified, mergeFrom(a));
    await c.patch(a, rawPatch('json', [{ op: 'add', path: '/data/z', value: '1' }]));
    await c.patch(a, rawPatch('strategic', { data: { s: '1' } }));
    await c.patch(cm('a', { k: 'applied' }), applyPatch, { force: true });
    const patches = writes().filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.headers['content-type'])).toEqual([
      'application/merge-patch+json',
      'application/json-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(JSON.parse(patches[0]!.body)).toEqual({ data: { k: 'w' } });
    expect(patches[3]!.query.get('force')).toBe('true');
    expect(patches[3]!.query.get('fieldManager')).toBe('scope');
  });

  it('server-side apply without a field manager is refused before sending', async () => {
    await expect(client().patch(cm('a'), applyPatch)).rejects.toThrow('fieldManager');
  });

  it('delete sends DeleteOptions with propagation policy and preconditions', async () => {
    const c = client();
    const a = await c.create(cm('a'));
    await c.delete(a, {
      propagationPolicy: 'Foreground',
      preconditions: { uid: a.metadata.uid },
      gracePeriodSeconds: 0,
    });
    const del = writes().find((r) => r.method === 'DELETE')!;
    expect(del.path).toBe('/api/v1/namespaces/default/configmaps/a');
    expect(JSON.parse(del.body)).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Foreground',
      preconditions: { uid: a.metadata.uid },
      gracePeriodSeconds: 0,
    });
  });

  it('deleteAllOf deletes the collection with selectors and dryRun', async () => {
    await client({ dryRun: true }).deleteAllOf(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { namespace: 'ns1', labelSelector: 'app=x' },
    );
    const del = writes()[0]!;
    expect(del).toMatchObject({ method: 'DELETE', path: '/api/v1/namespaces/ns1/configmaps' });
    expect(del.query.get('labelSelector')).toBe('app=x');
    expect(JSON.parse(del.body)).toMatchObject({ dryRun: ['All'] });
  });

  it('status().update and status().patch go to the status subresource', async () => {
    const c = client();
    const p = await c.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: {},
    });
    const updated = await c.status().update({ ...p, status: { phase: 'Running' } });
    expect(updated.status).toEqual({ phase: 'Running' });
    await c.status().patch(updated, rawPatch('merge', { status: { phase: 'Succeeded' } }));
    expect(
      writes()
        .slice(1)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['PUT /api/v1/namespaces/default/pods/p/status', 'PATCH /api/v1/namespaces/default/pods/p/status']);
  });

  it('cluster-scoped kinds drop the namespace; namespaced kinds require one', async () => {
    const c = client();
    await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', namespace: 'ignored' } });
    expect(writes()[0]!.path).toBe('/api/v1/namespaces');
    const err = await c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { name: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toContain('ConfigMap "a" is namespaced');
  });

  it('an unknown kind fails with the mapper error', async () => {
    await expect(client().get({ apiVersion: 'example.com/v1', kind: 'Widget' }, { name: 'w' })).rejects.toThrow(
      'no matches for kind "Widget"',
    );
  });

  it('emits client.request events (cached=false) with durations from the clock, only when enabled', async () => {
    const probe = new RecordingProbe();
    const c = client({ probe, clock: new FakeClock() });
    await c.create(cm('a'));
    await c
      .get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: 'missing' })
      .catch(() => undefined);
    const events = probe.events.filter((e) => e.kind === 'client.request');
    expect(events).toEqual([
      {
        kind: 'client.request',
        controller: undefined,
        verb: 'create',
        // The uid and resourceVersion the write produced, so the dashboard can match its watch event exactly.
        ref: { gvk: 'v1/ConfigMap', namespace: 'default', name: 'a', resourceVersion: '101', uid: 'uid-101' },
        cached: false,
        durationMs: 0,
      },
      expect.objectContaining({ verb: 'get', code: 404, error: 'configmaps "missing" not found' }),
    ]);
  });

  it('newRestClient wires an HttpClient and a lazy mapper from a RestConfig', async () => {
    const c = newRestClient(configFor(server));
    expect(server.requests).toEqual([]);
    await c.create(cm('wired'));
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api',
      '/apis',
      '/api/v1',
      '/api/v1/namespaces/default/configmaps',
    ]);
  });

  it('the API reader only reads', async () => {
    const reader = newAPIReader({ http: new HttpClient({ config: configFor(server) }) });
    expect(Object.keys(reader).sort()).toEqual(['get', 'list']);
    expect((await reader.list({ apiVersion: 'v1', kind: 'ConfigMap' })).items).toEqual([]);
  });
});

describe('patch helpers', () => {
  it('createMergePatch: changed, added, removed (null) and nested fields only', () => {
    expect(createMergePatch({ a: 1, b: { c: 1, d: 2 }, e: [1] }, { a: 1, b: { c: 2, d: 2 }, f: 'x' })).toEqual({
      b: { c: 2 },
      f: 'x',
      e: null,
    });
    expect(createMergePatch({ a: [1, 2] }, { a: [1, 3] })).toEqual({ a: [1, 3] });
    expect(createMergePatch({ a: 1 }, { a: 1 })).toEqual({});
  });

  it('mergeFrom snapshots the original and can add an optimistic lock', () => {
    const orig = cm('a', { k: 'v' });
    orig.metadata.resourceVersion = '7';
    const patch = mergeFrom(orig, { optimisticLock: true });
    orig.data = { k: 'changed-after-snapshot' };
    expect(patch.data({ ...cm('a', { k: 'w' }), metadata: { ...orig.metadata } })).toEqual({
      data: { k: 'w' },
      metadata: { resourceVersion: '7' },
    });
  });

  it('normalizeType strips List from list kinds only', () => {
    expect(normalizeType({ apiVersion: 'apps/v1', kind: 'DeploymentList' }, true)).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(normalizeType({ apiVersion: 'v1', kind: 'List' }, true).kind).toBe('List');
  });
});
