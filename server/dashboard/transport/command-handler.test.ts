import { describe, expect, it } from 'vitest';
import type { FaultSpec, StepState } from '../../../shared/protocol/commands';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { Recorder } from '../recorder/recorder';
import { Controller } from '../../runtime/controller/controller';
import { stepPort } from '../step-port';
import { newRegistry } from '../../runtime/metrics/registry';
import { reconcileFunc } from '../../runtime/reconcile/reconcile';
import { FakeRequestQueue } from '../../runtime/testing/fake-request-queue';
import { CommandHandler } from './command-handler';
import type { ActiveFault, ClusterControls } from './ports';

function fakeCluster(writable: boolean) {
  const faults: ActiveFault[] = [];
  let workload: { profile: string; ratePerSecond?: number } | undefined;
  const cluster: ClusterControls = {
    info: { kind: 'sandbox', writable },
    injectFault: (f: FaultSpec, durationMs?: number) => {
      if (f.kind === 'stallWatches') throw new Error('stalling watches is not supported by this cluster');
      const a = { id: `f${faults.length + 1}`, description: f.kind, ...(durationMs ? { until: durationMs } : {}) };
      faults.push(a);
      return a;
    },
    clearFaults: (id) => {
      const n = id ? faults.filter((f) => f.id === id).length : faults.length;
      faults.splice(0, faults.length, ...(id ? faults.filter((f) => f.id !== id) : []));
      return n;
    },
    activeFaults: () => faults,
    setWorkload: async (profile, o) => {
      if (profile !== 'churn') throw new Error(`unknown workload profile "${profile}" (known: churn)`);
      workload = { profile, ...(o.ratePerSecond !== undefined ? { ratePerSecond: o.ratePerSecond } : {}) };
    },
    stopWorkload: () => {
      workload = undefined;
    },
    workload: () => workload,
  };
  return { cluster, faults };
}

describe('CommandHandler', () => {
  it('compares a cache through its port, and says why it cannot without one', async () => {
    const recorder = new Recorder({ clock: new FakeClock() });
    const without = await new CommandHandler({ recorder, ports: {} }).handle({
      type: 'cache.compare',
      informer: 'v1/Pod',
    });
    expect(without).toMatchObject({ ok: false, code: 'unsupported' });
    expect(without.ok ? '' : without.error).toMatch(/comparing a cache with the API server is not available/);
    const asked: unknown[] = [];
    const handler = new CommandHandler({
      recorder,
      ports: {
        cacheComparer: {
          compare: (informer, o) => {
            asked.push([informer, o]);
            return Promise.reject(new Error(`no cache holds an informer for "${informer}"`));
          },
        },
      },
    });
    const res = await handler.handle({ type: 'cache.compare', informer: 'v1/Secret' });
    expect(asked).toEqual([['v1/Secret', { pageSize: 500 }]]);
    expect(res).toMatchObject({ ok: false, code: 'failed' });
    expect(await handler.handle({ type: 'cache.compare', informer: 'v1/Pod', pageSize: 0 })).toMatchObject({
      ok: false,
      code: 'invalid',
    });
  });

  it('injects and clears faults and runs workloads on a writable cluster, announcing status changes', async () => {
    const { cluster, faults } = fakeCluster(true);
    let changes = 0;
    const h = new CommandHandler({
      recorder: new Recorder({ clock: new FakeClock() }),
      ports: { cluster },
      onStatusChange: () => changes++,
    });
    expect(await h.handle({ type: 'fault.inject', fault: { kind: 'latency', ms: 200 } })).toEqual({
      ok: true,
      result: { id: 'f1' },
    });
    expect(await h.handle({ type: 'fault.inject', fault: { kind: 'expireWatches' }, durationMs: 500 })).toMatchObject({
      ok: true,
    });
    expect(faults).toHaveLength(2);
    expect(await h.handle({ type: 'fault.clear', id: 'f1' })).toEqual({ ok: true, result: { cleared: 1 } });
    expect(await h.handle({ type: 'fault.clear' })).toEqual({ ok: true, result: { cleared: 1 } });
    expect(await h.handle({ type: 'workload.set', profile: 'churn', ratePerSecond: 20 })).toEqual({
      ok: true,
      result: { profile: 'churn', ratePerSecond: 20 },
    });
    expect(cluster.workload()).toEqual({ profile: 'churn', ratePerSecond: 20 });
    expect(await h.handle({ type: 'workload.stop' })).toEqual({ ok: true, result: {} });
    expect(changes).toBe(6);
  });

  it('passes on what the cluster says when it cannot do something', async () => {
    const { cluster } = fakeCluster(true);
    const h = new CommandHandler({ recorder: new Recorder({ clock: new FakeClock() }), ports: { cluster } });
    expect(await h.handle({ type: 'fault.inject', fault: { kind: 'stallWatches' } })).toEqual({
      ok: false,
      code: 'failed',
      error: 'fault.inject failed: stalling watches is not supported by this cluster',
    });
    const bad = await h.handle({ type: 'workload.set', profile: 'nope' });
    expect(bad).toMatchObject({ ok: false, code: 'failed' });
    if (!bad.ok) expect(bad.error).toMatch(/known: churn/);
  });

  it('pauses and resumes the --record file only: the recorder keeps stamping events for every viewer', async () => {
    const recorder = new Recorder({ clock: new FakeClock() });
    const h = new CommandHandler({ recorder, ports: {} });
    expect(await h.handle({ type: 'recording.pause' })).toMatchObject({ ok: false, code: 'unsupported' });
    recorder.recordingFile = 'session.jsonl';
    expect(await h.handle({ type: 'recording.pause' })).toMatchObject({
      ok: true,
      result: { recording: { paused: true, file: 'session.jsonl' } },
    });
    expect(recorder.enabled).toBe(true);
    expect(await h.handle({ type: 'recording.resume' })).toMatchObject({
      ok: true,
      result: { recording: { paused: false } },
    });
    expect(recorder.enabled).toBe(true);
  });

  it("drives a controller's step port: conditional breakpoints by id, run to a key, and a clear refusal", async () => {
    const c = new Controller({
      name: 'pods',
      registry: newRegistry(false),
      clock: new FakeClock(),
      newQueue: () => new FakeRequestQueue(),
      reconciler: reconcileFunc(async () => ({})),
    });
    const port = stepPort(c);
    const h = new CommandHandler({
      recorder: new Recorder({ clock: new FakeClock() }),
      ports: { steppers: () => port },
    });
    const added = await h.handle({
      type: 'step.breakpoint',
      controller: 'pods',
      key: 'ns/*',
      outcome: 'panic',
      minAttempt: 2,
    });
    if (!added.ok) throw new Error(added.error);
    const list = (added.result as StepState).list ?? [];
    expect(list).toEqual([{ id: 'bp1', enabled: true, hits: 0, key: 'ns/*', outcome: 'panic', minAttempt: 2 }]);
    expect(await h.handle({ type: 'step.breakpoint', controller: 'pods', id: 'bp1', enabled: false })).toMatchObject({
      ok: true,
      result: { list: [{ id: 'bp1', enabled: false }] },
    });
    expect(await h.handle({ type: 'step.breakpoint', controller: 'pods', id: 'bp1', remove: true })).toMatchObject({
      ok: true,
      result: { list: [] },
    });
    const gone = await h.handle({ type: 'step.breakpoint', controller: 'pods', id: 'bp1', remove: true });
    expect(gone).toMatchObject({ ok: false, code: 'failed' });
    if (!gone.ok) expect(gone.error).toContain('no breakpoint "bp1"');
    expect(await h.handle({ type: 'step.runTo', controller: 'pods', key: 'ns/a' })).toMatchObject({
      ok: true,
      result: { holding: false, list: [{ key: 'ns/a', once: true }] },
    });
    const noPort = new CommandHandler({
      recorder: new Recorder(),
      ports: { steppers: () => ({ ...port, runTo: undefined }) },
    });
    expect(await noPort.handle({ type: 'step.runTo', controller: 'pods', key: 'ns/a' })).toMatchObject({
      ok: false,
      code: 'unsupported',
    });
  });
});
