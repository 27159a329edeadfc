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
import { Website, type WebsiteObject } from '../../examples/crd-operator/website';
import { defineCrdOperatorSuite } from './support/crd-operator-suite';
import { eventually, runExample, type RunningExample } from './support/run-example';

describeEnvtest('crd-operator example on kube-apiserver', () => {
  const plane = useControlPlane();
  defineCrdOperatorSuite(() => ({
    clusterArgs: ['--kubeconfig', plane().kubeconfigPath],
    deploymentsBecomeAvailable: false,
  }));
});

// `run … --envtest` as the README says it: controller-scope starts its own kube-apiserver + etcd.
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
});
