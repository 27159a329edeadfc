// The API servers write → reconcile latency is measured on: the sandbox in the bench's own process (as
// `controller-scope run` hosts it, beside the user's controller and the dashboard, so its work shares the
// event loop with the controller being timed), the sandbox in a process of its own (as `controller-scope
// sandbox` serves an operator running elsewhere), and kube-apiserver + etcd from the envtest binaries.
import { ControlPlane } from '../server/cluster/envtest';
import { SandboxServer } from '../server/cluster/sandbox';
import { getConfig, RestConfig } from '../server/runtime';
import { keepAliveAgent, type Target } from './kube-http';
import { startSandboxHost } from './sandbox';

export const LATENCY_SERVERS = ['sandbox-in-process', 'sandbox-own-process', 'kube-apiserver'] as const;
export type LatencyServerName = (typeof LATENCY_SERVERS)[number];

export interface LatencyServer {
  name: LatencyServerName;
  /** For the bench's own writes (keep-alive). */
  target: Target;
  /** For the manager under test. */
  config: RestConfig;
  /** The server's processes when they are not this one. */
  pids: number[];
  stop(): Promise<void>;
}

function withAgent(t: Target): Target {
  return { ...t, agent: keepAliveAgent(t) };
}

export async function startLatencyServer(name: LatencyServerName, env: NodeJS.ProcessEnv): Promise<LatencyServer> {
  if (name === 'sandbox-in-process') {
    const sandbox = new SandboxServer({ port: 0 });
    const { url } = await sandbox.start();
    const target = withAgent({ name, url });
    return {
      name,
      target,
      config: RestConfig.forServer(url),
      pids: [],
      stop: async () => {
        target.agent?.destroy();
        await sandbox.stop();
      },
    };
  }
  if (name === 'sandbox-own-process') {
    const host = await startSandboxHost({ configMaps: 0, configMapUpdates: 0 });
    const target = withAgent({ name, url: host.seed.url });
    return {
      name,
      target,
      config: RestConfig.forServer(host.seed.url),
      pids: [host.pid],
      stop: async () => {
        target.agent?.destroy();
        await host.stop();
      },
    };
  }
  if (!env.KUBEBUILDER_ASSETS)
    throw new Error('kube-apiserver not measured: set KUBEBUILDER_ASSETS (scripts/setup-envtest.sh)');
  const plane = new ControlPlane({ env });
  const info = await plane.start();
  const target = withAgent({ name, url: info.apiServerUrl, tls: info.tls });
  return {
    name,
    target,
    config: getConfig({ kubeconfig: info.kubeconfigPath, argv: [], env: {} }),
    pids: [info.pids.kubeApiserver, info.pids.etcd],
    stop: async () => {
      target.agent?.destroy();
      await plane.stop();
    },
  };
}
