// Metadata-only watches end to end (controller-runtime's OnlyMetadata / PartialObjectMetadata): the cache's
// metadata informer asks the sandbox for meta.k8s.io PartialObjectMetadata(List), keeps objects that carry
// only metadata, named with the kind they stand for, apart from the kind's full informer; a controller
// built with onlyMetadata reconciles from it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import {
  getConfig,
  newControllerManagedBy,
  newManager,
  onlyMetadata,
  partialObjectMetadata,
  reconcileFunc,
  requestKey,
  type KubeObject,
  type Manager,
} from '../../server/runtime';
import { eventually } from './support/manager-suite';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

describe('metadata-only watches against the sandbox', () => {
  let sandbox: SandboxServer | undefined;
  let dir: string | undefined;
  let mgr: Manager;
  let run: Promise<void> | undefined;
  const ac = new AbortController();
  const reconciled: string[] = [];

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'meta-sandbox-'));
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    mgr = newManager(getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [] }), {
      gracefulShutdownTimeoutMs: 5_000,
      leaderElection: false,
    });
    await newControllerManagedBy(mgr)
      .named('configmap-metadata')
      .for(ConfigMap, onlyMetadata)
      .complete(
        reconcileFunc(async (_ctx, req) => {
          reconciled.push(requestKey(req));
        }),
      );
    run = mgr.start(ac.signal);
  }, 30_000);

  afterAll(async () => {
    ac.abort();
    await run;
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reconciles from a metadata informer whose objects carry metadata only, named as the kind', async () => {
    const client = mgr.getClient();
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'meta-only' } });
    await client.create({
      ...ConfigMap,
      metadata: { namespace: 'meta-only', name: 'cm1', labels: { a: 'b' } },
      data: { k: 'v' },
    });
    await eventually(() => reconciled.includes('meta-only/cm1'), 'a reconcile of meta-only/cm1');

    const cache = mgr.getCache();
    expect(cache.kinds()).toContain('v1/ConfigMap#metadata');
    expect(cache.kinds()).not.toContain('v1/ConfigMap');
    const meta = await client.list<KubeObject>(partialObjectMetadata(ConfigMap), { namespace: 'meta-only' });
    expect(meta.items).toHaveLength(1);
    const item = meta.items[0] as KubeObject & { data?: unknown };
    expect(item.apiVersion).toBe('v1');
    expect(item.kind).toBe('ConfigMap');
    expect(item.metadata.labels).toEqual({ a: 'b' });
    expect(item.data).toBeUndefined();
    const got = await client.get<KubeObject & { data?: unknown }>(partialObjectMetadata(ConfigMap), {
      namespace: 'meta-only',
      name: 'cm1',
    });
    expect(got.metadata.name).toBe('cm1');
    expect(got.data).toBeUndefined();

    // The full kind is another informer, with the data.
    const full = await client.get<KubeObject & { data?: unknown }>(ConfigMap, { namespace: 'meta-only', name: 'cm1' });
    expect(full.data).toEqual({ k: 'v' });
    expect(cache.kinds()).toContain('v1/ConfigMap');
  });

  it('sees later changes through the metadata watch', async () => {
    const client = mgr.getClient();
    await client.create({ ...ConfigMap, metadata: { namespace: 'meta-only', name: 'cm2' }, data: { x: 'y' } });
    await eventually(() => reconciled.includes('meta-only/cm2'), 'a reconcile of meta-only/cm2');
    await eventually(async () => {
      const l = await client.list<KubeObject>(partialObjectMetadata(ConfigMap), { namespace: 'meta-only' });
      return l.items.length === 2 && l.items.every((i) => !('data' in i));
    }, 'both config maps in the metadata informer, without data');
  });
});
