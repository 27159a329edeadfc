// Ports controller-runtime pkg/leaderelection/leader_election.go: the manager's leader-election options,
// their defaults, and building the Lease lock from them.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { LeaseClient } from './lease-lock';
import { LeaseLock } from './lease-lock';
import type { ResourceLock } from './resource-lock';

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

const IN_CLUSTER_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export interface LeaderElectionOptions {
  /** Turn leader election on. Default false. */
  leaderElection?: boolean;
  /** Only "leases" is supported (upstream's default). */
  leaderElectionResourceLock?: 'leases';
  /** Namespace of the Lease; default the in-cluster service-account namespace. */
  leaderElectionNamespace?: string;
  /** Name of the Lease; required when leader election is on. */
  leaderElectionID?: string;
  /** Default hostname + "_" + a random UUID. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Release the lease when the manager stops. Default false. */
  leaderElectionReleaseOnCancel?: boolean;
  /** Labels put on the Lease. */
  leaderElectionLabels?: Record<string, string>;
  /** A custom lock instead of the Lease lock. */
  leaderElectionLock?: ResourceLock;
}

/** The in-cluster namespace, or an error outside a cluster. */
function inClusterNamespace(): string {
  if (!existsSync(IN_CLUSTER_NAMESPACE_FILE)) {
    throw new Error('not running in-cluster, please specify LeaderElectionNamespace');
  }
  return readFileSync(IN_CLUSTER_NAMESPACE_FILE, 'utf8').trim();
}

/** leaderelection.NewResourceLock: undefined when leader election is off. */
export function newResourceLock(client: LeaseClient, o: LeaderElectionOptions): ResourceLock | undefined {
  if (!o.leaderElection) return undefined;
  if (o.leaderElectionLock) return o.leaderElectionLock;
  if (o.leaderElectionResourceLock && o.leaderElectionResourceLock !== 'leases') {
    throw new Error(`unsupported resource lock ${String(o.leaderElectionResourceLock)}`);
  }
  if (!o.leaderElectionID) throw new Error('LeaderElectionID must be configured');
  const namespace = o.leaderElectionNamespace || inClusterNamespace();
  const identity = o.identity ?? `${hostname()}_${randomUUID()}`;
  return new LeaseLock({
    namespace,
    name: o.leaderElectionID,
    identity,
    client,
    labels: o.leaderElectionLabels,
  });
}
