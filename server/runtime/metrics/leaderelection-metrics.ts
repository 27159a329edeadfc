// Ports controller-runtime pkg/metrics/leaderelection.go: leader_election_master_status and slowpath_total.
import type { Counter, Gauge, Registry } from 'prom-client';
import { counterOn, gaugeOn, registry as defaultRegistry } from './registry';

export interface LeaderElectionMetrics {
  masterStatus: Gauge<string>;
  slowpathTotal: Counter<string>;
}

export function leaderElectionMetrics(reg: Registry = defaultRegistry): LeaderElectionMetrics {
  return {
    masterStatus: gaugeOn(
      reg,
      'leader_election_master_status',
      'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
      ['name'],
    ),
    slowpathTotal: counterOn(
      reg,
      'leader_election_slowpath_total',
      'Total number of slow path exercised in renewing leader leases.',
      ['name'],
    ),
  };
}
