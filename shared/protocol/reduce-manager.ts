// Managers and leader election. The dashboard's own manager is view.manager; an attached process's manager
// is kept on its ProcessView. A lease keeps what each replica last reported, so replicas of one controller
// stay apart: which one leads is derived with their processes' liveness (liveness.ts).
import type { LeaderElectionEvent, ManagerLifecycleEvent } from './events-controller';
import type { Draft } from './reduce-draft';
import { notable } from './reduce-notable';
import { dict, lookup } from './records';
import type { LeaderReplica, LeaderView, ManagerView, ProcessView } from './view';

type Stamped<E> = E & { seq: number; ts: number };

/** Replicas kept per lease; a crafted stream naming more identities is not followed past this. */
export const MAX_REPLICAS_PER_LEASE = 100;

export function managerLifecycle(d: Draft, ev: Stamped<ManagerLifecycleEvent>): void {
  const proc = ev.process !== undefined ? lookup(d.view.processes, ev.process) : undefined;
  const prev = proc ? proc.manager : d.view.manager;
  const groups = dict<string>();
  if (prev) for (const g of Object.keys(prev.groups)) groups[g] = prev.groups[g] as string;
  const m: ManagerView = prev ? { ...prev, groups } : { phase: 'unknown', since: ev.ts, groups };
  if (ev.group) m.groups[ev.group] = ev.phase;
  else {
    m.phase = ev.phase;
    m.since = ev.ts;
  }
  if (ev.error) {
    m.error = ev.error;
    notable(d, ev, 'error', `manager${proc ? ` of ${proc.process}` : ''}: ${ev.error}`);
  }
  if (!proc) {
    d.view.manager = m;
    return;
  }
  const all = d.childRecord(d.view, 'processes') as Record<string, ProcessView>;
  all[proc.process] = { ...proc, manager: m };
}

export function leaderElection(d: Draft, ev: Stamped<LeaderElectionEvent>): void {
  const leaders = d.childRecord(d.view, 'leaders');
  const prev = lookup(leaders, ev.lease);
  const replicas = dict<LeaderReplica>();
  if (prev?.replicas) for (const id of Object.keys(prev.replicas)) replicas[id] = prev.replicas[id] as LeaderReplica;
  const before = lookup(replicas, ev.identity);
  if (before || Object.keys(replicas).length < MAX_REPLICAS_PER_LEASE) {
    replicas[ev.identity] = {
      identity: ev.identity,
      ...(ev.process !== undefined ? { process: ev.process } : {}),
      phase: ev.phase,
      since: before && before.phase === ev.phase ? before.since : ev.ts,
      ...(ev.holder !== undefined ? { holder: ev.holder } : {}),
      seq: ev.seq,
    };
  }
  const next: LeaderView = {
    lease: ev.lease,
    identity: ev.identity,
    phase: ev.phase,
    since: prev && prev.phase === ev.phase && prev.identity === ev.identity ? prev.since : ev.ts,
    ...(ev.holder !== undefined ? { holder: ev.holder } : {}),
    replicas,
  };
  leaders[ev.lease] = next;
  if (ev.phase === 'acquired' || ev.phase === 'lost') {
    notable(d, ev, ev.phase === 'lost' ? 'warn' : 'info', `leader election ${ev.lease}: ${ev.identity} ${ev.phase}`);
  }
}
