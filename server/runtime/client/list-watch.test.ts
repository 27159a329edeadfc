// ListWatch over real HTTP: list parameters and pagination (tools/pager pager_test scenarios), watch
// parameters, bookmark and ERROR events, undecodable lines, HTTP errors before the stream, stop and abort.
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import { ApiError, isResourceExpired } from '../util/errors';
import { HttpClient } from './http';
import type { ListerWatcher, ListOptions, WatchStream } from './lister-watcher';
import { decodeWatchLine, newListWatchForGVK, newListWatchFromClient } from './list-watch';
import { ListPager } from './pager';
import type { RecordedRequest, TestServer } from '../testing/test-server';
import { configFor, sendJson, startTestServer, status } from '../testing/test-server';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function lw(
  handler: (req: RecordedRequest, res: http.ServerResponse) => void,
  extra: { namespace?: string; labelSelector?: string } = {},
): Promise<{ lw: ListerWatcher; server: TestServer }> {
  const server = await startTestServer(handler);
  servers.push(server);
  return {
    lw: newListWatchFromClient({ http: new HttpClient({ config: configFor(server) }), gvr: PODS, ...extra }),
    server,
  };
}

function pod(name: string, rv: string): KubeObject {
  return { metadata: { name, namespace: 'default', resourceVersion: rv } };
}

function podList(items: KubeObject[], rv: string, cont?: string): KubeList {
  return { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: rv, continue: cont }, items };
}

function line(ev: WatchEvent | string): string {
  return `${typeof ev === 'string' ? ev : JSON.stringify(ev)}\n`;
}

async function collect(stream: WatchStream): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

describe('ListWatch.list', () => {
  it('lists a namespace with selectors and fills in item apiVersion/kind', async () => {
    const { lw: l, server } = await lw((_req, res) => sendJson(res, 200, podList([pod('a', '5')], '10')), {
      namespace: 'default',
      labelSelector: 'app=x',
    });
    const list = await l.list({ resourceVersion: '0', limit: 500 });
    expect(list.metadata.resourceVersion).toBe('10');
    expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } });
    const r = server.requests[0]!;
    expect(r.path).toBe('/api/v1/namespaces/default/pods');
    expect(Object.fromEntries(r.query)).toEqual({ labelSelector: 'app=x', resourceVersion: '0', limit: '500' });
  });

  it('caller selectors override the configured ones; all namespaces uses the cluster path', async () => {
    const { lw: l, server } = await lw((_req, res) => sendJson(res, 200, podList([], '1')), { labelSelector: 'app=x' });
    await l.list({ labelSelector: 'app=y', fieldSelector: 'metadata.name=a' });
    expect(server.requests[0]!.path).toBe('/api/v1/pods');
    expect(server.requests[0]!.query.get('labelSelector')).toBe('app=y');
    expect(server.requests[0]!.query.get('fieldSelector')).toBe('metadata.name=a');
  });

  it('rejects with ApiError from the Status body', async () => {
    const { lw: l } = await lw((_req, res) =>
      sendJson(res, 410, status(410, 'Expired', 'The resourceVersion for the provided list is too old.')),
    );
    await expect(l.list({})).rejects.toSatisfy((e: unknown) => isResourceExpired(e));
  });
});

describe('ListPager over ListWatch', () => {
  function pagedServer(pages: KubeObject[][], expireAt?: number) {
    return (req: RecordedRequest, res: http.ServerResponse): void => {
      if (req.query.get('limit') === null) return sendJson(res, 200, podList(pages.flat(), '99'));
      const i = Number(req.query.get('continue') ?? '0');
      if (expireAt !== undefined && i === expireAt) {
        return sendJson(res, 410, status(410, 'Expired', 'The provided continue parameter is too old'));
      }
      sendJson(res, 200, podList(pages[i]!, String(50 + i), i + 1 < pages.length ? String(i + 1) : undefined));
    };
  }

  it('follows continue tokens and joins the pages', async () => {
    const { lw: l, server } = await lw(pagedServer([[pod('a', '1'), pod('b', '2')], [pod('c', '3')], [pod('d', '4')]]));
    const { list, paginatedResult } = await new ListPager({ lister: l, pageSize: 2 }).list({ resourceVersion: '0' });
    expect(paginatedResult).toBe(true);
    expect(list.items.map((p) => p.metadata.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(list.metadata.resourceVersion).toBe('52');
    expect(list.metadata.continue).toBeUndefined();
    expect(server.requests.map((r) => Object.fromEntries(r.query))).toEqual([
      { resourceVersion: '0', limit: '2' },
      { limit: '2', continue: '1' },
      { limit: '2', continue: '2' },
    ]);
  });

  it('a single page is returned as is', async () => {
    const { lw: l } = await lw(pagedServer([[pod('a', '1')]]));
    const r = await new ListPager({ lister: l }).list({});
    expect(r.paginatedResult).toBe(false);
    expect(r.list.items).toHaveLength(1);
  });

  it('an expired continuation falls back once to a full list', async () => {
    const { lw: l, server } = await lw(pagedServer([[pod('a', '1')], [pod('b', '2')]], 1));
    const r = await new ListPager({ lister: l, pageSize: 1 }).list({ resourceVersion: '7' });
    expect(r.list.items.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(Object.fromEntries(server.requests[2]!.query)).toEqual({ resourceVersion: '7' });
  });

  it('an error on the first page is returned as is, and fullListIfExpired=false keeps the 410', async () => {
    const { lw: first } = await lw(pagedServer([[pod('a', '1')]], 0));
    await expect(new ListPager({ lister: first, pageSize: 1 }).list({})).rejects.toBeInstanceOf(ApiError);
    const { lw: later } = await lw(pagedServer([[pod('a', '1')], [pod('b', '2')]], 1));
    await expect(new ListPager({ lister: later, pageSize: 1, fullListIfExpired: false }).list({})).rejects.toSatisfy(
      (e: unknown) => isResourceExpired(e),
    );
  });
});

describe('ListWatch.watch', () => {
  const bookmark: WatchEvent = {
    type: 'BOOKMARK',
    object: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: '12', annotations: { 'k8s.io/initial-events-end': 'true' } },
    },
  };
  const expired: KubeStatus = status(410, 'Expired', 'too old resource version: 1 (12)');

  it('sends the watch parameters and yields events, bookmarks and the ERROR Status, then ends', async () => {
    const { lw: l, server } = await lw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(line({ type: 'ADDED', object: pod('a', '11') }));
      // One event split across two chunks.
      const split = line({ type: 'MODIFIED', object: pod('a', '12') });
      res.write(split.slice(0, 10));
      res.write(split.slice(10) + '\n');
      res.write(line(bookmark));
      res.end(line({ type: 'ERROR', object: expired }));
    });
    const opts: ListOptions = { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 300 };
    const events = await collect(await l.watch(opts));
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'BOOKMARK', 'ERROR']);
    expect(events[1]!.object.metadata).toMatchObject({ resourceVersion: '12' });
    expect(events[3]!.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(Object.fromEntries(server.requests[0]!.query)).toEqual({
      watch: 'true',
      resourceVersion: '10',
      timeoutSeconds: '300',
      allowWatchBookmarks: 'true',
    });
  });

  it('a malformed line ends the stream with an ERROR event that says why, and closes the connection', async () => {
    let closed = false;
    const { lw: l } = await lw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(line({ type: 'ADDED', object: pod('a', '11') }));
      res.write(line('{"type":"MODIFIED","object":{'));
      res.write(line({ type: 'ADDED', object: pod('never', '13') }));
      res.on('close', () => (closed = true));
    });
    const events = await collect(await l.watch({}));
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ERROR']);
    const st = events[1]!.object as KubeStatus;
    expect(st).toMatchObject({ kind: 'Status', code: 500, reason: 'InternalError' });
    expect(st.message).toContain('unable to decode an event from the watch stream');
    // Described, not quoted: a watch line may carry a Secret's data.
    expect(st.message).toContain('characters that is not valid JSON');
    expect(st.message).not.toContain('MODIFIED');
    await expect.poll(() => closed).toBe(true);
  });

  it('an unknown event type or a missing object is a decode error', () => {
    expect(decodeWatchLine('{"type":"SOMETHING","object":{}}')).toEqual({
      error: 'unknown watch event type "SOMETHING"',
    });
    expect(decodeWatchLine('{"type":"ADDED"}')).toEqual({ error: 'watch event ADDED has no object' });
    expect(decodeWatchLine('[1]')).toMatchObject({ error: expect.stringContaining('expected a JSON object') });
  });

  it('an HTTP error before the stream rejects watch() with ApiError', async () => {
    const { lw: l } = await lw((_req, res) => sendJson(res, 410, status(410, 'Gone', 'too old')));
    await expect(l.watch({ resourceVersion: '1' })).rejects.toSatisfy((e: unknown) => isResourceExpired(e));
  });

  it('stop() ends the iteration without an error and closes the connection', async () => {
    let closed = false;
    const { lw: l } = await lw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(line({ type: 'ADDED', object: pod('a', '11') }));
      res.on('close', () => (closed = true));
    });
    const stream = await l.watch({});
    const seen: string[] = [];
    for await (const ev of stream) {
      seen.push(ev.type);
      stream.stop();
    }
    expect(seen).toEqual(['ADDED']);
    await expect.poll(() => closed).toBe(true);
  });

  it('aborting the signal ends an idle stream', async () => {
    const { lw: l } = await lw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
    });
    const ac = new AbortController();
    const stream = await l.watch({}, ac.signal);
    const done = collect(stream);
    await new Promise((r) => setImmediate(r));
    ac.abort();
    expect(await done).toEqual([]);
  });

  it('a connection dropped mid-stream surfaces as ApiError code 0', async () => {
    const { lw: l } = await lw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(line({ type: 'ADDED', object: pod('a', '11') }));
      setImmediate(() => res.socket?.destroy());
    });
    const stream = await l.watch({});
    const seen: string[] = [];
    const err = await (async () => {
      try {
        for await (const ev of stream) seen.push(ev.type);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(seen).toEqual(['ADDED']);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(0);
  });
});

describe('newListWatchForGVK', () => {
  const mapper = {
    restMapping: async (gk: { group: string; kind: string }, version?: string) => ({
      gvk: { group: gk.group, version: version ?? 'v1', kind: gk.kind },
      resource: { group: gk.group, version: version ?? 'v1', resource: `${gk.kind.toLowerCase()}s` },
      scope: gk.kind === 'Node' ? ('root' as const) : ('namespace' as const),
      verbs: [],
    }),
  };

  it('maps the kind to its resource; a namespace is kept for namespaced kinds and dropped for cluster-scoped ones', async () => {
    const server = await startTestServer((_req, res) => sendJson(res, 200, podList([], '1')));
    servers.push(server);
    const http = new HttpClient({ config: configFor(server) });
    const pods = await newListWatchForGVK({
      http,
      mapper,
      gvk: { group: '', version: 'v1', kind: 'Pod' },
      namespace: 'ns1',
    });
    const nodes = await newListWatchForGVK({
      http,
      mapper,
      gvk: { group: '', version: 'v1', kind: 'Node' },
      namespace: 'ns1',
    });
    await pods.list({});
    await nodes.list({});
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/namespaces/ns1/pods', '/api/v1/nodes']);
  });
});
