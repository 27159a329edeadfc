// Life in a cluster with no nodes or controller manager of its own: the sandbox's (or envtest's)
// built-in controllers (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, EndpointSlice, the
// default ServiceAccount per namespace), a node simulator and, for the dashboard's own demo, a workload
// generator, started and stopped together.
import type { RestConfig } from '../../../runtime/client';
import { newRestClient } from '../../../runtime/client';
import { newManager, type Manager } from '../../../runtime';
import { newRegistry } from '../../../runtime';
import type { Clock } from '../../../runtime';
import type { SandboxStore } from '../store-api';
import { NodeSimulator, type NodeSimulatorOptions } from './node-simulator';
import { addMoreControllers } from './more-controllers';
import { addServiceAccountController } from './serviceaccount-controller';
import { addWorkloadControllers } from './workload-controllers';
import { WorkloadGenerator, type ChurnProfile } from './workload-generator';
import { clientTarget, storeTarget } from './workload-target';

export { NodeSimulator } from './node-simulator';
export { CHURN_PROFILES, WorkloadGenerator, type ChurnProfile, type WorkloadStatus } from './workload-generator';
export { storeTarget, clientTarget, type WorkloadTarget } from './workload-target';
export { addWorkloadControllers } from './workload-controllers';
export { addMoreControllers } from './more-controllers';

export interface ClusterLifeOptions {
  /** The cluster the controllers talk to. */
  config: RestConfig;
  /** The sandbox's store: enables the node simulator and in-process churn. Absent (envtest): churn goes through the API. */
  store?: SandboxStore;
  workload?: { profile?: ChurnProfile; rate?: number; paused?: boolean; namespace?: string };
  nodes?: Omit<NodeSimulatorOptions, 'store' | 'clock'>;
  clock?: Clock;
  /**
   * Run the built-in controllers. Default true; false where a real kube-controller-manager runs them, so
   * no Deployment is reconciled by two controllers at once.
   */
  builtins?: boolean;
}

export interface ClusterLife {
  readonly workload: WorkloadGenerator;
  readonly nodes?: NodeSimulator;
  /** The manager running the built-in controllers (not shown on the dashboard); absent with builtins: false. */
  readonly controllers?: Manager;
  stop(): Promise<void>;
}

export interface ClusterControllersOptions {
  config: RestConfig;
  /** The sandbox's store: enables the node simulator. */
  store?: SandboxStore;
  nodes?: Omit<NodeSimulatorOptions, 'store' | 'clock'>;
  clock?: Clock;
}

/** What kube-controller-manager and the kubelets would do: the built-in controllers and simulated nodes. */
export interface ClusterControllers {
  readonly nodes?: NodeSimulator;
  readonly controllers: Manager;
  stop(): Promise<void>;
}

export async function startClusterControllers(opts: ClusterControllersOptions): Promise<ClusterControllers> {
  // Its own registry and no probe: these stand in for kube-controller-manager, not for the user's controllers.
  const controllers = newManager(opts.config, {
    registry: newRegistry(false),
    gracefulShutdownTimeoutMs: 2_000,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await addWorkloadControllers(controllers);
  await addMoreControllers(controllers);
  await addServiceAccountController(controllers);
  const ac = new AbortController();
  const running = controllers.start(ac.signal);
  const nodes = opts.store
    ? new NodeSimulator({ store: opts.store, ...opts.nodes, ...(opts.clock ? { clock: opts.clock } : {}) })
    : undefined;
  nodes?.start();
  return {
    ...(nodes ? { nodes } : {}),
    controllers,
    async stop() {
      nodes?.stop();
      ac.abort();
      await running.catch(() => undefined);
    },
  };
}

export async function startClusterLife(opts: ClusterLifeOptions): Promise<ClusterLife> {
  const cluster = opts.builtins === false ? undefined : await startClusterControllers(opts);
  const workload = new WorkloadGenerator({
    target: opts.store ? storeTarget(opts.store) : clientTarget(newRestClient(opts.config)),
    ...opts.workload,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await workload.start();
  return {
    workload,
    ...(cluster?.nodes ? { nodes: cluster.nodes } : {}),
    ...(cluster ? { controllers: cluster.controllers } : {}),
    async stop() {
      workload.stop();
      await cluster?.stop();
    },
  };
}
