// Scenarios from controller-runtime pkg/internal/controller/controller_test.go, on a counting fake queue.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { enqueueRequestForObject } from '../handler/enqueue';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc, type ReconcileContext, type Request, type Result } from '../reconcile/reconcile';
import { channelSource } from '../source/channel';
import { kindSource } from '../source/kind';
import { funcSource } from '../source/source';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { FakeInformerCache } from '../testing/fake-informer';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { RecordingProbe } from '../testing/recording-probe';
import { terminalError } from '../util/errors';
import { currentReconcileScope } from '../instrumentation/reconcile-scope';
import { Controller, isPanic } from './controller';
import type { ControllerOptions } from './options';

const req: Request = { namespace: 'foo', name: 'bar' };
type Step = Result | Error | (() => never);

/** A reconciler that plays back a script of results/errors and counts calls. */
function scripted(steps: Step[]) {
  const calls: Request[] = [];
  const r = reconcileFunc(async (_ctx, rq) => {
    calls.push(rq);
    const s = steps[Math.min(calls.length - 1, steps.length - 1)] ?? {};
    if (s instanceof Error) throw s;
    if (typeof s === 'function') return s();
    return s;
  });
  return { r, calls };
}

function make(o: Partial<ControllerOptions> & { queue?: FakeRequestQueue } = {}) {
  const queue = o.queue ?? new FakeRequestQueue();
  const registry = newRegistry(false);
  const clock = new FakeClock();
  const c = new Controller({
    name: 'testcontroller',
    reconciler: reconcileFunc(async () => ({})),
    registry,
    clock,
    newQueue: () => queue,
    ...o,
  });
  return { c, queue, registry, clock };
}

async function until(cond: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never reached: ${what}`);
}

async function metricValue(reg: ReturnType<typeof newRegistry>, name: string, labels: Record<string, string>) {
  const m = await reg.getSingleMetric(name)?.get();
  return m?.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val))?.value;
}

describe('Controller.Reconcile', () => {
  it('passes the Result through', async () => {
    const { r } = scripted([{ requeue: true }]);
    const ctx: ReconcileContext = { signal: new AbortController().signal, log: undefined as never, reconcileID: 'x' };
    await expect(r.reconcile(ctx, req)).resolves.toEqual({ requeue: true });
  });

  it('recovers a panic by default with an error containing [recovered]', async () => {
    const probe = new RecordingProbe();
    const { c, queue, registry } = make({
      probe,
      queue: new FakeRequestQueue({ requeueDelayed: false }),
      reconciler: reconcileFunc(async () => {
        const nil = undefined as unknown as { field: number };
        return { requeueAfterMs: nil.field };
      }),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => probe.ofKind('reconcile.end').length === 1);
    expect(probe.ofKind('reconcile.end')[0]).toMatchObject({
      outcome: 'panic',
      error: expect.stringContaining('[recovered]'),
    });
    expect(
      await metricValue(registry, 'controller_runtime_reconcile_panics_total', { controller: 'testcontroller' }),
    ).toBe(1);
    expect(queue.count('addRateLimited')).toBe(1);
    ac.abort();
    await run;
  });

  it('lets the panic propagate when RecoverPanic is false', async () => {
    const { c, queue } = make({
      recoverPanic: false,
      reconciler: reconcileFunc(async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'field')");
      }),
    });
    const run = c.start(new AbortController().signal);
    queue.add(req);
    await expect(run).rejects.toThrow(TypeError);
  });
});

describe('Controller.Start', () => {
  it('fails when a Kind source never syncs within CacheSyncTimeout', async () => {
    const cache = new FakeInformerCache();
    cache.synced = false;
    const { c, clock } = make({ name: 'foo', cacheSyncTimeoutMs: 1000 });
    const inf = cache.informerFor({ group: '', version: 'v1', kind: 'Pod' });
    inf.handlersSyncImmediately = false;
    cache.synced = true;
    await c.watch(kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject(), clock }));
    const run = c.start(new AbortController().signal).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    await clock.advance(1000);
    expect(await run).toContain('failed to wait for foo caches to sync');
  });

  it('times out when GetInformer blocks forever', async () => {
    const cache = new FakeInformerCache();
    cache.blockGetInformer = true;
    const { c, clock } = make({ cacheSyncTimeoutMs: 1000 });
    await c.watch(kindSource({ cache, kind: 'apps/v1/Deployment', handler: enqueueRequestForObject(), clock }));
    const run = c.start(new AbortController().signal).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    await clock.advance(1000);
    expect(await run).toContain(
      'failed to wait for testcontroller caches to sync kind source: *v1.Deployment: timed out waiting for cache to be synced',
    );
  });

  it('returns no error when its context is cancelled during WaitForSync', async () => {
    const cache = new FakeInformerCache();
    cache.blockGetInformer = true;
    const { c } = make();
    await c.watch(kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject() }));
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    ac.abort();
    await expect(run).resolves.toBeUndefined();
  });

  it('rejects a source whose Start blocks', async () => {
    const { c, clock } = make({ cacheSyncTimeoutMs: 1000 });
    await c.watch(funcSource(() => new Promise<void>(() => undefined)));
    const run = c.start(new AbortController().signal).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    await clock.advance(1000);
    expect(await run).toContain('Please ensure that its Start() method is non-blocking');
  });

  it('starts with a synced source and a 10s timeout', async () => {
    const cache = new FakeInformerCache();
    const probe = new RecordingProbe();
    const { c } = make({ cacheSyncTimeoutMs: 10_000, probe });
    await c.watch(kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject() }));
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await until(() => probe.ofKind('controller.lifecycle').some((e) => e.phase === 'started'));
    ac.abort();
    await expect(run).resolves.toBeUndefined();
    expect(probe.ofKind('controller.lifecycle').map((e) => e.phase)).toEqual([
      'starting',
      'waitingForCacheSync',
      'started',
      'stopping',
      'stopped',
    ]);
  });

  it('does not reconcile before every handler has seen the initial list', async () => {
    const cache = new FakeInformerCache();
    const inf = cache.informerFor({ group: '', version: 'v1', kind: 'Pod' });
    for (let i = 0; i < 20; i++)
      inf.objects.set(`default/p${i}`, { metadata: { namespace: 'default', name: `p${i}` } });
    inf.handlersSyncImmediately = false;
    const { r, calls } = scripted([{}]);
    const { c, clock, queue } = make({ reconciler: r });
    await c.watch(kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject(), clock }));
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await clock.advance(500);
    expect(queue.len()).toBe(20);
    expect(calls).toHaveLength(0);
    inf.markHandlersSynced();
    await clock.advance(100);
    await until(() => calls.length === 20);
    ac.abort();
    await run;
  });

  it('refuses to start twice', async () => {
    const { c } = make();
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await expect(c.start(ac.signal)).rejects.toThrow('controller was started more than once');
    ac.abort();
    await run;
  });

  it('returns a source start error', async () => {
    const { c } = make();
    await c.watch(channelSource({ source: undefined as never, handler: enqueueRequestForObject() }));
    await expect(c.start(new AbortController().signal)).rejects.toThrow('must specify Channel.Source');
  });

  it('starts sources watched after Start immediately', async () => {
    const { c, queue } = make();
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    let started = false;
    await c.watch(
      funcSource((ctx) => {
        started = true;
        expect(ctx.queue).toBe(queue);
      }),
    );
    expect(started).toBe(true);
    ac.abort();
    await run;
  });
});

describe('Controller construction', () => {
  it('validates reconciler, name and uniqueness', () => {
    const registry = newRegistry(false);
    const r = reconcileFunc(async () => ({}));
    expect(() => new Controller({ name: 'x', reconciler: undefined as never, registry })).toThrow(
      'must specify Reconciler',
    );
    expect(() => new Controller({ name: '', reconciler: r, registry })).toThrow('must specify Name for Controller');
    new Controller({ name: 'dup', reconciler: r, registry });
    expect(() => new Controller({ name: 'dup', reconciler: r, registry })).toThrow(
      'controller with name dup already exists',
    );
    expect(() => new Controller({ name: 'dup', reconciler: r, registry, skipNameValidation: true })).not.toThrow();
  });

  it('defaults to one worker and leader election', () => {
    const { c } = make();
    expect(c.maxConcurrentReconciles()).toBe(1);
    expect(c.needLeaderElection()).toBe(true);
  });
});

/** Runs a controller until the reconciler was called n times. */
async function runUntil(o: Parameters<typeof make>[0], n: number, calls: Request[]) {
  const m = make(o);
  const ac = new AbortController();
  const run = m.c.start(ac.signal);
  m.queue.add(req);
  await until(() => calls.length >= n && m.queue.count('done') >= n, `${n} reconciles`);
  await flushMicrotasks();
  ac.abort();
  await run;
  return m;
}

describe('Controller processing', () => {
  it('reconciles once on success and forgets', async () => {
    const { r, calls } = scripted([{}]);
    const { queue } = await runUntil({ reconciler: r }, 1, calls);
    expect(calls).toEqual([req]);
    expect(queue.len()).toBe(0);
    expect(queue.numRequeues(req)).toBe(0);
  });

  it('requeues rate-limited on error, then succeeds', async () => {
    const { r, calls } = scripted([new Error('expected error: reconcile'), {}]);
    const { queue } = await runUntil({ reconciler: r }, 2, calls);
    expect(queue.count('addRateLimited')).toBe(1);
    expect(calls).toHaveLength(2);
    expect(queue.numRequeues(req)).toBe(0);
  });

  it('does not requeue a terminal error', async () => {
    const { r, calls } = scripted([terminalError(new Error('expected error: reconcile'))]);
    const { queue, registry } = await runUntil({ reconciler: r }, 1, calls);
    expect(queue.count('addRateLimited')).toBe(0);
    expect(queue.len()).toBe(0);
    expect(await metricValue(registry, 'controller_runtime_terminal_reconcile_errors_total', {})).toBe(1);
    expect(await metricValue(registry, 'controller_runtime_reconcile_errors_total', {})).toBe(1);
  });

  it('does not forget between consecutive errors', async () => {
    const { r, calls } = scripted([new Error('e1'), new Error('e2'), {}]);
    const queue = new FakeRequestQueue();
    await runUntil({ reconciler: r, queue }, 3, calls);
    expect(queue.count('addRateLimited')).toBe(2);
    expect(queue.calls.filter((x) => x.op === 'forget')).toHaveLength(1);
    expect(queue.trying).toBe(0);
  });

  it('requeues rate-limited for Requeue:true, then forgets', async () => {
    const { r, calls } = scripted([{ requeue: true }, {}]);
    const { queue } = await runUntil({ reconciler: r }, 2, calls);
    expect(queue.count('addRateLimited')).toBe(1);
    expect(queue.trying).toBe(0);
    expect(queue.calls.map((x) => x.op).indexOf('forget')).toBeGreaterThan(
      queue.calls.map((x) => x.op).indexOf('addRateLimited'),
    );
  });

  it('forgets and adds after RequeueAfter, even with Requeue:true', async () => {
    const { r, calls } = scripted([{ requeueAfterMs: 100, requeue: true }, { requeueAfterMs: 100 }, {}]);
    const { queue } = await runUntil({ reconciler: r }, 3, calls);
    expect(queue.count('addAfter')).toBe(2);
    expect(queue.count('addRateLimited')).toBe(0);
    expect(queue.calls.find((x) => x.op === 'addAfter')?.delayMs).toBe(100);
    expect(queue.trying).toBe(-2);
  });

  it('takes the error path when an error comes with RequeueAfter', async () => {
    let n = 0;
    const calls: Request[] = [];
    const r = reconcileFunc(async (_c, rq) => {
      calls.push(rq);
      n++;
      if (n === 1) throw Object.assign(new Error('expected error: reconcile'), { requeueAfterMs: 100 });
      if (n === 2) return { requeueAfterMs: 100 };
      return {};
    });
    const { queue } = await runUntil({ reconciler: r }, 3, calls);
    expect(queue.count('addRateLimited')).toBe(1);
    expect(queue.count('addAfter')).toBe(1);
  });

  it('keeps the dequeued priority, or Result.priority, on every re-enqueue', async () => {
    const cases: [Step, object][] = [
      [{ requeue: true }, { ratelimited: true, priority: 10 }],
      [
        { requeue: true, priority: 99 },
        { ratelimited: true, priority: 99 },
      ],
      [{ requeueAfterMs: 100 }, { after: 100, priority: 10 }],
      [
        { requeueAfterMs: 100, priority: 99 },
        { after: 100, priority: 99 },
      ],
      [new Error('boom'), { ratelimited: true, priority: 10 }],
    ];
    for (const [step, expected] of cases) {
      const queue = new FakeRequestQueue({ priority: true, requeueDelayed: false });
      const { r, calls } = scripted([step]);
      const m = make({ reconciler: r, queue });
      const ac = new AbortController();
      const run = m.c.start(ac.signal);
      queue.addWithOpts?.({ priority: 10 }, req);
      await until(() => calls.length === 1 && queue.count('done') === 1);
      ac.abort();
      await run;
      const add = queue.calls.filter((x) => x.op === 'addWithOpts')[1];
      expect(add?.opts).toMatchObject(expected);
    }
  });

  it('counts results in controller_runtime_reconcile_total', async () => {
    const outcomes: [Step, string][] = [
      [{}, 'success'],
      [new Error('x'), 'error'],
      [{ requeue: true }, 'requeue'],
      [{ requeueAfterMs: 5 * 3600_000 }, 'requeue_after'],
    ];
    for (const [step, label] of outcomes) {
      const queue = new FakeRequestQueue({ requeueDelayed: false });
      const { r, calls } = scripted([step]);
      const { registry } = await runUntil({ reconciler: r, queue }, 1, calls);
      expect(await metricValue(registry, 'controller_runtime_reconcile_total', { result: label })).toBe(1);
      const text = await registry.getSingleMetricAsString('controller_runtime_reconcile_time_seconds');
      expect(text).toMatch(/controller_runtime_reconcile_time_seconds_count\{controller="testcontroller"\} 1/);
      if (label === 'error') {
        expect(await metricValue(registry, 'controller_runtime_reconcile_errors_total', {})).toBe(1);
      }
    }
  });

  it('initialises every series at start', async () => {
    const { c, registry } = make({ maxConcurrentReconciles: 3 });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    expect(await metricValue(registry, 'controller_runtime_reconcile_total', { result: 'requeue_after' })).toBe(0);
    expect(await metricValue(registry, 'controller_runtime_max_concurrent_reconciles', {})).toBe(3);
    expect(await metricValue(registry, 'controller_runtime_active_workers', {})).toBe(0);
    ac.abort();
    await run;
  });
});

describe('Controller observability', () => {
  it('reports reconcile.start with every absorbed cause and reconcile.end with the outcome', async () => {
    const probe = new RecordingProbe();
    const { r, calls } = scripted([{ requeueAfterMs: 250 }]);
    const queue = new FakeRequestQueue({ requeueDelayed: false });
    const m = make({ reconciler: r, queue, probe });
    const pod: KubeObject = { metadata: { namespace: 'foo', name: 'bar' } };
    queue.add(req, { type: 'event', eventType: 'create', source: { gvk: 'v1/Pod', name: 'bar', namespace: 'foo' } });
    queue.add(req, { type: 'resync' });
    void pod;
    const ac = new AbortController();
    const run = m.c.start(ac.signal);
    await until(() => calls.length === 1 && probe.ofKind('reconcile.end').length === 1);
    ac.abort();
    await run;
    expect(probe.ofKind('reconcile.start')[0]).toMatchObject({
      controller: 'testcontroller',
      key: 'foo/bar',
      worker: 0,
      attempt: 1,
      causes: [{ type: 'event' }, { type: 'resync' }],
    });
    expect(probe.ofKind('reconcile.end')[0]).toMatchObject({ outcome: 'requeueAfter', requeueAfterMs: 250 });
  });

  it('shows a hung reconcile as an active worker with a start and no end', async () => {
    const probe = new RecordingProbe();
    const { c, queue, registry } = make({
      probe,
      reconciler: reconcileFunc(() => new Promise<Result>(() => undefined)),
    });
    const ac = new AbortController();
    void c.start(ac.signal);
    queue.add(req);
    await until(() => c.activeWorkers() === 1);
    expect(probe.ofKind('reconcile.start')).toHaveLength(1);
    expect(probe.ofKind('reconcile.end')).toHaveLength(0);
    expect(await metricValue(registry, 'controller_runtime_active_workers', {})).toBe(1);
    ac.abort();
  });

  it('aborts the reconcile context after reconciliationTimeout and counts the timeout', async () => {
    let seen: unknown;
    const { c, queue, clock, registry } = make({
      queue: new FakeRequestQueue({ requeueDelayed: false }),
      reconciliationTimeoutMs: 1000,
      reconciler: reconcileFunc(
        (ctx) =>
          new Promise<Result>((_res, rej) =>
            ctx.signal.addEventListener('abort', () => {
              seen = ctx.signal.reason;
              rej(new Error('context deadline exceeded'));
            }),
          ),
      ),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => c.activeWorkers() === 1);
    await clock.advance(1000);
    await until(() => c.activeWorkers() === 0);
    expect((seen as Error).name).toBe('DeadlineExceededError');
    expect(await metricValue(registry, 'controller_runtime_reconcile_timeouts_total', {})).toBe(1);
    ac.abort();
    await run;
  });

  it('runs up to maxConcurrentReconciles at once, never the same key twice', async () => {
    const release: (() => void)[] = [];
    const { c, queue } = make({
      maxConcurrentReconciles: 2,
      reconciler: reconcileFunc(() => new Promise<Result>((res) => release.push(() => res({})))),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add({ namespace: 'a', name: '1' });
    queue.add({ namespace: 'a', name: '2' });
    queue.add({ namespace: 'a', name: '3' });
    await until(() => c.activeWorkers() === 2);
    queue.add({ namespace: 'a', name: '1' });
    await flushMicrotasks();
    expect(c.activeWorkers()).toBe(2);
    release.splice(0).forEach((f) => f());
    await until(() => release.length === 2);
    expect(queue.gotten).toEqual(['a/1', 'a/2', 'a/3', 'a/1']);
    release.splice(0).forEach((f) => f());
    ac.abort();
    await run;
  });

  it('requeue(key) adds a manual cause', async () => {
    const { c, queue } = make();
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await flushMicrotasks();
    c.requeue('foo/bar');
    expect(queue.calls.find((x) => x.op === 'add')?.cause).toEqual({ type: 'manual' });
    ac.abort();
    await run;
  });
});

describe('isPanic', () => {
  it('treats TypeError-like and non-Error throws as panics, ordinary errors as errors', () => {
    expect(isPanic(new TypeError('x'))).toBe(true);
    expect(isPanic(new RangeError('x'))).toBe(true);
    expect(isPanic('a string')).toBe(true);
    expect(isPanic(new Error('x'))).toBe(false);
    expect(isPanic(terminalError(new Error('x')))).toBe(false);
  });
});

describe('reconcile scope', () => {
  it('lets code called from a reconcile know its controller and key', async () => {
    let scope: unknown;
    const { c, queue } = make({
      reconciler: reconcileFunc(async () => {
        await Promise.resolve();
        scope = currentReconcileScope();
        return {};
      }),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => scope !== undefined);
    expect(scope).toMatchObject({ controller: 'testcontroller', key: 'foo/bar' });
    ac.abort();
    await run;
  });
});
