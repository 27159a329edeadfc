// The client stack against the embedded sandbox over real HTTP, reached through the kubeconfig the sandbox
// writes: connect + probe, discovery-driven REST client, paginated list, and a watch from a list's RV.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../shared/models/object';
import { ListPager, mergeFrom, newListWatchFromClient, RestClient } from '../runtime/client';
import { tmpDir } from '../runtime/testing/test-server';
import { isAlreadyExists, isConflict, isNotFound } from '../runtime';
import { connectCluster } from './kubeconfig';
import type { ClusterConnection } from './kubeconfig';
import { SandboxServer } from './sandbox';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
let sandbox: SandboxServer;
let dir: string;
let conn: ClusterConnection;

beforeAll(async () => {
  sandbox = new SandboxServer();
  await sandbox.start();
  dir = tmpDir('sandbox-kubeconfig-');
  const file = path.join(dir, 'config');
  await sandbox.writeKubeconfig(file, { name: 'sandbox', namespace: 'default' });
  conn = await connectCluster({ kubeconfig: file, env: {}, access: [{ gvr: CONFIGMAPS, kind: 'ConfigMap' }] });
});

afterAll(async () => {
  conn?.http.close();
  await sandbox?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function cm(name: string, data: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', labels: { suite: 'client' } },
    data,
  };
}

describe('client stack against the sandbox', () => {
  it('connects through the sandbox kubeconfig and finds list/watch allowed', () => {
    expect(conn.config.contextName).toBe('sandbox');
    expect(conn.version.gitVersion).toBeTruthy();
    expect(conn.access[0]!.missing).toEqual([]);
    expect(conn.access[0]!.allowed).toEqual(expect.arrayContaining(['list', 'watch']));
  });

  it('CRUD through the REST client with reasons the helpers recognise', async () => {
    const c = new RestClient({ http: conn.http, fieldOwner: 'client-suite' });
    const a = await c.create(cm('crud-a', { k: 'v' }));
    expect(a.metadata.uid).toBeTruthy();
    await expect(c.create(cm('crud-a'))).rejects.toSatisfy(isAlreadyExists);
    const b = await c.update({ ...a, data: { k: 'w' } });
    await expect(c.update({ ...a, data: { k: 'stale' } })).rejects.toSatisfy(isConflict);
    const patched = await c.patch({ ...b, data: { k: 'x' } }, mergeFrom(b));
    expect(patched.data).toEqual({ k: 'x' });
    await c.delete(patched);
    await expect(
      c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: 'crud-a' }),
    ).rejects.toSatisfy(isNotFound);
  });

  it('pages a list and watches from its resourceVersion', async () => {
    const c = new RestClient({ http: conn.http });
    for (let i = 0; i < 5; i++) await c.create(cm(`page-${i}`));
    const lw = newListWatchFromClient({
      http: conn.http,
      gvr: CONFIGMAPS,
      namespace: 'default',
      labelSelector: 'suite=client',
    });
    const { list, paginatedResult } = await new ListPager({ lister: lw, pageSize: 2 }).list({});
    expect(paginatedResult).toBe(true);
    expect(list.items.map((o) => o.metadata.name)).toEqual(expect.arrayContaining(['page-0', 'page-4']));
    expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });

    const stream = await lw.watch({
      resourceVersion: list.metadata.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: 30,
    });
    await c.create(cm('after-list'));
    const seen: WatchEvent[] = [];
    for await (const ev of stream) {
      seen.push(ev);
      if (ev.type === 'ADDED') stream.stop();
    }
    expect(seen.at(-1)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-list' } } });
  });
});
