// Life in a cluster with no nodes or controller manager of its own: the sandbox's (or envtest's)
// Deployment and ReplicaSet controllers, a node simulator and a workload generator, started and
// stopped together.
import type { RestConfig } from '../../../runtime/client/config';
import { newRestClient } from '../../../runtime/client/rest-client';
import { newManager, type Manager } from '../../../runtime/manager/manager';
import { newRegistry } from '../../../runtime/metrics/registry';
import type { Clock } from '../../../runtime/util/clock';
import type { SandboxStore } from '../store-api';
import { NodeSimulator, type NodeSimulatorOptions } from './node-simulator';
import { addWorkloadControllers } from './workload-controllers';
import { WorkloadGenerator, type ChurnProfile } from './workload-generator';
import { clientTarget, storeTarget } from './workload-target';

export { NodeSimulator } from './node-simulator';
export { WorkloadGenerator, type ChurnProfile, type WorkloadStatus } from './workload-generator';
export { storeTarget, clientTarget, type WorkloadTarget } from './workload-target';
export { addWorkloadControllers } from './workload-controllers';

export interface ClusterLifeOptions {
  /** The cluster the controllers talk to. */
  config: RestConfig;
  /** The sandbox's store: enables the node simulator and in-process churn. Absent (envtest): churn goes through the API. */
  store?: SandboxStore;
  workload?: { profile?: ChurnProfile; rate?: number; paused?: boolean; namespace?: string };
  nodes?: Omit<NodeSimulatorOptions, 'store' | 'clock'>;
  clock?: Clock;
}

export interface ClusterLife {
  readonly workload: WorkloadGenerator;
  readonly nodes?: NodeSimulator;
  /** The manager running the Deployment and ReplicaSet controllers (not shown on the dashboard). */
  readonly controllers: Manager;
  stop(): Promise<void>;
}

export async function startClusterLife(opts: ClusterLifeOptions): Promise<ClusterLife> {
  // Its own registry and no probe: these stand in for kube-controller-manager, not for the user's controllers.
  const controllers = newManager(opts.config, {
    registry: newRegistry(false),
    gracefulShutdownTimeoutMs: 2_000,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await addWorkloadControllers(controllers);
  const ac = new AbortController();
  const running = controllers.start(ac.signal);
  const nodes = opts.store
    ? new NodeSimulator({ store: opts.store, ...opts.nodes, ...(opts.clock ? { clock: opts.clock } : {}) })
    : undefined;
  nodes?.start();
  const workload = new WorkloadGenerator({
    target: opts.store ? storeTarget(opts.store) : clientTarget(newRestClient(opts.config)),
    ...opts.workload,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await workload.start();
  return {
    workload,
    ...(nodes ? { nodes } : {}),
    controllers,
    async stop() {
      workload.stop();
      nodes?.stop();
      ac.abort();
      await running.catch(() => undefined);
    },
  };
}
