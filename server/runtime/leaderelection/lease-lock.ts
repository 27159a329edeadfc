// Ports client-go tools/leaderelection/resourcelock/leaselock.go: the record kept in the spec of a
// coordination.k8s.io/v1 Lease, read and written through the REST client.
import type { KubeObject } from '../../../shared/models/object';
import type { Client } from '../client/interfaces';
import type { LeaderElectionRecord, ResourceLock } from './resource-lock';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** What the lock needs from a client (client.Client's get/create/update). */
export type LeaseClient = Pick<Client, 'get' | 'create' | 'update'>;

export interface LeaseLockOptions {
  namespace: string;
  name: string;
  identity: string;
  client: LeaseClient;
  /** Labels put on a Lease this lock creates. */
  labels?: Record<string, string>;
}

const LEASE_TYPE = { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' };

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function parseTime(s: string | undefined): number {
  if (!s) return 0;
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
}

export function leaseSpecToRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? '',
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 0,
    acquireTime: parseTime(spec?.acquireTime),
    renewTime: parseTime(spec?.renewTime),
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}

export function recordToLeaseSpec(r: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

export class LeaseLock implements ResourceLock {
  private lease?: Lease;

  constructor(private readonly o: LeaseLockOptions) {
    if (!o.identity) throw new Error('Lock identity is empty');
  }

  async get(signal?: AbortSignal): Promise<{ record: LeaderElectionRecord; raw: string }> {
    this.lease = await this.o.client.get<Lease>(
      LEASE_TYPE,
      { namespace: this.o.namespace, name: this.o.name },
      { signal },
    );
    const record = leaseSpecToRecord(this.lease.spec);
    return { record, raw: JSON.stringify(record) };
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        namespace: this.o.namespace,
        name: this.o.name,
        ...(this.o.labels ? { labels: { ...this.o.labels } } : {}),
      },
      spec: recordToLeaseSpec(record),
    };
    this.lease = await this.o.client.create(lease);
  }

  async update(record: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    const next: Lease = {
      ...this.lease,
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      spec: recordToLeaseSpec(record),
    };
    if (this.o.labels) {
      next.metadata = { ...next.metadata, labels: { ...next.metadata.labels, ...this.o.labels } };
    }
    this.lease = await this.o.client.update(next);
  }

  identity(): string {
    return this.o.identity;
  }

  describe(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }
}
