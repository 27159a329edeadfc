// The controller-runtime layer against a real kube-apiserver + etcd (envtest binaries): the same shared
// manager suite the sandbox runs (support/manager-suite.ts). Skipped with the reason when the binaries are
// absent; fails instead with CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { defineManagerSuite } from './support/manager-suite';

describeEnvtest('manager against envtest', () => {
  const plane = useControlPlane();
  defineManagerSuite(() => ({ kubeconfig: plane().kubeconfigPath }));
});
