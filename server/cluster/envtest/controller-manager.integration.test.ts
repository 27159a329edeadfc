// kube-controller-manager beside the API server: the garbage collector takes an owner's dependents and the
// namespace controller finalizes a deleted namespace, which the bare plane (envtest's) never does.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ControlPlane } from './control-plane';
import type { ControlPlaneInfo } from './control-plane';
import { pollUntilReady } from './readiness';
import { describeEnvtest } from './testing';

/** Polls until check() holds; the deadline only bounds a broken run (the controllers act within seconds). */
function eventually(describe: string, probe: () => Promise<boolean>): Promise<void> {
  return pollUntilReady({ describe, probe, watch: [], timeoutMs: 120_000, intervalMs: 200 });
}

async function gone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return true;
    throw err;
  }
}

describeEnvtest('ControlPlane with kube-controller-manager', () => {
  const plane = new ControlPlane({ controllerManager: true });
  let info: ControlPlaneInfo;
  let core: CoreV1Api;

  beforeAll(async () => {
    info = await plane.start();
    console.info(`[envtest] control plane with kube-controller-manager up in ${info.startupMs} ms`, info.phases);
    const kc = new KubeConfig();
    kc.loadFromString(info.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    await plane.stop();
  });

  it('reports the controller manager among its processes', () => {
    expect(info.pids.kubeControllerManager).toBeGreaterThan(0);
    expect(plane.pids()).toContain(info.pids.kubeControllerManager);
    expect(info.phases.controllerManagerMs).toBeGreaterThanOrEqual(0);
  });

  it('collects a dependent once its owner is deleted', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'gc-owner' } },
    });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'gc-owner', uid: owner.metadata?.uid ?? '' };
    await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'gc-child', ownerReferences: [ref] }, stringData: { k: 'v' } },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'gc-owner' });
    await eventually('the garbage collector deleted secret default/gc-child', () =>
      gone(() => core.readNamespacedSecret({ namespace: 'default', name: 'gc-child' })),
    );
  });

  it('finalizes a deleted namespace and its contents', async () => {
    await core.createNamespace({ body: { metadata: { name: 'kcm-ns' } } });
    await core.createNamespacedConfigMap({ namespace: 'kcm-ns', body: { metadata: { name: 'inside' } } });
    await core.deleteNamespace({ name: 'kcm-ns' });
    await eventually('namespace kcm-ns is gone', () => gone(() => core.readNamespace({ name: 'kcm-ns' })));
  });

  it('creates the default ServiceAccount in a new namespace', async () => {
    await core.createNamespace({ body: { metadata: { name: 'kcm-sa' } } });
    await eventually('serviceaccount kcm-sa/default exists', async () => {
      const list = await core.listNamespacedServiceAccount({ namespace: 'kcm-sa' });
      return list.items.some((sa) => sa.metadata?.name === 'default');
    });
  });
});
