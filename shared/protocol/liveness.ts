// Whether what the view shows is alive, derived from the processes' connection state: a part of an
// attached process (its manager, informers, controllers, lease) is gone exactly when its process is, and a
// part last reported by an earlier run of a restarted process is stale. Panels ask here instead of reading
// a part's own phase as if its process were still there.
import { lookup } from './records';
import type { LeaderReplica, LeaderView, ProcessView, RuntimeView } from './view';

export interface Liveness {
  state: 'alive' | 'gone' | 'stale';
  /** Since when it is gone (the process's gone time). */
  since?: number;
  /** Why, in words a panel can show. */
  reason?: string;
  /** What a gone part's numbers can no longer promise, in words a panel can show beside them. */
  caveat?: string;
}

/**
 * A process that dies (kill -9, a crash) sends no last events: a reconcile it had started or a write it had
 * made just before may never reach the dashboard. So its totals are a lower bound, never an overcount.
 */
export const GONE_COUNTS_CAVEAT =
  'its counts end at the last event it sent: work it had begun when it went may be missing from them';

const ALIVE: Liveness = { state: 'alive' };

/** A controller's or informer's liveness (or anything carrying its process and incarnation). */
export function partLiveness(v: RuntimeView, part: { process?: string; incarnation?: number }): Liveness {
  if (part.process === undefined) return ALIVE;
  const p = lookup(v.processes, part.process);
  if (!p) return ALIVE;
  if (p.state === 'gone') {
    return {
      state: 'gone',
      since: p.since,
      reason: `process ${p.process} is gone${p.reason ? `: ${p.reason}` : ''}`,
      caveat: GONE_COUNTS_CAVEAT,
    };
  }
  if (part.incarnation !== undefined && part.incarnation < p.incarnation) {
    return { state: 'stale', since: p.since, reason: `from an earlier run of process ${p.process}, which restarted` };
  }
  return ALIVE;
}

/** A process's liveness by identity (undefined: the dashboard's own process, alive while the page is connected). */
export function processLiveness(v: RuntimeView, process: string | undefined): Liveness {
  return partLiveness(v, process !== undefined ? { process } : {});
}

/** The attached processes, and how many of them are gone. */
export function attachedSummary(v: RuntimeView): { processes: ProcessView[]; gone: number } {
  const processes = Object.values(v.processes ?? {});
  return { processes, gone: processes.filter((p) => p.state === 'gone').length };
}

export type ReplicaRole = 'leader' | 'standby' | 'gone';

export interface ReplicaState {
  replica: LeaderReplica;
  role: ReplicaRole;
  /** Why, in a few words: "holds the lease", "waiting to acquire", "its process is gone". */
  detail: string;
}

const HOLDING = new Set(['acquired', 'renewed']);

/**
 * Every replica of a lease with its role: the leader is the live replica whose latest report is a hold and
 * is the newest hold of any replica (a later acquire by another means the earlier holder lost it); every
 * other live replica is standing by; a replica whose process is gone is gone, even if it held the lease.
 */
export function replicaRoles(v: RuntimeView, lease: LeaderView): ReplicaState[] {
  const replicas = Object.values(lease.replicas ?? {});
  const newestHold = replicas
    .filter((r) => HOLDING.has(r.phase))
    .reduce<LeaderReplica | undefined>((a, r) => (a === undefined || r.seq > a.seq ? r : a), undefined);
  return replicas
    .map((r): ReplicaState => {
      const live = processLiveness(v, r.process);
      if (live.state !== 'alive') return { replica: r, role: 'gone', detail: live.reason ?? 'gone' };
      if (r === newestHold) return { replica: r, role: 'leader', detail: 'holds the lease' };
      if (HOLDING.has(r.phase))
        return { replica: r, role: 'standby', detail: 'another replica acquired the lease since' };
      return { replica: r, role: 'standby', detail: r.phase === 'lost' ? 'lost the lease' : 'waiting to acquire' };
    })
    .sort((a, b) => a.replica.identity.localeCompare(b.replica.identity));
}
