// Scenarios from controller-runtime pkg/builder/controller_test.go, on a fake manager and fake informers.
import { describe, expect, it } from 'vitest';
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import type { Controller } from '../controller/controller';
import type { ControllerConfig } from '../controller/options';
import { enqueueRequestForObject } from '../handler/enqueue';
import { newRegistry } from '../metrics/registry';
import { predicateFuncs, type Predicate } from '../predicate/predicate';
import { NULL_LOGGER } from '../reconcile/logger';
import { reconcileFunc, requestKey, type Request } from '../reconcile/reconcile';
import { funcSource } from '../source/source';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { FakeInformerCache } from '../testing/fake-informer';
import { NOOP_PROBE } from '../instrumentation/probe';
import { Manager } from '../manager/manager';
import { InformerCache } from '../cache/informer-cache';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import type { Client } from '../client/interfaces';
import { RecordingProbe } from '../testing/recording-probe';
import { defaultTypedItemBasedRateLimiter } from '../workqueue/rate-limiters';
import { matchEveryOwner, withPredicates } from './options';
import { newControllerManagedBy, type BuilderManager } from './controller';

const DEPLOY: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'Deployment' };
const RS: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };

function fakeManager(controller: ControllerConfig = {}) {
  const cache = new FakeInformerCache();
  const added: Controller[] = [];
  const clock = new FakeClock();
  const mgr: BuilderManager = {
    getCache: () => cache,
    getControllerOptions: () => controller,
    add: (c) => added.push(c),
    isNamespaced: async () => true,
    clock,
    probe: NOOP_PROBE,
    registry: newRegistry(false),
    log: NULL_LOGGER,
  };
  return { mgr, cache, added, clock };
}

const noop = reconcileFunc(async () => ({}));

describe('Builder validation', () => {
  it('builds a controller for For + Owns and adds it to the manager', async () => {
    const { mgr, added } = fakeManager();
    const c = await newControllerManagedBy(mgr).for('apps/v1/ReplicaSet').owns('v1/Pod').build(noop);
    expect(c.name).toBe('replicaset');
    expect(added).toEqual([c]);
  });

  it('reports the upstream errors', async () => {
    const { mgr } = fakeManager();
    await expect(newControllerManagedBy(mgr).for('v1/Pod').build(undefined)).rejects.toThrow(
      'must provide a non-nil Reconciler',
    );
    await expect(newControllerManagedBy(undefined).for('v1/Pod').build(noop)).rejects.toThrow(
      'must provide a non-nil Manager',
    );
    await expect(newControllerManagedBy(mgr).for('v1/Pod').for('apps/v1/Deployment').build(noop)).rejects.toThrow(
      'For(...) should only be called once, could not assign multiple objects for reconciliation',
    );
    await expect(
      newControllerManagedBy(mgr).for('v1/Pod').withOptions({ reconciler: noop }).build(noop),
    ).rejects.toThrow('reconciler was set via WithOptions() and via Build() or Complete()');
    await expect(newControllerManagedBy(mgr).for('Gizmo').build(noop)).rejects.toThrow(
      'no kind is registered for the type Gizmo',
    );
    await expect(newControllerManagedBy(mgr).watches('v1/Pod', enqueueRequestForObject()).build(noop)).rejects.toThrow(
      'one of For() or Named() must be called',
    );
    await expect(newControllerManagedBy(mgr).named('owns-only').owns('v1/Pod').build(noop)).rejects.toThrow(
      'Owns() can only be used together with For()',
    );
    await expect(newControllerManagedBy(mgr).named('nothing').build(noop)).rejects.toThrow(
      'there are no watches configured, controller will never get triggered. Use For(), Owns(), Watches() or WatchesRawSource() to set them up',
    );
  });

  it('builds without For when Named and Watches are given', async () => {
    const { mgr } = fakeManager();
    const c = await newControllerManagedBy(mgr)
      .named('watcher')
      .watches('v1/Pod', enqueueRequestForObject())
      .build(noop);
    expect(c.name).toBe('watcher');
  });

  it('passes MaxConcurrentReconciles from WithOptions or GroupKindConcurrency', async () => {
    const a = fakeManager();
    const c1 = await newControllerManagedBy(a.mgr).for(DEPLOY).withOptions({ maxConcurrentReconciles: 5 }).build(noop);
    expect(c1.maxConcurrentReconciles()).toBe(5);
    const b = fakeManager({ groupKindConcurrency: { 'ReplicaSet.apps': 10 } });
    const c2 = await newControllerManagedBy(b.mgr).for(RS).build(noop);
    expect(c2.maxConcurrentReconciles()).toBe(10);
  });

  it('requires distinct names for two controllers of the same kind', async () => {
    const { mgr } = fakeManager();
    await newControllerManagedBy(mgr).for(DEPLOY).build(noop);
    await expect(newControllerManagedBy(mgr).for(DEPLOY).build(noop)).rejects.toThrow(
      'controller with name deployment already exists',
    );
    await expect(newControllerManagedBy(mgr).for(DEPLOY).named('deployment-2').build(noop)).resolves.toBeDefined();
  });

  it('accepts raw sources without global predicates', async () => {
    const { mgr } = fakeManager();
    let started = false;
    const c = await newControllerManagedBy(mgr)
      .named('raw')
      .withEventFilter(predicateFuncs({ create: () => false }))
      .watchesRawSource(funcSource(() => void (started = true)))
      .build(noop);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    expect(started).toBe(true);
    ac.abort();
    await run;
  });
});

describe('Builder wiring', () => {
  const deployment = (name: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace: 'default', name, uid: `uid-${name}` },
  });
  const replicaSet = (name: string, owner: string, controller = true): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      namespace: 'default',
      name,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: `uid-${owner}`, controller }],
    },
  });

  function counting(name: string): { p: Predicate; kinds: string[] } {
    const kinds: string[] = [];
    return { p: predicateFuncs({ name, create: (e) => (kinds.push(e.object?.kind ?? ''), true) }), kinds };
  }

  it('scopes For/Owns predicates to their types and global filters to all, and reconciles owners', async () => {
    const { mgr, cache } = fakeManager();
    const deploy = counting('deploy');
    const rs = counting('rs');
    const all = counting('all');
    const seen: string[] = [];
    const c = await newControllerManagedBy(mgr)
      .for(DEPLOY, withPredicates(deploy.p))
      .owns(RS, withPredicates(rs.p))
      .withEventFilter(all.p)
      .build(reconcileFunc(async (_ctx, req: Request) => void seen.push(requestKey(req))));
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    cache.informerFor(DEPLOY).add(deployment('d1'));
    cache.informerFor(RS).add(replicaSet('rs1', 'd2'));
    cache.informerFor(RS).add(replicaSet('rs2', 'd3', false));
    await flushMicrotasks();
    expect(deploy.kinds).toEqual(['Deployment']);
    expect(rs.kinds).toEqual(['ReplicaSet', 'ReplicaSet']);
    expect(all.kinds.length).toBeGreaterThanOrEqual(2);
    expect(seen.sort()).toEqual(['default/d1', 'default/d2']);
    ac.abort();
    await run;
  });

  it('with MatchEveryOwner enqueues non-controller owners too', async () => {
    const { mgr, cache } = fakeManager();
    const seen: string[] = [];
    const c = await newControllerManagedBy(mgr)
      .for(DEPLOY)
      .owns(RS, matchEveryOwner)
      .build(reconcileFunc(async (_ctx, req) => void seen.push(requestKey(req))));
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    cache.informerFor(RS).add(replicaSet('rs2', 'd3', false));
    await flushMicrotasks();
    expect(seen).toEqual(['default/d3']);
    ac.abort();
    await run;
  });

  it('works with the real Manager type', async () => {
    const clock = new FakeClock();
    const m = new Manager(undefined, {
      clock,
      registry: newRegistry(false),
      client: {} as Client,
      newCache: () =>
        new InformerCache({
          clock,
          newListerWatcher: async () => new ScriptedListWatch({ clock }),
          isNamespaced: async () => true,
        }),
    });
    const c = await newControllerManagedBy(m).for('v1/Pod').build(noop);
    expect(c.name).toBe('pod');
  });
});

describe('Builder wiring as the controller reports it', () => {
  async function started(build: (mgr: BuilderManager) => Promise<Controller>) {
    const f = fakeManager();
    const probe = new RecordingProbe();
    const mgr: BuilderManager = { ...f.mgr, probe };
    const c = await build(mgr);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    ac.abort();
    await run;
    return probe.ofKind('controller.lifecycle');
  }

  it('names For, every Owns and Watches, the queue kind and the limiter, on every phase', async () => {
    const events = await started((mgr) =>
      newControllerManagedBy(mgr)
        .for(DEPLOY)
        .owns(RS)
        .watches('v1/Pod', enqueueRequestForObject())
        .watchesRawSource(funcSource(() => {}))
        .build(noop),
    );
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) {
      expect(e.sources).toEqual([
        { role: 'for', kind: 'apps/v1/Deployment', handler: 'EnqueueRequestForObject' },
        { role: 'owns', kind: 'apps/v1/ReplicaSet', handler: 'EnqueueRequestForOwner' },
        { role: 'watches', kind: 'v1/Pod', handler: 'EnqueueRequestForObject' },
        { role: 'raw' },
      ]);
      expect(e.queueKind).toBe('priority');
      expect(e.rateLimiter).toBe('default');
    }
  });

  it('says when the queue is client-go’s or the user’s, and when the limiter is the user’s', async () => {
    const classic = await started((mgr) =>
      newControllerManagedBy(mgr).for(DEPLOY).withOptions({ usePriorityQueue: false }).build(noop),
    );
    expect(classic[0]).toMatchObject({ queueKind: 'rateLimiting', rateLimiter: 'default' });
    const custom = await started((mgr) =>
      newControllerManagedBy(mgr)
        .for(RS)
        .withOptions({ rateLimiter: defaultTypedItemBasedRateLimiter<Request>() })
        .build(noop),
    );
    expect(custom[0]).toMatchObject({ queueKind: 'priority', rateLimiter: 'custom' });
  });
});
