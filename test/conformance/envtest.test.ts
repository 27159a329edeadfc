// The conformance suite against a real kube-apiserver + etcd (envtest binaries). Skipped with the reason
// when the binaries are absent; fails instead with CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { afterAll } from 'vitest';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { defineConformance } from './conformance';
import type { ConformanceTarget } from './support/target';
import { compactEtcd, connectTarget } from './support/targets';

describeEnvtest('conformance: envtest', () => {
  // The compaction cases use serviceaccounts with the watch cache off: kube-apiserver >= 1.34 otherwise
  // answers exact lists from cache snapshots and watches from its own event window, neither of which
  // notices a compaction it did not run itself (it runs its own only every 5 minutes).
  const plane = useControlPlane({ apiServerFlags: { 'watch-cache-sizes': 'serviceaccounts#0' } });
  let target: ConformanceTarget | undefined;

  afterAll(() => {
    target?.http.close();
  });

  defineConformance('envtest', () => {
    if (!target) {
      const info = plane();
      target = connectTarget('envtest', info.kubeconfigPath, () => compactEtcd(info.etcdUrl));
    }
    return target;
  });
});
