// Scenarios from client-go tools/leaderelection/leaderelection_test.go (identity "baz") and the
// controller-runtime manager's leader-election behaviour, on a fake Lease client and a FakeClock.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { ObjectKey, ObjectType } from '../client/interfaces';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ApiError } from '../util/errors';
import { LeaderElector, validateLeaderElectionConfig, type LeaderElectionConfig } from './leader-elector';
import { LeaseLock, recordToLeaseSpec, type Lease, type LeaseClient } from './lease-lock';
import { newResourceLock } from './options';

/** An in-memory Lease store with resourceVersion conflicts, like the API server. */
class FakeLeaseClient implements LeaseClient {
  readonly leases = new Map<string, Lease>();
  private rv = 0;
  failUpdates = false;
  calls: string[] = [];

  private key(ns: string | undefined, name: string | undefined): string {
    return `${ns ?? ''}/${name ?? ''}`;
  }

  async get<T extends KubeObject = KubeObject>(_t: ObjectType, key: ObjectKey): Promise<T> {
    this.calls.push('get');
    const l = this.leases.get(this.key(key.namespace, key.name));
    if (!l) throw new ApiError(404, 'NotFound', `leases "${key.name}" not found`);
    return structuredClone(l) as unknown as T;
  }

  async create<T extends KubeObject>(obj: T): Promise<T> {
    this.calls.push('create');
    const k = this.key(obj.metadata.namespace, obj.metadata.name);
    if (this.leases.has(k)) throw new ApiError(409, 'AlreadyExists', 'already exists');
    const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.leases.set(k, stored as Lease);
    return structuredClone(stored);
  }

  async update<T extends KubeObject>(obj: T): Promise<T> {
    this.calls.push('update');
    if (this.failUpdates) throw new ApiError(500, 'InternalError', 'etcd down');
    const k = this.key(obj.metadata.namespace, obj.metadata.name);
    const cur = this.leases.get(k);
    if (!cur) throw new ApiError(404, 'NotFound', 'not found');
    if (cur.metadata.resourceVersion !== obj.metadata.resourceVersion) throw new ApiError(409, 'Conflict', 'conflict');
    const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.leases.set(k, stored as Lease);
    return structuredClone(stored);
  }

  /** Writes a lease as another candidate would. */
  put(holder: string, leaseDurationSeconds: number, at: number, transitions = 0): void {
    const k = 'default/the-lease';
    this.leases.set(k, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: 'default', name: 'the-lease', resourceVersion: String(++this.rv) },
      spec: recordToLeaseSpec({
        holderIdentity: holder,
        leaseDurationSeconds,
        acquireTime: at,
        renewTime: at,
        leaderTransitions: transitions,
      }),
    });
  }

  holder(): string | undefined {
    return this.leases.get('default/the-lease')?.spec?.holderIdentity;
  }
}

function setup(o: Partial<LeaderElectionConfig> = {}, identity = 'baz') {
  const clock = new FakeClock();
  const client = new FakeLeaseClient();
  const probe = new RecordingProbe();
  const events: string[] = [];
  const lock = new LeaseLock({ namespace: 'default', name: 'the-lease', identity, client });
  const le = new LeaderElector({
    lock,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    clock,
    probe,
    random: () => 0,
    callbacks: {
      onStartedLeading: () => void events.push('started'),
      onStoppedLeading: () => void events.push('stopped'),
      onNewLeader: (id) => void events.push(`leader:${id}`),
    },
    ...o,
  });
  return { clock, client, probe, events, le };
}

describe('tryAcquireOrRenew', () => {
  it('acquires from no object: NotFound → create', async () => {
    const { le, client } = setup();
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(client.calls).toEqual(['get', 'create']);
    expect(client.holder()).toBe('baz');
  });

  it('acquires from an object without a record, as a leader transition', async () => {
    const { le, client } = setup();
    client.leases.set('default/the-lease', {
      metadata: { namespace: 'default', name: 'the-lease', resourceVersion: '1' },
    });
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(client.leases.get('default/the-lease')?.spec?.leaseTransitions).toBe(1);
  });

  it('acquires from a lease held by bing once its duration passed since it was observed', async () => {
    const { le, client, clock } = setup();
    client.put('bing', 3, clock.now());
    expect(await le.tryAcquireOrRenew()).toBe(false);
    clock.step(3000);
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(client.holder()).toBe('baz');
  });

  it('acquires from an unled (empty holder) record', async () => {
    const { le, client, clock } = setup();
    client.put('', 15, clock.now());
    expect(await le.tryAcquireOrRenew()).toBe(true);
  });

  it('acquires an expired lease, counting a transition', async () => {
    const { le, client, clock } = setup();
    client.put('bing', 3, clock.now() - 3_600_000, 4);
    expect(await le.tryAcquireOrRenew()).toBe(false); // first observation starts the local clock
    clock.step(3001);
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(client.leases.get('default/the-lease')?.spec?.leaseTransitions).toBe(5);
  });

  it("doesn't acquire from a led, acked object", async () => {
    const { le, client, clock } = setup();
    client.put('bing', 15, clock.now());
    expect(await le.tryAcquireOrRenew()).toBe(false);
    clock.step(10_000);
    expect(await le.tryAcquireOrRenew()).toBe(false);
    expect(client.holder()).toBe('bing');
  });

  it('renews a lease already held by baz, keeping acquireTime and transitions', async () => {
    const { le, client, clock } = setup();
    client.put('baz', 15, clock.now(), 2);
    const acquired = client.leases.get('default/the-lease')?.spec?.acquireTime;
    clock.step(5000);
    expect(await le.tryAcquireOrRenew()).toBe(true);
    const spec = client.leases.get('default/the-lease')?.spec;
    expect(spec?.acquireTime).toBe(acquired);
    expect(spec?.leaseTransitions).toBe(2);
    expect(Date.parse(spec?.renewTime ?? '')).toBe(clock.now());
  });
});

describe('config validation', () => {
  const base = (o: Partial<LeaderElectionConfig>) => ({
    lock: new LeaseLock({ namespace: 'a', name: 'b', identity: 'me', client: new FakeLeaseClient() }),
    leaseDurationMs: 15_000,
    renewDeadlineMs: 2_000,
    retryPeriodMs: 1_000,
    callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined },
    ...o,
  });
  it('accepts {15s, 2s, 1s}', () => {
    expect(() => validateLeaderElectionConfig(base({}))).not.toThrow();
  });
  it('rejects bad durations and an empty identity', () => {
    expect(() => validateLeaderElectionConfig(base({ leaseDurationMs: 2_000 }))).toThrow(
      'leaseDuration must be greater than renewDeadline',
    );
    expect(() => validateLeaderElectionConfig(base({ renewDeadlineMs: 1_100 }))).toThrow('JitterFactor');
    expect(() => new LeaseLock({ namespace: 'a', name: 'b', identity: '', client: new FakeLeaseClient() })).toThrow(
      'Lock identity is empty',
    );
  });
});

describe('LeaderElector.run', () => {
  it('acquires, keeps renewing, and releases on cancel when asked', async () => {
    const { le, client, clock, events, probe } = setup({ releaseOnCancel: true });
    const ac = new AbortController();
    const run = le.run(ac.signal);
    await flushMicrotasks();
    expect(events).toContain('started');
    expect(client.holder()).toBe('baz');
    const firstRenew = client.leases.get('default/the-lease')?.spec?.renewTime;
    await clock.advance(2_000);
    expect(client.leases.get('default/the-lease')?.spec?.renewTime).not.toBe(firstRenew);
    ac.abort();
    await run;
    expect(events.at(-1)).toBe('stopped');
    expect(client.holder()).toBe('');
    expect(client.leases.get('default/the-lease')?.spec?.leaseDurationSeconds).toBe(1);
    expect(probe.ofKind('leaderelection.state').map((e) => e.phase)).toEqual(
      expect.arrayContaining(['acquiring', 'acquired', 'renewed', 'released']),
    );
  });

  it('loses leadership when renewals fail for the renew deadline', async () => {
    const { le, client, clock, events, probe } = setup();
    const ac = new AbortController();
    let leaderSignal: AbortSignal | undefined;
    const le2 = new LeaderElector({
      ...(le as unknown as { c: LeaderElectionConfig }).c,
      callbacks: {
        onStartedLeading: (s) => {
          leaderSignal = s;
          events.push('started');
        },
        onStoppedLeading: () => void events.push('stopped'),
      },
    });
    const run = le2.run(ac.signal);
    await flushMicrotasks();
    expect(leaderSignal?.aborted).toBe(false);
    client.failUpdates = true;
    await clock.advance(2_000 + 10_000);
    await run;
    expect(leaderSignal?.aborted).toBe(true);
    expect(events).toEqual(['started', 'stopped']);
    expect(probe.ofKind('leaderelection.state').some((e) => e.phase === 'lost')).toBe(true);
  });

  it('waits while another holder keeps the lease, then takes over after it expires', async () => {
    const { le, client, clock, events } = setup();
    client.put('bing', 15, clock.now());
    const ac = new AbortController();
    const run = le.run(ac.signal);
    await clock.advance(14_000);
    expect(events).toEqual(['leader:bing']);
    await clock.advance(4_000);
    expect(events).toEqual(['leader:bing', 'leader:baz', 'started']);
    ac.abort();
    await run;
  });

  it('never starts leading when cancelled before acquiring, but still calls onStoppedLeading', async () => {
    const { le, client, clock, events } = setup();
    client.put('bing', 15, clock.now());
    const ac = new AbortController();
    const run = le.run(ac.signal);
    await clock.advance(2_000);
    ac.abort();
    await run;
    expect(events).toEqual(['leader:bing', 'stopped']);
  });
});

describe('newResourceLock', () => {
  it('is undefined when leader election is off and requires an ID', () => {
    const c = new FakeLeaseClient();
    expect(newResourceLock(c, {})).toBeUndefined();
    expect(() => newResourceLock(c, { leaderElection: true, leaderElectionNamespace: 'default' })).toThrow(
      'LeaderElectionID must be configured',
    );
  });
  it('requires a namespace outside a cluster', () => {
    expect(() => newResourceLock(new FakeLeaseClient(), { leaderElection: true, leaderElectionID: 'x' })).toThrow(
      'not running in-cluster, please specify LeaderElectionNamespace',
    );
  });
  it('builds a Lease lock described as namespace/id', () => {
    const lock = newResourceLock(new FakeLeaseClient(), {
      leaderElection: true,
      leaderElectionID: 'my-id',
      leaderElectionNamespace: 'default',
    });
    expect(lock?.describe()).toBe('default/my-id');
    expect(lock?.identity()).toMatch(/_/);
  });
});
