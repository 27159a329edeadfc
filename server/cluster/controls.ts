// What the dashboard may do to the cluster in use: inject faults into the sandbox's API server and steer the
// workload generator. Shaped to the dashboard's ClusterControls port (structurally; server/cluster does not
// import the dashboard). A kubeconfig cluster gets no controls unless the user allowed writes, and never
// faults: we cannot inject them into somebody's real API server. Faults honour their target (resource, namespace,
// verbs); timed ones lift by themselves, each can be cleared by its id.
import type { FaultSpec, FaultTarget } from '../../shared/protocol/commands';
import type { ClusterInfo } from '../../shared/protocol/socket';
import type { Clock, TimerHandle } from '../runtime';
import { realClock } from '../runtime';
import type { RunningCluster } from './connect';
import type { FaultVerb, WatchTarget } from './sandbox/faults';
import { CHURN_PROFILES, type ChurnProfile } from './sandbox/life';

export interface ActiveFaultInfo {
  id: string;
  description: string;
  until?: number;
}

const PROFILES = CHURN_PROFILES;
const WRITE_VERBS: readonly FaultVerb[] = ['create', 'update', 'patch', 'delete'];

interface Installed extends ActiveFaultInfo {
  undo(): void;
  timer?: TimerHandle;
}

/**
 * The dashboard's target in the injector's terms. "pods" matches that resource in any group;
 * "widgets.demo.io" names resource and group, as kubectl spells it.
 */
export function watchTargetOf(fault: FaultTarget): WatchTarget {
  const t: WatchTarget = {};
  const resource = fault.resource?.trim();
  if (resource) {
    const dot = resource.indexOf('.');
    if (dot > 0) {
      t.resource = resource.slice(0, dot);
      t.group = resource.slice(dot + 1);
    } else t.resource = resource;
  }
  const namespace = fault.namespace?.trim();
  if (namespace) t.namespace = namespace;
  return t;
}

function describeTarget(fault: FaultTarget): string {
  const parts: string[] = [];
  if (fault.resource?.trim()) parts.push(` of ${fault.resource.trim()}`);
  if (fault.namespace?.trim()) parts.push(` in namespace ${fault.namespace.trim()}`);
  return parts.join('');
}

const plural = (n: number, word: string, many = `${word}es`): string => `${n} ${n === 1 ? word : many}`;

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
    const f = sandbox.faults;
    const target = watchTargetOf(fault);
    const where = describeTarget(fault);
    const verbs: FaultVerb[] | undefined = fault.verbs?.length ? [...fault.verbs] : undefined;
    const onVerbs = verbs ? verbs.join(', ') : 'every request';
    if (fault.kind === 'closeWatches' || fault.kind === 'expireWatches' || fault.kind === 'stallWatches') {
      if (verbs && !verbs.includes('watch'))
        throw new Error(`${fault.kind} acts on watches: leave verbs empty or include watch (got ${verbs.join(', ')})`);
    }
    let description: string;
    let undo: () => void = () => undefined;
    switch (fault.kind) {
      case 'closeWatches': {
        const n = f.closeWatches(target);
        description = `closed ${plural(n, 'open watch')}${where}`;
        break;
      }
      case 'expireWatches': {
        const { compactedRv, expired } = f.expireWatches(target);
        description = `compacted history at revision ${compactedRv} and ended ${plural(expired, 'watch')}${where} with 410 Expired: reflectors relist`;
        break;
      }
      case 'stallWatches': {
        const id = f.stallWatches(target);
        undo = () => f.removeRule(id);
        description = `watches${where} stalled (${plural(f.stalledWatches(), 'open watch')} now): events are dropped until the stall lifts`;
        break;
      }
      case 'latency': {
        if (!(fault.ms > 0 && fault.ms <= 60_000)) throw new Error(`latency must be 1..60000 ms, got ${fault.ms}`);
        const id = f.addRule({ kind: 'latency', ms: fault.ms, ...target, ...(verbs ? { verbs } : {}) });
        undo = () => f.removeRule(id);
        description = `+${fault.ms} ms latency on ${onVerbs}${where}`;
        break;
      }
      case 'errors': {
        if (!(fault.rate > 0 && fault.rate <= 1)) throw new Error(`error rate must be in (0, 1], got ${fault.rate}`);
        if (!(Number.isInteger(fault.code) && fault.code >= 400 && fault.code <= 599))
          throw new Error(`error code must be an HTTP 4xx/5xx status, got ${fault.code}`);
        const id = f.addRule({
          kind: 'errors',
          rate: fault.rate,
          code: fault.code,
          ...target,
          ...(verbs ? { verbs } : {}),
        });
        undo = () => f.removeRule(id);
        description = `${Math.round(fault.rate * 100)}% of ${onVerbs}${where} fail with HTTP ${fault.code}`;
        break;
      }
      case 'conflicts': {
        if (!(fault.rate > 0 && fault.rate <= 1)) throw new Error(`conflict rate must be in (0, 1], got ${fault.rate}`);
        const writes = (verbs ?? []).filter((v) => WRITE_VERBS.includes(v));
        const on: FaultVerb[] = writes.length ? writes : ['update', 'patch'];
        const id = f.addRule({ kind: 'conflicts', rate: fault.rate, ...target, verbs: on });
        undo = () => f.removeRule(id);
        description = `${Math.round(fault.rate * 100)}% of ${on.join(', ')}${where} answered 409 Conflict`;
        break;
      }
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

  /** The churn profiles setWorkload accepts, for the dashboard's profile picker. */
  workloadProfiles(): string[] {
    return [...PROFILES];
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
