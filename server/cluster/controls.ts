// What the dashboard may do to the cluster in use: inject faults into the sandbox's API server and steer the
// workload generator. Shaped to the dashboard's ClusterControls port (structurally; server/cluster does not
// import the dashboard). A kubeconfig cluster gets no controls unless the user allowed writes, and never
// faults: we cannot inject them into somebody's real API server.
import type { FaultSpec } from '../../shared/protocol/commands';
import type { ClusterInfo } from '../../shared/protocol/socket';
import type { Clock, TimerHandle } from '../runtime/util/clock';
import { realClock } from '../runtime/util/clock';
import type { RunningCluster } from './connect';
import type { FaultVerb } from './sandbox';
import type { ChurnProfile } from './sandbox/life';

export interface ActiveFaultInfo {
  id: string;
  description: string;
  until?: number;
}

const PROFILES: readonly ChurnProfile[] = ['steady', 'bursty', 'storm'];
const ALL_VERBS: Exclude<FaultVerb, '*'>[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

interface Installed extends ActiveFaultInfo {
  undo(): void;
  timer?: TimerHandle;
}

export class ClusterControlsImpl {
  readonly info: ClusterInfo;
  private readonly faults = new Map<string, Installed>();
  private nextId = 1;

  constructor(
    private readonly cluster: RunningCluster,
    writable: boolean,
    private readonly clock: Clock = realClock,
  ) {
    this.info = { kind: cluster.kind, name: cluster.name, server: cluster.server, writable };
  }

  injectFault(fault: FaultSpec, durationMs?: number): ActiveFaultInfo {
    const sandbox = this.cluster.sandbox;
    if (!sandbox) {
      throw new Error(
        `fault injection needs the embedded sandbox API server; this dashboard runs against ${this.cluster.kind} (${this.cluster.server}). Start with --sandbox to try faults.`,
      );
    }
    if (fault.resource || fault.namespace) {
      throw new Error(
        'sandbox faults apply to every resource and namespace for now: leave resource and namespace empty',
      );
    }
    const verbs = fault.verbs?.length ? fault.verbs : ALL_VERBS;
    const f = sandbox.faults;
    let description: string;
    let undo: () => void = () => undefined;
    switch (fault.kind) {
      case 'closeWatches': {
        const n = f.closeAllWatches();
        description = `closed ${n} open watch${n === 1 ? '' : 'es'}`;
        break;
      }
      case 'expireWatches': {
        // A write no informer of ours follows moves the revision on; compacting there and closing every
        // watch makes each reflector's next watch start from a compacted revision: 410 Expired, then relist.
        sandbox.store.create({
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { generateName: 'controller-scope-fault-', namespace: 'kube-system' },
          reason: 'HistoryCompacted',
          message: 'controller-scope: watch history compacted on request',
          involvedObject: { kind: 'Namespace', name: 'kube-system' },
          type: 'Warning',
        });
        const rv = f.compactNow();
        const n = f.closeAllWatches();
        description = `compacted history at revision ${rv} and closed ${n} watch${n === 1 ? '' : 'es'}: reflectors get 410 Expired and relist`;
        break;
      }
      case 'latency':
        if (!(fault.ms > 0 && fault.ms <= 60_000)) throw new Error(`latency must be 1..60000 ms, got ${fault.ms}`);
        for (const v of verbs) f.setLatency(v, fault.ms);
        undo = () => verbs.forEach((v) => f.setLatency(v, 0));
        description = `+${fault.ms} ms latency on ${verbs.join(', ')}`;
        break;
      case 'errors':
        if (!(fault.rate > 0 && fault.rate <= 1)) throw new Error(`error rate must be in (0, 1], got ${fault.rate}`);
        if (!(fault.code >= 400 && fault.code <= 599))
          throw new Error(`error code must be an HTTP 4xx/5xx status, got ${fault.code}`);
        for (const v of verbs) f.setFailureRate(v, fault.rate, fault.code);
        undo = () => verbs.forEach((v) => f.setFailureRate(v, 0));
        description = `${Math.round(fault.rate * 100)}% of ${verbs.join(', ')} fail with HTTP ${fault.code}`;
        break;
      case 'conflicts': {
        if (!(fault.rate > 0 && fault.rate <= 1)) throw new Error(`conflict rate must be in (0, 1], got ${fault.rate}`);
        const writes = verbs.filter((v) => v === 'update' || v === 'patch' || v === 'create' || v === 'delete');
        const targets = writes.length ? writes : (['update', 'patch'] as const);
        for (const v of targets) f.setFailureRate(v, fault.rate, 409);
        undo = () => targets.forEach((v) => f.setFailureRate(v, 0));
        description = `${Math.round(fault.rate * 100)}% of ${targets.join(', ')} answered 409 Conflict`;
        break;
      }
      case 'stallWatches':
        throw new Error('stalled watches are not supported by the sandbox yet; use closeWatches or expireWatches');
    }
    const id = `fault-${this.nextId++}`;
    const installed: Installed = { id, description, undo };
    // One-shot faults (closing or expiring watches) are done at once and leave nothing active.
    if (fault.kind !== 'closeWatches' && fault.kind !== 'expireWatches') {
      if (durationMs !== undefined && durationMs > 0) {
        installed.until = this.clock.now() + durationMs;
        installed.timer = this.clock.setTimer(() => this.clearFaults(id), durationMs);
      }
      this.faults.set(id, installed);
    }
    return { id, description, ...(installed.until ? { until: installed.until } : {}) };
  }

  clearFaults(id?: string): number {
    const victims = id ? [this.faults.get(id)].filter((x): x is Installed => !!x) : [...this.faults.values()];
    for (const v of victims) {
      v.timer?.cancel();
      v.undo();
      this.faults.delete(v.id);
    }
    return victims.length;
  }

  activeFaults(): ActiveFaultInfo[] {
    return [...this.faults.values()].map(({ id, description, until }) => ({
      id,
      description,
      ...(until ? { until } : {}),
    }));
  }

  setWorkload(profile: string, opts: { ratePerSecond?: number; namespace?: string }): void {
    const gen = this.requireWorkload();
    if (!PROFILES.includes(profile as ChurnProfile)) {
      throw new Error(`unknown workload profile '${profile}': choose one of ${PROFILES.join(', ')}`);
    }
    if (opts.namespace && opts.namespace !== gen.status().namespace) {
      throw new Error(
        `the workload runs in namespace '${gen.status().namespace}'; it cannot move to '${opts.namespace}'`,
      );
    }
    gen.configure({
      profile: profile as ChurnProfile,
      paused: false,
      ...(opts.ratePerSecond !== undefined ? { rate: opts.ratePerSecond } : {}),
    });
  }

  stopWorkload(): void {
    this.requireWorkload().configure({ paused: true });
  }

  workload(): { profile: string; ratePerSecond?: number } | undefined {
    const s = this.cluster.life?.workload.status();
    if (!s || s.paused) return undefined;
    return { profile: s.profile, ratePerSecond: s.rate };
  }

  private requireWorkload() {
    const gen = this.cluster.life?.workload;
    if (!gen) throw new Error(`no workload generator runs against ${this.cluster.kind} clusters`);
    return gen;
  }
}
