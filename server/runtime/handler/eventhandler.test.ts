// Scenarios from controller-runtime pkg/handler/eventhandler_test.go.
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../../shared/models/object';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { requestKey, type Request } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { NOOP_PROBE } from '../instrumentation/probe';
import { PriorityQueue } from '../workqueue/priority-queue';
import { enqueueRequestForObject } from './enqueue';
import { enqueueRequestsFromMapFunc } from './enqueue-mapped';
import { enqueueRequestForOwner } from './enqueue-owner';
import {
  funcs,
  LOW_PRIORITY,
  withLowPriorityWhenUnchanged,
  type EventHandler,
  type HandlerContext,
} from './eventhandler';

const ctx: HandlerContext = { signal: new AbortController().signal };
const pod = (ns: string, name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: ns, name, resourceVersion: '1', ...extra },
});
const keys = (q: FakeRequestQueue): string[] => q.queued().map(requestKey);

describe('EnqueueRequestForObject', () => {
  const h = enqueueRequestForObject();
  it('enqueues a request for Create, Delete and Generic events', () => {
    for (const ev of ['create', 'delete', 'generic'] as const) {
      const q = new FakeRequestQueue();
      h[ev](ctx, { object: pod('biz', 'baz') }, q);
      expect(keys(q)).toEqual(['biz/baz']);
      expect(q.calls[0]?.cause).toMatchObject({ type: 'event', eventType: ev, source: { name: 'baz' } });
    }
  });
  it('enqueues only the new object for an update', () => {
    const q = new FakeRequestQueue();
    h.update(ctx, { objectOld: pod('biz', 'baz'), objectNew: pod('biz2', 'baz2') }, q);
    expect(keys(q)).toEqual(['biz2/baz2']);
  });
  it('falls back to the old object when the new one is missing, and vice versa', () => {
    const q1 = new FakeRequestQueue();
    h.update(ctx, { objectOld: undefined, objectNew: pod('biz', 'baz') }, q1);
    expect(keys(q1)).toEqual(['biz/baz']);
    const q2 = new FakeRequestQueue();
    h.update(ctx, { objectOld: pod('biz', 'baz'), objectNew: undefined }, q2);
    expect(keys(q2)).toEqual(['biz/baz']);
  });
  it('enqueues nothing for a missing object', () => {
    const q = new FakeRequestQueue();
    h.create(ctx, { object: undefined }, q);
    h.delete(ctx, { object: undefined }, q);
    h.generic(ctx, { object: undefined }, q);
    expect(q.len()).toBe(0);
  });
  it('marks updates with an unchanged resourceVersion as resync', () => {
    const q = new FakeRequestQueue();
    h.update(ctx, { objectOld: pod('biz', 'baz'), objectNew: pod('biz', 'baz') }, q);
    expect(q.calls[0]?.cause?.type).toBe('resync');
  });
});

describe('EnqueueRequestsFromMapFunc', () => {
  it('enqueues every mapped request', () => {
    const q = new FakeRequestQueue();
    const h = enqueueRequestsFromMapFunc(() => [
      { namespace: 'foo', name: 'bar' },
      { namespace: 'biz', name: 'baz' },
    ]);
    h.create(ctx, { object: pod('biz', 'baz') }, q);
    expect(q.len()).toBe(2);
    expect(q.calls.map((c) => c.cause?.type)).toEqual(['mapped', 'mapped']);
  });
  it('maps both the old and the new object on updates', () => {
    const q = new FakeRequestQueue();
    const h = enqueueRequestsFromMapFunc((_c, o) => [
      { namespace: 'foo', name: `${o.metadata.name}-bar` },
      { namespace: 'biz', name: `${o.metadata.name}-baz` },
    ]);
    h.update(ctx, { objectOld: pod('biz', 'baz'), objectNew: pod('biz', 'baz', { resourceVersion: '2' }) }, q);
    expect(keys(q)).toEqual(['foo/baz-bar', 'biz/baz-baz']);
  });
  it('awaits asynchronous map functions', async () => {
    const q = new FakeRequestQueue();
    const h = enqueueRequestsFromMapFunc(async () => [{ namespace: 'a', name: 'b' }]);
    await h.generic(ctx, { object: pod('biz', 'baz') }, q);
    expect(keys(q)).toEqual(['a/b']);
  });
});

describe('EnqueueRequestForOwner', () => {
  const ref = (name: string, o: Partial<OwnerReference> = {}): OwnerReference => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name,
    uid: `uid-${name}`,
    ...o,
  });
  const owned = (ns: string, refs: OwnerReference[]): KubeObject => pod(ns, 'foo', { ownerReferences: refs });
  const h = enqueueRequestForOwner({ ownerType: 'apps/v1/ReplicaSet' });

  it('enqueues the owner for Create, Delete and Generic', () => {
    for (const ev of ['create', 'delete', 'generic'] as const) {
      const q = new FakeRequestQueue();
      h[ev](ctx, { object: owned('biz', [ref('foo-parent')]) }, q);
      expect(keys(q)).toEqual(['biz/foo-parent']);
      expect(q.calls[0]?.cause).toMatchObject({ type: 'owner', eventType: ev, source: { name: 'foo' } });
    }
  });
  it('enqueues the owners of both objects on update, each in its own namespace', () => {
    const q = new FakeRequestQueue();
    h.update(
      ctx,
      { objectOld: owned('biz1', [ref('foo1-parent')]), objectNew: owned('biz2', [ref('foo2-parent')]) },
      q,
    );
    expect(keys(q).sort()).toEqual(['biz1/foo1-parent', 'biz2/foo2-parent']);
  });
  it("traces every owner an update enqueues to the version the event delivered, not the old object's", () => {
    // The old object named one owner and the new one another: both are enqueued, and both causes are the
    // update that made rv 359 (from rv 319), so the write behind them can be found by that version.
    const q = new FakeRequestQueue();
    const before = {
      ...owned('biz', [ref('old-parent')]),
      metadata: { ...owned('biz', [ref('old-parent')]).metadata, resourceVersion: '319' },
    };
    const after = {
      ...owned('biz', [ref('new-parent')]),
      metadata: { ...owned('biz', [ref('new-parent')]).metadata, resourceVersion: '359' },
    };
    h.update(ctx, { objectOld: before, objectNew: after }, q);
    expect(q.calls.map((c) => c.cause)).toEqual([
      expect.objectContaining({
        type: 'owner',
        eventType: 'update',
        source: expect.objectContaining({ resourceVersion: '359' }),
        previousResourceVersion: '319',
      }),
      expect.objectContaining({
        type: 'owner',
        eventType: 'update',
        source: expect.objectContaining({ resourceVersion: '359' }),
        previousResourceVersion: '319',
      }),
    ]);
  });
  it('de-duplicates the same owner on update', () => {
    const q = new FakeRequestQueue();
    h.update(ctx, { objectOld: owned('biz', [ref('foo-parent')]), objectNew: owned('biz', [ref('foo-parent')]) }, q);
    expect(q.count('add')).toBe(1);
  });
  it('ignores owners of another group or kind', () => {
    const q = new FakeRequestQueue();
    h.create(
      ctx,
      { object: owned('biz', [ref('a', { apiVersion: 'extensions/v1' }), ref('b', { kind: 'Deployment' })]) },
      q,
    );
    expect(q.len()).toBe(0);
  });
  it('matches on group and kind, not version', () => {
    const q = new FakeRequestQueue();
    const hpa = enqueueRequestForOwner({ ownerType: 'autoscaling/v1/HorizontalPodAutoscaler' });
    hpa.create(
      ctx,
      { object: owned('biz', [ref('foo-parent', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' })]) },
      q,
    );
    expect(keys(q)).toEqual(['biz/foo-parent']);
  });
  it('uses an empty namespace for cluster-scoped owners', () => {
    const q = new FakeRequestQueue();
    const node = enqueueRequestForOwner({ ownerType: 'v1/Node' });
    node.create(ctx, { object: owned('biz', [ref('node-1', { apiVersion: 'v1', kind: 'Node' })]) }, q);
    expect(keys(q)).toEqual(['node-1']);
  });
  it('enqueues nothing without owners or objects', () => {
    const q = new FakeRequestQueue();
    h.create(ctx, { object: owned('biz', []) }, q);
    h.create(ctx, { object: undefined }, q);
    expect(q.len()).toBe(0);
  });
  it('with OnlyControllerOwner enqueues only the controller reference', () => {
    const q = new FakeRequestQueue();
    const only = enqueueRequestForOwner({ ownerType: 'apps/v1/ReplicaSet', onlyControllerOwner: true });
    const refs = [
      ref('foo1-parent'),
      ref('foo2-parent', { controller: true }),
      ref('foo3-parent'),
      ref('foo4-parent', { controller: true }),
      ref('foo5-parent'),
    ];
    only.create(ctx, { object: owned('biz', refs) }, q);
    expect(keys(q)).toEqual(['biz/foo2-parent']);
    const q2 = new FakeRequestQueue();
    only.create(ctx, { object: owned('biz', [ref('a'), ref('b')]) }, q2);
    expect(q2.len()).toBe(0);
  });
  it('without OnlyControllerOwner enqueues every matching owner', () => {
    const q = new FakeRequestQueue();
    h.create(ctx, { object: owned('biz', [ref('a'), ref('b', { controller: true }), ref('c')]) }, q);
    expect(q.len()).toBe(3);
  });
  it('stops on an invalid apiVersion', () => {
    const q = new FakeRequestQueue();
    const errors: unknown[] = [];
    const h2 = enqueueRequestForOwner({ ownerType: 'apps/v1/ReplicaSet', onError: (e) => errors.push(e) });
    h2.create(ctx, { object: owned('biz', [ref('x', { apiVersion: 'apps/v1/fail' })]) }, q);
    expect(q.len()).toBe(0);
    expect(errors).toHaveLength(1);
  });
  it('keeps the good owners before an invalid apiVersion, and the other object of an update', () => {
    const errors: unknown[] = [];
    const h2 = enqueueRequestForOwner({ ownerType: 'apps/v1/ReplicaSet', onError: (e) => errors.push(e) });
    const q = new FakeRequestQueue();
    h2.create(ctx, { object: owned('biz', [ref('good'), ref('x', { apiVersion: 'apps/v1/fail' })]) }, q);
    expect(keys(q)).toEqual(['biz/good']);
    const q2 = new FakeRequestQueue();
    h2.update(
      ctx,
      {
        objectOld: owned('biz', [ref('old-owner')]),
        objectNew: owned('biz', [ref('x', { apiVersion: 'apps/v1/fail' })]),
      },
      q2,
    );
    expect(keys(q2)).toEqual(['biz/old-owner']);
    expect(errors).toHaveLength(2);
  });
  it('throws without an owner type', () => {
    expect(() => enqueueRequestForOwner({ ownerType: undefined as unknown as string })).toThrow();
  });
  it('waits for an asynchronous scope lookup once', async () => {
    let lookups = 0;
    const h2 = enqueueRequestForOwner({
      ownerType: 'example.com/v1/Widget',
      isNamespaced: async () => {
        lookups++;
        return false;
      },
    });
    const q = new FakeRequestQueue();
    const w = (name: string): KubeObject =>
      owned('biz', [ref(name, { apiVersion: 'example.com/v1beta1', kind: 'Widget' })]);
    await h2.create(ctx, { object: w('w1') }, q);
    await h2.create(ctx, { object: w('w2') }, q);
    expect(keys(q)).toEqual(['w1', 'w2']);
    expect(lookups).toBe(1);
  });
});

describe('Funcs', () => {
  it('calls each function only when provided', () => {
    const seen: string[] = [];
    const h = funcs({ create: () => void seen.push('create'), generic: () => void seen.push('generic') });
    const q = new FakeRequestQueue();
    h.create(ctx, { object: pod('a', 'b') }, q);
    h.update(ctx, { objectOld: pod('a', 'b'), objectNew: pod('a', 'b') }, q);
    h.delete(ctx, { object: pod('a', 'b') }, q);
    h.generic(ctx, { object: pod('a', 'b') }, q);
    expect(seen).toEqual(['create', 'generic']);
  });
});

describe('WithLowPriorityWhenUnchanged', () => {
  const handlers = {
    object: enqueueRequestForObject(),
    mapped: enqueueRequestsFromMapFunc((_c, o) => [{ namespace: o.metadata.namespace ?? '', name: 'x' }]),
    owner: enqueueRequestForOwner({ ownerType: 'apps/v1/ReplicaSet' }),
  };
  const obj = (rv: string): KubeObject =>
    pod('ns', 'p', {
      resourceVersion: rv,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u' }],
    });
  for (const [name, h] of Object.entries(handlers)) {
    it(`${name}: initial-list creates and unchanged updates get low priority`, () => {
      const q = new FakeRequestQueue({ priority: true });
      h.create(ctx, { object: obj('1'), isInInitialList: true }, q);
      h.create(ctx, { object: obj('1') }, q);
      h.update(ctx, { objectOld: obj('1'), objectNew: obj('1') }, q);
      h.update(ctx, { objectOld: obj('1'), objectNew: obj('2') }, q);
      const prios = q.calls.map((c) => (c.op === 'addWithOpts' ? c.opts?.priority : 'plain'));
      expect(prios).toEqual([LOW_PRIORITY, 'plain', LOW_PRIORITY, 'plain']);
    });
    it(`${name}: plain queues get ordinary adds`, () => {
      const q = new FakeRequestQueue();
      h.create(ctx, { object: obj('1'), isInInitialList: true }, q);
      expect(q.calls.map((c) => c.op)).toEqual(['add']);
    });
  }
});

// eventhandler_test.go "WithLowPriorityWhenUnchanged", the custom-handler rows: a Funcs handler, and any
// handler wrapped by withLowPriorityWhenUnchanged, add through a view of the priority queue that defaults
// to LowPriority for initial-list creates and same-resourceVersion updates.
describe('WithLowPriorityWhenUnchanged: custom handlers', () => {
  const req = (o: KubeObject | undefined) => ({ namespace: o?.metadata.namespace ?? '', name: o?.metadata.name ?? '' });
  type Add = 'add' | 'addAfter' | 'addRateLimited' | 'addWithOpts';
  const custom = (how: Add, overridePriority?: number): EventHandler => {
    const put = (q: Parameters<EventHandler['create']>[2], o: KubeObject | undefined): void => {
      if (how === 'add') q.add(req(o));
      else if (how === 'addAfter') q.addAfter(req(o), 1000);
      else if (how === 'addRateLimited') q.addRateLimited(req(o));
      else q.addWithOpts?.(overridePriority !== undefined ? { priority: overridePriority } : {}, req(o));
    };
    return {
      name: 'custom',
      create: (_c, e, q) => put(q, e.object),
      update: (_c, e, q) => put(q, e.objectNew),
      delete: () => {},
      generic: () => {},
    };
  };
  const rows: { name: string; h: EventHandler; op: Add; after?: number; ratelimited?: boolean; prio?: number }[] = [
    {
      name: 'Funcs',
      h: funcs({ create: (_c, e, q) => q.add(req(e.object)), update: (_c, e, q) => q.add(req(e.objectNew)) }),
      op: 'add',
    },
    { name: 'wrapper - Add', h: withLowPriorityWhenUnchanged(custom('add')), op: 'add' },
    { name: 'wrapper - AddAfter', h: withLowPriorityWhenUnchanged(custom('addAfter')), op: 'addAfter', after: 1000 },
    {
      name: 'wrapper - AddRateLimited',
      h: withLowPriorityWhenUnchanged(custom('addRateLimited')),
      op: 'addRateLimited',
      ratelimited: true,
    },
    { name: 'wrapper - AddWithOpts', h: withLowPriorityWhenUnchanged(custom('addWithOpts')), op: 'addWithOpts' },
    {
      name: 'wrapper - AddWithOpts with a priority',
      h: withLowPriorityWhenUnchanged(custom('addWithOpts', 100)),
      op: 'addWithOpts',
      prio: 100,
    },
  ];
  for (const r of rows) {
    it(`${r.name}: low priority for an initial-list create and an unchanged update only`, () => {
      const q = new FakeRequestQueue({ priority: true });
      r.h.create(ctx, { object: pod('ns', 'a'), isInInitialList: true }, q);
      r.h.create(ctx, { object: pod('ns', 'b') }, q);
      r.h.update(ctx, { objectOld: pod('ns', 'c'), objectNew: pod('ns', 'c') }, q);
      r.h.update(ctx, { objectOld: pod('ns', 'd'), objectNew: pod('ns', 'd', { resourceVersion: '2' }) }, q);
      expect(q.calls.map((c) => c.op)).toEqual(['addWithOpts', 'addWithOpts', 'addWithOpts', 'addWithOpts']);
      const low = r.prio ?? LOW_PRIORITY;
      expect(q.calls.map((c) => c.opts?.priority)).toEqual([low, r.prio, low, r.prio]);
      for (const c of q.calls) {
        expect(c.opts?.after).toBe(r.after);
        expect(c.opts?.ratelimited).toBe(r.ratelimited);
      }
    });
    it(`${r.name}: no effect when the queue is not the priority queue`, () => {
      const q = new FakeRequestQueue();
      r.h.create(ctx, { object: pod('ns', 'a'), isInInitialList: true }, q);
      r.h.update(ctx, { objectOld: pod('ns', 'c'), objectNew: pod('ns', 'c') }, q);
      expect(q.calls.map((c) => c.op)).toEqual(r.op === 'addWithOpts' ? [] : [r.op, r.op]);
    });
  }
});

describe('funcs on the real priority queue, with no probe', () => {
  // The dashboard's probe wrapped the queue and hid it: a library user's manager crashed on the first event.
  it('adds through the queue itself (its methods keep their this)', async () => {
    const q = new PriorityQueue<Request>({ name: 'c', clock: new FakeClock(), probe: NOOP_PROBE });
    const h = funcs({ create: (_c, e, queue) => queue.add({ namespace: 'ns', name: e.object?.metadata.name ?? '' }) });
    expect(() => h.create(ctx, { object: pod('ns', 'a'), isInInitialList: true }, q)).not.toThrow();
    expect(q.len()).toBe(1);
    const got = await q.getWithPriority();
    expect(got.item).toEqual({ namespace: 'ns', name: 'a' });
    expect(got.priority).toBe(LOW_PRIORITY);
    q.shutDown();
  });
});
