// A kubelet and scheduler reduced to what a controller watching pods sees: pods get a node, go
// Pending → Running → their containers report ready, and pods being deleted are finished off after
// their containers "stop". Delays are configurable so a learner can watch each step.
import type { KubeObject } from '../../../../shared/models/object';
import { realClock, type Clock, type TimerHandle } from '../../../runtime';
import type { SandboxStore } from '../store-api';

export interface NodeSimulatorOptions {
  store: SandboxStore;
  /** Nodes to create (sandbox-node-1..N); default 3. */
  nodes?: number;
  /** Unscheduled → bound to a node; default 300 ms. */
  scheduleDelayMs?: number;
  /** Bound → Running (containers started); default 800 ms. */
  startDelayMs?: number;
  /** Running → containers ready; default 1200 ms. */
  readyDelayMs?: number;
  /** Ready → Succeeded, for pods that run to completion (restartPolicy Never or OnFailure); default 2000 ms. */
  completeDelayMs?: number;
  /** Deletion requested → containers stopped and the pod removed; default 500 ms (capped by the grace period). */
  terminateDelayMs?: number;
  clock?: Clock;
  random?: () => number;
}

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

type Stage = 'schedule' | 'start' | 'ready' | 'complete' | 'terminate';

interface PodStatus {
  phase?: string;
  conditions?: { type: string; status: string; lastTransitionTime?: string }[];
  containerStatuses?: unknown[];
  startTime?: string;
  podIP?: string;
  hostIP?: string;
}

export class NodeSimulator {
  private readonly store: SandboxStore;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly delays: Record<Stage, number>;
  private readonly nodeNames: string[];
  /** One pending step per pod (by uid): a new change re-plans it. */
  private readonly timers = new Map<string, { stage: Stage; timer: TimerHandle }>();
  private unsubscribe?: () => void;
  private nextIp = 10;

  constructor(opts: NodeSimulatorOptions) {
    this.store = opts.store;
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.delays = {
      schedule: opts.scheduleDelayMs ?? 300,
      start: opts.startDelayMs ?? 800,
      ready: opts.readyDelayMs ?? 1200,
      complete: opts.completeDelayMs ?? 2000,
      terminate: opts.terminateDelayMs ?? 500,
    };
    this.nodeNames = Array.from({ length: opts.nodes ?? 3 }, (_, i) => `sandbox-node-${i + 1}`);
  }

  start(): void {
    for (const name of this.nodeNames) {
      if (!this.store.get(NODE, name)) this.store.create(this.nodeObject(name));
    }
    this.unsubscribe = this.store.onChange((c) => {
      if (c.group !== '' || c.resource !== 'pods') return;
      if (c.type === 'DELETED') this.cancel(c.object.metadata.uid);
      else this.plan(c.object);
    });
    for (const pod of this.store.list(POD)) this.plan(pod);
  }

  stop(): void {
    this.unsubscribe?.();
    for (const { timer } of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  /** The next step this pod is due for, or undefined when it is settled. */
  static nextStage(pod: KubeObject): Stage | undefined {
    const spec = (pod.spec ?? {}) as { nodeName?: string; restartPolicy?: string };
    const status = (pod.status ?? {}) as PodStatus;
    if (pod.metadata.deletionTimestamp) return spec.nodeName ? 'terminate' : undefined;
    if (!spec.nodeName) return 'schedule';
    if (status.phase === 'Succeeded' || status.phase === 'Failed') return undefined;
    if (status.phase !== 'Running') return 'start';
    const ready = status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    if (!ready) return 'ready';
    return spec.restartPolicy === 'Never' || spec.restartPolicy === 'OnFailure' ? 'complete' : undefined;
  }

  private plan(pod: KubeObject): void {
    const uid = pod.metadata.uid;
    if (!uid) return;
    const stage = NodeSimulator.nextStage(pod);
    const pending = this.timers.get(uid);
    if (pending?.stage === stage) return;
    pending?.timer.cancel();
    this.timers.delete(uid);
    if (!stage) return;
    let delay = this.delays[stage] * (0.75 + this.random() * 0.5);
    if (stage === 'terminate') {
      delay = Math.min(delay, (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000);
    }
    const name = pod.metadata.name ?? '';
    const namespace = pod.metadata.namespace;
    const timer = this.clock.setTimer(() => {
      this.timers.delete(uid);
      this.advance(stage, name, namespace, uid);
    }, delay);
    this.timers.set(uid, { stage, timer });
  }

  private cancel(uid: string | undefined): void {
    if (!uid) return;
    this.timers.get(uid)?.timer.cancel();
    this.timers.delete(uid);
  }

  private advance(stage: Stage, name: string, namespace: string | undefined, uid: string): void {
    const pod = this.store.get(POD, name, namespace);
    // The pod may have been replaced under the same name, or moved on already.
    if (!pod || pod.metadata.uid !== uid || NodeSimulator.nextStage(pod) !== stage) return;
    const now = new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    try {
      switch (stage) {
        case 'schedule': {
          const node = this.nodeNames[Math.floor(this.random() * this.nodeNames.length)] ?? 'sandbox-node-1';
          this.store.patch(POD, name, namespace, 'merge', { spec: { nodeName: node } });
          this.patchStatus(name, namespace, {
            phase: 'Pending',
            conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now }],
          });
          break;
        }
        case 'start':
          this.patchStatus(name, namespace, {
            phase: 'Running',
            startTime: now,
            hostIP: '192.0.2.1',
            podIP: `10.244.0.${this.nextIp++ % 250}`,
            conditions: conditions(now, false),
            containerStatuses: containerStatuses(pod, now, false),
          });
          break;
        case 'ready':
          this.patchStatus(name, namespace, {
            conditions: conditions(now, true),
            containerStatuses: containerStatuses(pod, now, true),
          });
          break;
        case 'complete':
          this.patchStatus(name, namespace, {
            phase: 'Succeeded',
            conditions: conditions(now, false),
            containerStatuses: containerStatuses(pod, now, false, now),
          });
          break;
        case 'terminate':
          this.store.delete(POD, name, namespace, { gracePeriodSeconds: 0 });
          break;
      }
    } catch {
      // A concurrent delete or update won the race; the change feed re-plans from the new state.
    }
  }

  private patchStatus(name: string, namespace: string | undefined, status: PodStatus): void {
    this.store.patch(POD, name, namespace, 'merge', { status }, { subresource: 'status' });
  }

  private nodeObject(name: string): KubeObject {
    return {
      ...NODE,
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'controller-scope.dev/simulated': 'true' } },
      status: {
        capacity: { cpu: '8', memory: '32Gi', pods: '110' },
        allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'simulated by controller-scope' },
        ],
        nodeInfo: { kubeletVersion: 'v1.35.0-sandbox', operatingSystem: 'linux', architecture: 'amd64' },
      },
    };
  }
}

function conditions(now: string, ready: boolean): PodStatus['conditions'] {
  const r = ready ? 'True' : 'False';
  return [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
    { type: 'Initialized', status: 'True', lastTransitionTime: now },
    { type: 'ContainersReady', status: r, lastTransitionTime: now },
    { type: 'Ready', status: r, lastTransitionTime: now },
  ];
}

function containerStatuses(pod: KubeObject, now: string, ready: boolean, finishedAt?: string): unknown[] {
  const containers = ((pod.spec as { containers?: { name: string; image?: string }[] } | undefined)?.containers ??
    []) as { name: string; image?: string }[];
  return containers.map((c) => ({
    name: c.name,
    image: c.image ?? '',
    imageID: '',
    ready,
    started: true,
    restartCount: 0,
    state: finishedAt
      ? { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt } }
      : { running: { startedAt: now } },
  }));
}
