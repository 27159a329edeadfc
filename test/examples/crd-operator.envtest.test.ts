// `controller-scope run examples/crd-operator/… --kubeconfig FILE --allow-writes` on a real kube-apiserver +
// etcd (envtest binaries): the same suite as the sandbox (support/crd-operator-suite.ts). No controller
// manager or kubelet runs there, so Deployments never become available and the suite expects
// Available=False. Skipped with the reason when the binaries are absent; fails instead with
// CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { defineCrdOperatorSuite } from './support/crd-operator-suite';

describeEnvtest('crd-operator example on kube-apiserver', () => {
  const plane = useControlPlane();
  defineCrdOperatorSuite(() => ({
    clusterArgs: ['--kubeconfig', plane().kubeconfigPath],
    deploymentsBecomeAvailable: false,
  }));
});
