// Starts or connects to the cluster the dashboard runs against: the embedded sandbox (with life in it),
// a real kube-apiserver + etcd (envtest), or any cluster by kubeconfig. Each way ends in a RestConfig the
// user's manager can use, and a stop() that leaves nothing running.
import { makeTempDir, removeTempDir } from './temp-dir';
import { join } from 'node:path';
import { getConfig, type RestConfig } from '../runtime/client';
import { ControlPlane } from './envtest';
import { connectCluster } from './kubeconfig';
import { SandboxServer } from './sandbox';
import { startClusterLife, type ChurnProfile, type ClusterLife } from './sandbox/life';

/** The demo churn a started cluster runs (see WorkloadGenerator). */
export type DemoWorkload = { rate?: number; paused?: boolean; profile?: ChurnProfile };

export type ClusterRequest =
  | { mode: 'sandbox'; port?: number; workload?: DemoWorkload }
  /** bare: kube-apiserver and etcd alone; otherwise kube-controller-manager runs beside them. */
  | { mode: 'envtest'; workload?: DemoWorkload; bare?: boolean }
  | { mode: 'kubeconfig'; kubeconfig?: string; context?: string; namespace?: string };

export interface RunningCluster {
  kind: 'sandbox' | 'envtest' | 'kubeconfig';
  /** Context name, or "sandbox"/"envtest". */
  name: string;
  server: string;
  config: RestConfig;
  /** Path of a kubeconfig for kubectl, when we wrote one. */
  kubeconfigPath?: string;
  sandbox?: SandboxServer;
  life?: ClusterLife;
  stop(): Promise<void>;
}

export async function startCluster(req: ClusterRequest, signal?: AbortSignal): Promise<RunningCluster> {
  switch (req.mode) {
    case 'sandbox':
      return startSandbox(req);
    case 'envtest':
      return startEnvtest(req, signal);
    case 'kubeconfig':
      return connectKubeconfig(req, signal);
  }
}

async function startSandbox(req: Extract<ClusterRequest, { mode: 'sandbox' }>): Promise<RunningCluster> {
  const sandbox = new SandboxServer({ port: req.port ?? 0 });
  const { url } = await sandbox.start();
  const dir = await makeTempDir('controller-scope-sandbox-');
  const kubeconfigPath = join(dir, 'kubeconfig');
  try {
    await sandbox.writeKubeconfig(kubeconfigPath);
    const config = getConfig({ kubeconfig: kubeconfigPath, argv: [], env: {} });
    const life = await startClusterLife({ config, store: sandbox.store, workload: { rate: 2, ...req.workload } });
    return {
      kind: 'sandbox',
      name: 'sandbox',
      server: url,
      config,
      kubeconfigPath,
      sandbox,
      life,
      async stop() {
        await life.stop();
        await sandbox.stop();
        await removeTempDir(dir);
      },
    };
  } catch (err) {
    await sandbox.stop();
    await removeTempDir(dir);
    throw err;
  }
}

async function startEnvtest(
  req: Extract<ClusterRequest, { mode: 'envtest' }>,
  signal?: AbortSignal,
): Promise<RunningCluster> {
  const plane = new ControlPlane({ controllerManager: !req.bare });
  const info = await plane.start(signal);
  try {
    const config = getConfig({ kubeconfig: info.kubeconfigPath, argv: [], env: {} });
    // No kubelet runs in either plane, so pods stay Pending; with kube-controller-manager its controllers
    // run the workloads, and the built-in stand-ins only where it does not run.
    const life = await startClusterLife({ config, workload: { rate: 2, ...req.workload }, builtins: !!req.bare });
    return {
      kind: 'envtest',
      name: 'envtest',
      server: info.apiServerUrl,
      config,
      kubeconfigPath: info.kubeconfigPath,
      life,
      async stop() {
        await life.stop();
        await plane.stop();
      },
    };
  } catch (err) {
    await plane.stop();
    throw err;
  }
}

async function connectKubeconfig(
  req: Extract<ClusterRequest, { mode: 'kubeconfig' }>,
  signal?: AbortSignal,
): Promise<RunningCluster> {
  const conn = await connectCluster({
    ...(req.kubeconfig ? { kubeconfig: req.kubeconfig } : {}),
    ...(req.context ? { context: req.context } : {}),
    ...(signal ? { signal } : {}),
    access: [
      {
        gvr: { group: '', version: 'v1', resource: 'pods' },
        kind: 'Pod',
        ...(req.namespace ? { namespace: req.namespace } : {}),
      },
    ],
  });
  return {
    kind: 'kubeconfig',
    name: conn.config.contextName ?? 'kubeconfig',
    server: conn.config.host,
    config: conn.config,
    async stop() {
      conn.http.close();
    },
  };
}
