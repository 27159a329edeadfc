// @kubernetes/client-node 1.x against the sandbox: typed CoreV1Api calls, KubernetesObjectApi (legacy
// per-group-version discovery, strategic merge by default), the ListWatch informer and Watch.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from './server';

let server: SandboxServer;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  server = new SandboxServer({});
  await server.start();
  kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig());
});

afterAll(async () => {
  await server.stop();
});

describe('client-node against the sandbox', () => {
  it('creates and lists with the typed CoreV1Api, and maps errors to ApiException codes', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'typed' }, data: { a: '1' } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((i) => i.metadata?.name)).toContain('typed');
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' })).rejects.toMatchObject({
      code: 404,
    });
    await expect(
      core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'typed' } } }),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('KubernetesObjectApi resolves kinds through discovery and patches', async () => {
    const client = k8s.KubernetesObjectApi.makeApiClient(kc);
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'obj-api', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
      },
    };
    await client.create(dep);
    const patched = await client.patch({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'obj-api', namespace: 'default' },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'i:2' }] } } },
    });
    expect((patched as k8s.V1Deployment).metadata?.generation).toBe(2);
    const read = await client.read({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'obj-api', namespace: 'default' },
    });
    expect(JSON.stringify(read)).toContain('i:2');
    const merged = await client.patch(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'obj-api', namespace: 'default', labels: { l: 'v' } },
      },
      undefined,
      undefined,
      undefined,
      undefined,
      k8s.PatchStrategy.MergePatch,
    );
    expect(merged.metadata?.labels).toEqual({ l: 'v' });
  });

  it('the ListWatch informer sees adds, updates and deletes, re-watches closed streams and relists on 410', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const events: string[] = [];
    const waitFor = (want: string) =>
      new Promise<void>((resolve) => {
        const check = (): void => (events.includes(want) ? resolve() : void setTimeout(check, 10));
        check();
      });
    informer.on('add', (o) => events.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => events.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
    await informer.start();
    await waitFor('add typed');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf' } } });
    await waitFor('add inf');
    await core.patchNamespacedConfigMap(
      { namespace: 'default', name: 'inf', body: { data: { x: 'y' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await waitFor('update inf');
    // A closed stream makes the informer re-watch from its last resourceVersion without losing changes.
    server.faults.closeAllWatches();
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'inf' });
    await waitFor('delete inf');
    expect(informer.get('inf', 'default')).toBeUndefined();
    // Its resourceVersion is now compacted away: the re-watch gets 410 and the informer lists again.
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'bump' } } });
    server.faults.compactNow();
    server.faults.closeAllWatches();
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after-compaction' } } });
    await waitFor('add after-compaction');
    expect(informer.list('default').map((o) => o.metadata?.name)).toEqual(
      expect.arrayContaining(['typed', 'after-compaction']),
    );
    await informer.stop();
  });

  it('Watch streams events for a path', async () => {
    const watch = new k8s.Watch(kc);
    const seen: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const req = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: server.store.resourceVersion },
      (type, obj: k8s.V1ConfigMap) => {
        seen.push(`${type} ${obj.metadata?.name}`);
        if (seen.length === 1) done();
      },
      () => {},
    );
    await server.store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'watched', namespace: 'default' },
    });
    await finished;
    req.abort();
    expect(seen).toEqual(['ADDED watched']);
  });
});
