// Scenarios from controller-runtime pkg/manager/manager_test.go and runnable_group_test.go, with an
// informer cache over scripted list-watches, a fake Lease client and a FakeClock.
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../../../shared/models/object';
import { InformerCache } from '../cache/informer-cache';
import type { Client } from '../client/interfaces';
import { newRegistry } from '../metrics/registry';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { Manager } from './manager';
import type { ManagerOptions } from './options';
import { runnableFunc, type Runnable } from './runnable';
import { Runnables } from './runnable-group';
import { Controller } from '../controller/controller';
import { reconcileFunc } from '../reconcile/reconcile';
import { funcSource } from '../source/source';

/** A tiny in-memory API for Leases (get/create/update with resourceVersion conflicts). */
function leaseStore(): Client {
  const objs = new Map<string, KubeObject>();
  let rv = 0;
  const k = (o: { namespace?: string; name?: string }): string => `${o.namespace}/${o.name}`;
  const c = {
    async get<T extends KubeObject>(_t: unknown, key: { namespace?: string; name: string }): Promise<T> {
      const o = objs.get(k(key));
      if (!o) throw new ApiError(404, 'NotFound', 'not found');
      return structuredClone(o) as T;
    },
    async create<T extends KubeObject>(o: T): Promise<T> {
      const s = { ...structuredClone(o), metadata: { ...o.metadata, resourceVersion: String(++rv) } };
      objs.set(k(o.metadata), s);
      return structuredClone(s);
    },
    async update<T extends KubeObject>(o: T): Promise<T> {
      const cur = objs.get(k(o.metadata));
      if (cur?.metadata.resourceVersion !== o.metadata.resourceVersion) throw new ApiError(409, 'Conflict', 'conflict');
      const s = { ...structuredClone(o), metadata: { ...o.metadata, resourceVersion: String(++rv) } };
      objs.set(k(o.metadata), s);
      return structuredClone(s);
    },
    list: async () => ({ metadata: {}, items: [] }) as KubeList,
    holder: () => (objs.get('default/test-lease')?.spec as { holderIdentity?: string } | undefined)?.holderIdentity,
  };
  return c as unknown as Client;
}

function newTestManager(o: Partial<ManagerOptions> = {}, clock = new FakeClock()) {
  const probe = new RecordingProbe();
  const client = o.client ?? leaseStore();
  const m = new Manager(undefined, {
    clock,
    probe,
    registry: newRegistry(false),
    client,
    newCache: () =>
      new InformerCache({
        clock,
        newListerWatcher: async () => new ScriptedListWatch({ clock }),
        isNamespaced: async () => true,
      }),
    ...o,
  });
  return { m, clock, probe, client };
}

/** Advances the fake clock in steps until cond holds. */
async function until(clock: FakeClock, cond: () => boolean, stepMs = 100, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (cond()) return;
    await clock.advance(stepMs);
  }
  throw new Error('condition never held');
}

describe('Manager.Start', () => {
  it('starts the cache (synced) before ordinary runnables, in group order', async () => {
    const { m, clock, probe } = newTestManager();
    const order: string[] = [];
    let cacheReady = false;
    m.add({
      start: async (s: AbortSignal) => {
        order.push('cluster');
        await new Promise((r) => s.addEventListener('abort', r));
      },
      waitForCacheSync: async (s: AbortSignal) => {
        while (!cacheReady && !s.aborted) await clock.sleep(100, s).catch(() => undefined);
        return cacheReady;
      },
      getCache: () => undefined,
    } as Runnable);
    m.add(runnableFunc(async () => void order.push('runnable')));
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await clock.advance(500);
    expect(order).toEqual(['cluster']);
    cacheReady = true;
    await until(clock, () => order.length === 2);
    expect(order).toEqual(['cluster', 'runnable']);
    await m.elected();
    ac.abort();
    await run;
    expect(probe.ofKind('manager.lifecycle').map((e) => `${e.phase}${e.group ? `:${e.group}` : ''}`)).toEqual([
      'starting',
      'started:HTTPServers',
      'started:Webhooks',
      'started:Caches',
      'started:Others',
      'started:WarmupRunnables',
      'started:LeaderElection',
      'started',
      'stopping',
      'stopped',
    ]);
  });

  it('returns no error when cancelled while the caches sync', async () => {
    const { m, clock } = newTestManager();
    m.add({
      start: async (s: AbortSignal) => void (await new Promise((r) => s.addEventListener('abort', r))),
      waitForCacheSync: async () => new Promise<boolean>(() => undefined),
      getCache: () => undefined,
    } as Runnable);
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await clock.advance(300);
    ac.abort();
    await expect(run).resolves.toBeUndefined();
    expect(m.isLeader()).toBe(false);
  });

  it('returns a runnable error from Start', async () => {
    const { m, clock } = newTestManager();
    m.add(runnableFunc(async () => Promise.reject(new Error('expected error'))));
    const run = m.start(new AbortController().signal).catch((e: Error) => e.message);
    await until(clock, () => false, 100, 5).catch(() => undefined);
    expect(await run).toBe('expected error');
  });

  it('refuses a second start and runnables added after stop', async () => {
    const { m, clock } = newTestManager();
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await expect(m.start(ac.signal)).rejects.toThrow('manager already started');
    await clock.advance(200);
    ac.abort();
    await run;
    expect(() => m.add(runnableFunc(async () => undefined))).toThrow(
      "can't accept new runnable as stop procedure is already engaged",
    );
  });

  it('with GracefulShutdownTimeout 0 returns without waiting for runnables', async () => {
    const { m, clock } = newTestManager({ gracefulShutdownTimeoutMs: 0 });
    let finished = false;
    m.add(
      runnableFunc(async (s) => {
        await new Promise((r) => s.addEventListener('abort', r));
        await clock.sleep(100);
        finished = true;
      }),
    );
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await until(clock, () => m.isLeader());
    ac.abort();
    await run;
    expect(finished).toBe(false);
  });

  it('with a negative timeout waits for slow runnables', async () => {
    const { m, clock } = newTestManager({ gracefulShutdownTimeoutMs: -1 });
    let finished = false;
    m.add(
      runnableFunc(async (s) => {
        await new Promise((r) => s.addEventListener('abort', r));
        await clock.sleep(1500);
        finished = true;
      }),
    );
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await until(clock, () => m.isLeader());
    ac.abort();
    let done = false;
    void run.then(() => (done = true));
    await clock.advance(1000);
    expect(done).toBe(false);
    await clock.advance(600);
    await run;
    expect(finished).toBe(true);
  });

  it('reports runnables that outlive the grace period', async () => {
    const { m, clock } = newTestManager({ gracefulShutdownTimeoutMs: 1000 });
    m.add(runnableFunc(() => new Promise<void>(() => undefined)));
    const ac = new AbortController();
    const run = m.start(ac.signal).catch((e: Error) => e.message);
    await until(clock, () => m.isLeader());
    ac.abort();
    await clock.advance(1000);
    expect(await run).toBe(
      'failed waiting for all runnables to end within grace period of 1s: context deadline exceeded',
    );
  });
});

describe('Manager leader election', () => {
  const le = { leaderElection: true, leaderElectionID: 'test-lease', leaderElectionNamespace: 'default' };

  it('runs leader-election runnables only once elected, and releases on cancel when asked', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const { m } = newTestManager({ ...le, identity: 'one', client, leaderElectionReleaseOnCancel: true }, clock);
    let ran = false;
    m.add(runnableFunc(async () => void (ran = true)));
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await until(clock, () => m.isLeader());
    await m.elected();
    expect(ran).toBe(true);
    expect((client as unknown as { holder(): string }).holder()).toBe('one');
    ac.abort();
    await run;
    expect((client as unknown as { holder(): string }).holder()).toBe('');
  });

  it('a second manager with the same ID is never elected while the first holds the lease', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const first = newTestManager({ ...le, identity: 'one', client }, clock).m;
    const second = newTestManager({ ...le, identity: 'two', client }, clock).m;
    let secondRan = false;
    second.add(runnableFunc(async () => void (secondRan = true)));
    const ac = new AbortController();
    const r1 = first.start(ac.signal);
    await until(clock, () => first.isLeader());
    const r2 = second.start(ac.signal);
    await clock.advance(60_000);
    expect(second.isLeader()).toBe(false);
    expect(secondRan).toBe(false);
    ac.abort();
    await Promise.all([r1, r2]);
  });

  it('starts warmup-enabled controllers before election, others only once elected', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const first = newTestManager({ ...le, identity: 'one', client }, clock).m;
    const second = newTestManager({ ...le, identity: 'two', client }, clock).m;
    const started: string[] = [];
    for (const [name, enableWarmup] of [
      ['warm', true],
      ['cold', false],
    ] as const) {
      const c = new Controller({
        name,
        enableWarmup,
        clock,
        registry: newRegistry(false),
        reconciler: reconcileFunc(async () => ({})),
      });
      await c.watch(funcSource(() => void started.push(name)));
      second.add(c);
    }
    expect(second.getControllers().map((c) => c.name)).toEqual(['warm', 'cold']);
    expect(second.getController('warm')?.name).toBe('warm');
    const ac = new AbortController();
    const r1 = first.start(ac.signal);
    await until(clock, () => first.isLeader());
    const r2 = second.start(ac.signal);
    await clock.advance(10_000);
    expect(second.isLeader()).toBe(false);
    expect(started).toEqual(['warm']);
    ac.abort();
    await Promise.all([r1, r2]);
  });

  it('keeps controllers that do not need leader election out of the election gate', () => {
    const r = new Runnables(new FakeClock(), () => undefined);
    expect(r.groupFor({ start: async () => undefined, needLeaderElection: () => false } as Runnable)).toBe('Others');
    expect(r.groupFor({ start: async () => undefined, needLeaderElection: () => true } as Runnable)).toBe(
      'LeaderElection',
    );
    expect(r.groupFor(runnableFunc(async () => undefined))).toBe('LeaderElection');
    expect(r.groupFor({ kind: 'server', start: async () => undefined } as Runnable)).toBe('HTTPServers');
    expect(r.groupFor({ kind: 'webhook', start: async () => undefined } as Runnable)).toBe('Webhooks');
    expect(
      r.groupFor({ start: async () => undefined, waitForCacheSync: async () => true, getCache: () => 1 } as Runnable),
    ).toBe('Caches');
  });

  it('requires a leader election ID and a namespace outside a cluster', () => {
    expect(() => newTestManager({ leaderElection: true, leaderElectionNamespace: 'default' })).toThrow(
      'LeaderElectionID must be configured',
    );
    expect(() => newTestManager({ leaderElection: true, leaderElectionID: 'x' })).toThrow(
      'not running in-cluster, please specify LeaderElectionNamespace',
    );
  });
});

describe('Manager health probes', () => {
  it('serves readiness and liveness over HTTP, 500 while a check fails', async () => {
    const { m, clock } = newTestManager({ healthProbeBindAddress: '127.0.0.1:0' });
    let healthy = false;
    m.addReadyzCheck('check', () => {
      if (!healthy) throw new Error('not yet');
    });
    m.addHealthzCheck('ping', () => undefined);
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await until(clock, () => m.isLeader());
    expect(() => m.addReadyzCheck('late', () => undefined)).toThrow(
      'unable to add new checker because healthz endpoint has already been created',
    );
    const { port } = await (
      m.getHealthProbeServer() as NonNullable<ReturnType<Manager['getHealthProbeServer']>>
    ).address();
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(500);
    healthy = true;
    const r = await fetch(`${base}/readyz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await r.text()).toBe('ok');
    expect((await fetch(`${base}/readyz/check`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    ac.abort();
    await run;
    await flushMicrotasks();
  });
});

// manager_test.go: leader election during shutdown and the stop procedure's errors.
describe('Manager stop procedure', () => {
  const le = { leaderElection: true, leaderElectionID: 'test-lease', leaderElectionNamespace: 'default' };
  type Holder = { holder(): string };

  it('cancels leader election only after every runnable is done (the lease is held until then)', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const { m } = newTestManager(
      { ...le, identity: 'one', client, leaderElectionReleaseOnCancel: true, gracefulShutdownTimeoutMs: 1000 },
      clock,
    );
    let holderWhenRunnableDone: string | undefined;
    m.add(
      runnableFunc(async (signal) => {
        await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
        await clock.sleep(100);
        holderWhenRunnableDone = (client as unknown as Holder).holder();
      }),
    );
    const ac = new AbortController();
    const run = m.start(ac.signal);
    await until(clock, () => m.isLeader());
    ac.abort();
    await clock.advance(100);
    await run;
    expect(holderWhenRunnableDone).toBe('one');
    expect((client as unknown as Holder).holder()).toBe('');
  });

  it('a manager stopped before it was elected never becomes leader afterwards', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const first = newTestManager({ ...le, identity: 'one', client, leaderElectionReleaseOnCancel: true }, clock).m;
    const second = newTestManager({ ...le, identity: 'two', client }, clock).m;
    let secondRan = false;
    second.add(runnableFunc(async () => void (secondRan = true)));
    const ac1 = new AbortController();
    const ac2 = new AbortController();
    const r1 = first.start(ac1.signal);
    await until(clock, () => first.isLeader());
    const r2 = second.start(ac2.signal);
    await clock.advance(5_000);
    ac2.abort();
    await r2;
    ac1.abort();
    await r1;
    await clock.advance(60_000);
    expect(second.isLeader()).toBe(false);
    expect(secondRan).toBe(false);
    expect((client as unknown as Holder).holder()).toBe('');
  });

  it('a stopping manager that wins the lease does not start its leader-election runnables', async () => {
    const clock = new FakeClock();
    const client = leaseStore();
    const first = newTestManager({ ...le, identity: 'one', client, leaderElectionReleaseOnCancel: true }, clock).m;
    const second = newTestManager({ ...le, identity: 'two', client, gracefulShutdownTimeoutMs: 60_000 }, clock).m;
    let secondRan = false;
    second.add(runnableFunc(async () => void (secondRan = true)));
    // Slow to stop, so the second's elector is still trying while the manager is stopping.
    second.add({
      needLeaderElection: () => false,
      start: async (signal: AbortSignal) => {
        await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
        await clock.sleep(30_000);
      },
    } as Runnable);
    const ac1 = new AbortController();
    const ac2 = new AbortController();
    const r1 = first.start(ac1.signal);
    await until(clock, () => first.isLeader());
    const r2 = second.start(ac2.signal);
    await clock.advance(1_000);
    ac2.abort();
    ac1.abort();
    await r1;
    expect((client as unknown as Holder).holder()).toBe('');
    await clock.advance(20_000);
    await clock.advance(20_000);
    await r2;
    expect(secondRan).toBe(false);
  });

  it('returns both the runnable error and the stop error when both happen', async () => {
    const { m, clock } = newTestManager({ gracefulShutdownTimeoutMs: 1000 });
    m.add(runnableFunc(() => new Promise<void>(() => undefined)));
    m.add(runnableFunc(async () => Promise.reject(new Error('runnable failed'))));
    let out: string | undefined;
    void m.start(new AbortController().signal).catch((e: Error) => (out = e.message));
    await until(clock, () => out !== undefined);
    expect(out).toBe(
      '[runnable failed, failed waiting for all runnables to end within grace period of 1s: context deadline exceeded]',
    );
  });

  it('returns only the stop error when no runnable failed', async () => {
    const { m, clock } = newTestManager({ gracefulShutdownTimeoutMs: 1000 });
    m.add(runnableFunc(() => new Promise<void>(() => undefined)));
    const ac = new AbortController();
    let out: string | undefined;
    void m.start(ac.signal).catch((e: Error) => (out = e.message));
    await until(clock, () => m.isLeader());
    ac.abort();
    await until(clock, () => out !== undefined);
    expect(out).toBe('failed waiting for all runnables to end within grace period of 1s: context deadline exceeded');
  });
});
