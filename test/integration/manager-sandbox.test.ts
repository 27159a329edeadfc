// The controller-runtime layer against the embedded API server over real HTTP: a manager with a
// pod-counting controller (reads through the informer cache) and an owner-aware controller
// (ReplicaSet owning Pods), writes through the REST client. Lives under test/ because server/runtime may
// not import server/cluster (test/architecture).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { SandboxServer } from '../../server/cluster/sandbox';
import { newControllerManagedBy } from '../../server/runtime/builder/controller';
import { getConfig } from '../../server/runtime/client/config';
import { newManager, type Manager } from '../../server/runtime/manager/manager';
import { newRegistry } from '../../server/runtime/metrics/registry';
import { reconcileFunc, requestKey } from '../../server/runtime/reconcile/reconcile';
import { RecordingProbe } from '../../server/runtime/testing/recording-probe';

const pod = (name: string, owner?: KubeObject): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    namespace: 'default',
    name,
    labels: { app: 'demo' },
    ...(owner
      ? {
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: owner.metadata.name ?? '',
              uid: owner.metadata.uid ?? '',
              controller: true,
            },
          ],
        }
      : {}),
  },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});

async function eventually(cond: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('manager against the sandbox', () => {
  let sandbox: SandboxServer;
  let dir: string;
  let mgr: Manager;
  const ac = new AbortController();
  let run: Promise<void>;
  const podCounts = new Map<string, number>();
  const rsReconciles: string[] = [];
  const probe = new RecordingProbe();

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'mgr-sandbox-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig);
    mgr = newManager(getConfig({ kubeconfig, argv: [] }), {
      registry: newRegistry(false),
      probe,
      gracefulShutdownTimeoutMs: 5_000,
    });
    const client = mgr.getClient();
    await newControllerManagedBy(mgr)
      .for('v1/Pod')
      .named('pod-counter')
      .complete(
        reconcileFunc(async (_ctx, req) => {
          const pods = await client.list({ apiVersion: 'v1', kind: 'Pod' }, { namespace: req.namespace });
          podCounts.set(req.namespace, pods.items.length);
          return {};
        }),
      );
    await newControllerManagedBy(mgr)
      .for('apps/v1/ReplicaSet')
      .owns('v1/Pod')
      .complete(reconcileFunc(async (_ctx, req) => void rsReconciles.push(requestKey(req))));
    run = mgr.start(ac.signal);
    await mgr.elected();
  }, 60_000);

  afterAll(async () => {
    ac.abort();
    await run;
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts pods as they are created through the REST client', async () => {
    const client = mgr.getClient();
    await client.create(pod('p1'));
    await client.create(pod('p2'));
    await eventually(() => podCounts.get('default') === 2, 'two pods counted');
    const got = await client.get<KubeObject>({ apiVersion: 'v1', kind: 'Pod' }, { namespace: 'default', name: 'p1' });
    expect(got.metadata.name).toBe('p1');
    expect(got.metadata.managedFields).toBeUndefined();
    expect(probe.ofKind('client.request').some((e) => e.cached && e.verb === 'list')).toBe(true);
    expect(probe.ofKind('client.request').some((e) => !e.cached && e.verb === 'create')).toBe(true);
  });

  it('reconciles the owning ReplicaSet when an owned pod changes', async () => {
    const client = mgr.getClient();
    const rs = await client.create<KubeObject>({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { namespace: 'default', name: 'rs1' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'owned' } },
        template: {
          metadata: { labels: { app: 'owned' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    });
    await eventually(() => rsReconciles.includes('default/rs1'), 'rs1 reconciled for itself');
    const before = rsReconciles.length;
    await client.create(pod('owned-1', rs));
    await eventually(() => rsReconciles.length > before, 'rs1 reconciled for its pod');
    expect(rsReconciles.at(-1)).toBe('default/rs1');
    const causes = probe
      .ofKind('reconcile.start')
      .filter((e) => e.controller === 'replicaset')
      .flatMap((e) => e.causes.map((c) => c.type));
    expect(causes).toContain('owner');
  });

  it('elects a leader through a coordination.k8s.io/v1 Lease and releases it on stop', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const le = newManager(getConfig({ kubeconfig, argv: [] }), {
      registry: newRegistry(false),
      leaderElection: true,
      leaderElectionID: 'it-lease',
      leaderElectionNamespace: 'default',
      leaderElectionReleaseOnCancel: true,
      identity: 'it-manager',
    });
    const stop = new AbortController();
    const leRun = le.start(stop.signal);
    await le.elected();
    const reader = mgr.getAPIReader();
    const lease = await reader.get<KubeObject>(
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      { namespace: 'default', name: 'it-lease' },
    );
    expect((lease.spec as { holderIdentity?: string }).holderIdentity).toBe('it-manager');
    stop.abort();
    await leRun;
    const released = await reader.get<KubeObject>(
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      { namespace: 'default', name: 'it-lease' },
    );
    expect((released.spec as { holderIdentity?: string }).holderIdentity ?? '').toBe('');
  });
});
