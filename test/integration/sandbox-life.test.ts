// The sandbox's own Deployment and ReplicaSet controllers (written with our runtime), the node simulator and
// the workload generator together: a Deployment ends with ready pods it owns through a ReplicaSet, scaling
// follows, and deleting the Deployment cascades through the garbage collector.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { SandboxServer } from '../../server/cluster/sandbox';
import { startClusterLife, type ClusterLife } from '../../server/cluster/sandbox/life';
import { getConfig } from '../../server/runtime/client/config';

const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;

async function eventually(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const status = (o: KubeObject | undefined) => (o?.status ?? {}) as Record<string, number | undefined>;

describe('sandbox life', () => {
  let sandbox: SandboxServer;
  let life: ClusterLife;
  let dir: string;

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'sandbox-life-'));
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    life = await startClusterLife({
      config: getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [] }),
      store: sandbox.store,
      workload: { paused: true },
      nodes: { scheduleDelayMs: 20, startDelayMs: 20, readyDelayMs: 20, terminateDelayMs: 20 },
    });
  }, 30_000);

  afterAll(async () => {
    await life?.stop();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('brings the seeded deployments up with ready pods owned through a ReplicaSet', async () => {
    const store = sandbox.store;
    await eventually(() => status(store.get(DEPLOY, 'web', 'demo')).readyReplicas === 3, 'web has 3 ready replicas');
    const rs = store.list(RS, { namespace: 'demo', labelSelector: 'app=web' });
    expect(rs).toHaveLength(1);
    expect(rs[0]?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true });
    const pods = store.list(POD, { namespace: 'demo', labelSelector: 'app=web' });
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(p.metadata.ownerReferences?.[0]?.uid).toBe(rs[0]?.metadata.uid);
    expect(status(store.get(DEPLOY, 'web', 'demo')).observedGeneration).toBe(1);
  });

  it('follows a scale-down and cascades a delete', async () => {
    const store = sandbox.store;
    store.patch(DEPLOY, 'api', 'demo', 'merge', { spec: { replicas: 1 } });
    await eventually(
      () => store.list(POD, { namespace: 'demo', labelSelector: 'app=api' }).length === 1,
      'api scaled to one pod',
    );
    store.delete(DEPLOY, 'api', 'demo');
    await eventually(
      () =>
        store.list(RS, { namespace: 'demo', labelSelector: 'app=api' }).length === 0 &&
        store.list(POD, { namespace: 'demo', labelSelector: 'app=api' }).length === 0,
      'api ReplicaSet and pods collected',
    );
  });

  it('churns when the workload runs', async () => {
    const before = Number(sandbox.store.resourceVersion);
    life.workload.configure({ paused: false, rate: 20 });
    await eventually(() => life.workload.status().operations >= 10, 'ten churn operations');
    life.workload.configure({ paused: true });
    expect(Number(sandbox.store.resourceVersion)).toBeGreaterThan(before);
  });
});
