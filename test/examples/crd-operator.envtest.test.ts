// `controller-scope run examples/crd-operator/… --kubeconfig FILE --allow-writes` on a real kube-apiserver +
// etcd (envtest binaries): the same suite as the sandbox (support/crd-operator-suite.ts). No controller
// manager or kubelet runs there, so Deployments never become available and the suite expects
// Available=False. Skipped with the reason when the binaries are absent; fails instead with
// CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { newRestClient } from '../../server/runtime';
import { SAMPLE_NAMESPACE } from '../../examples/crd-operator/sample';
import { Deployment, Website, type WebsiteObject } from '../../examples/crd-operator/website';
import { defineCrdOperatorSuite } from './support/crd-operator-suite';
import { eventually, runExample, type RunningExample } from './support/run-example';

describeEnvtest('crd-operator example on kube-apiserver', () => {
  const plane = useControlPlane();
  defineCrdOperatorSuite(() => ({
    clusterArgs: ['--kubeconfig', plane().kubeconfigPath],
    deploymentsBecomeAvailable: false,
  }));
});

// `run … --envtest` as the README says it: controller-scope starts its own kube-apiserver, etcd and
// kube-controller-manager, so owned objects are collected and Deployments get their ReplicaSets.
describeEnvtest('crd-operator example with run --envtest', () => {
  let running: RunningExample | undefined;
  afterAll(async () => {
    await running?.stop();
  });

  it('installs its CRD on the fresh control plane and reconciles the sample, shown in the dashboard', async () => {
    running = await runExample(resolve(import.meta.dirname, '../../examples/crd-operator/controller.ts'), [
      '--envtest',
    ]);
    const r = running;
    const reader = newRestClient(r.config);
    const landing = await eventually(async () => {
      const s = await reader.get<WebsiteObject>(Website, { namespace: SAMPLE_NAMESPACE, name: 'landing' });
      return s.status?.conditions?.length === 2 ? s : undefined;
    }, 'landing to get its status');
    expect(landing.status?.observedGeneration).toBe(landing.metadata.generation);
    const view = await r.cli.waitForView('both sample keys reconciled', (v) =>
      ['landing', 'docs'].every(
        (n) => v.controllers.website?.keys[`${SAMPLE_NAMESPACE}/${n}`]?.lastReconcile?.endTs !== undefined,
      ),
    );
    expect(view.informers['example.controller-scope.dev/v1alpha1/Website']).toMatchObject({ synced: true });
    expect(r.cli.output()).toMatch(/cluster: envtest /);
  });

  it("runs kube-controller-manager: a Deployment gets its ReplicaSet, and a deleted site's objects are collected", async () => {
    const r = running;
    if (!r) throw new Error('the first test did not start the example');
    const reader = newRestClient(r.config);
    const ns = SAMPLE_NAMESPACE;
    await eventually(async () => {
      const rs = await reader.list({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }, { namespace: ns });
      return rs.items.some((x) =>
        x.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === 'docs'),
      );
    }, "kube-controller-manager's deployment controller to create docs' ReplicaSet");
    const site = await reader.get<WebsiteObject>(Website, { namespace: ns, name: 'docs' });
    await reader.delete(site);
    // Only the garbage collector deletes these: the operator removes its finalizer and nothing else.
    for (const [type, name] of [
      [{ apiVersion: 'v1', kind: 'ConfigMap' }, 'docs-content'],
      [Deployment, 'docs'],
    ] as const) {
      await eventually(
        async () => {
          const left = await reader.list(type, { namespace: ns });
          return !left.items.some((x) => x.metadata.name === name);
        },
        `the garbage collector to delete ${type.kind} ${ns}/${name}`,
        120_000,
      );
    }
  });
});
