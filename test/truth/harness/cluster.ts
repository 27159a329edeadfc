// The API server an oracle run drives: the embedded sandbox, or a real kube-apiserver + etcd (envtest).
import { join } from 'node:path';
import { SandboxServer } from '../../../server/cluster/sandbox';
import { ControlPlane, findAssets } from '../../../server/cluster/envtest';

export type ClusterKind = 'sandbox' | 'apiserver';

export interface OracleCluster {
  kind: ClusterKind;
  kubeconfig: string;
  stop(): Promise<void>;
}

export async function startCluster(kind: ClusterKind, dir: string): Promise<OracleCluster> {
  if (kind === 'sandbox') {
    const sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    const kubeconfig = join(dir, 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig);
    return { kind, kubeconfig, stop: () => sandbox.stop() };
  }
  const cp = new ControlPlane({ assets: findAssets() });
  const info = await cp.start();
  return { kind, kubeconfig: info.kubeconfigPath, stop: () => cp.stop() };
}
