import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/models/object';
import { FakeClock } from '../../../runtime/testing/fake-clock';
import { SandboxServer } from '../server';
import { NodeSimulator } from './node-simulator';
import { WorkloadGenerator } from './workload-generator';
import { storeTarget } from './workload-target';
import { prng } from '../../../../shared/prng';

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;

function pod(name: string) {
  return {
    ...POD,
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: 5 },
  };
}

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()?.();
});

function setup() {
  const clock = new FakeClock();
  const sandbox = new SandboxServer({ clock, random: () => 0.5 });
  const sim = new NodeSimulator({ store: sandbox.store, clock, random: () => 0.5 });
  sim.start();
  stops.push(() => sim.stop());
  return { clock, sandbox, sim, store: sandbox.store };
}

const phaseOf = (o: KubeObject | undefined) => (o?.status as { phase?: string } | undefined)?.phase;
const readyOf = (o: KubeObject | undefined) =>
  (o?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.find(
    (c) => c.type === 'Ready',
  )?.status;

describe('NodeSimulator', () => {
  it('creates its nodes', () => {
    const { store } = setup();
    expect(store.list({ apiVersion: 'v1', kind: 'Node' }).map((n) => n.metadata.name)).toEqual([
      'sandbox-node-1',
      'sandbox-node-2',
      'sandbox-node-3',
    ]);
  });

  it('moves a pod through scheduled → Running → Ready on its delays', async () => {
    const { clock, store } = setup();
    store.create(pod('p1'));
    expect(NodeSimulator.nextStage(store.get(POD, 'p1', 'default')!)).toBe('schedule');
    await clock.advance(300);
    const bound = store.get(POD, 'p1', 'default')!;
    expect((bound.spec as { nodeName?: string }).nodeName).toMatch(/^sandbox-node-/);
    expect(phaseOf(bound)).toBe('Pending');
    await clock.advance(800);
    expect(phaseOf(store.get(POD, 'p1', 'default'))).toBe('Running');
    expect(readyOf(store.get(POD, 'p1', 'default'))).toBe('False');
    await clock.advance(1200);
    expect(readyOf(store.get(POD, 'p1', 'default'))).toBe('True');
    expect(NodeSimulator.nextStage(store.get(POD, 'p1', 'default')!)).toBeUndefined();
  });

  it('finishes a graceful delete after the containers stop', async () => {
    const { clock, store } = setup();
    store.create(pod('p2'));
    await clock.advance(3000);
    store.delete(POD, 'p2', 'default');
    const deleting = store.get(POD, 'p2', 'default');
    expect(deleting?.metadata.deletionTimestamp).toBeDefined();
    await clock.advance(500);
    expect(store.get(POD, 'p2', 'default')).toBeUndefined();
  });
});

describe('WorkloadGenerator', () => {
  it('seeds the demo namespace and churns at the steady rate', async () => {
    const { clock, store } = setup();
    const gen = new WorkloadGenerator({ target: storeTarget(store), clock, rate: 4, random: prng(7) });
    await gen.start();
    stops.push(() => gen.stop());
    expect(store.list({ apiVersion: 'apps/v1', kind: 'Deployment' }, { namespace: 'demo' })).toHaveLength(2);
    expect(store.get({ apiVersion: 'v1', kind: 'Secret' }, 'db-credentials', 'demo')).toBeDefined();
    const rvBefore = Number(store.resourceVersion);
    await clock.advance(2_000);
    expect(gen.status().operations).toBe(8);
    expect(Number(store.resourceVersion)).toBeGreaterThan(rvBefore);
  });

  it('is paused, reconfigured and refuses a bad rate with a clear message', async () => {
    const { clock, store } = setup();
    const gen = new WorkloadGenerator({ target: storeTarget(store), clock, rate: 10, paused: true });
    await gen.start();
    stops.push(() => gen.stop());
    await clock.advance(2_000);
    expect(gen.status().operations).toBe(0);
    gen.configure({ paused: false, profile: 'storm', rate: 5 });
    await clock.advance(1_000);
    // storm runs ten times the rate
    expect(gen.status().operations).toBeGreaterThanOrEqual(45);
    expect(() => gen.configure({ rate: -1 })).toThrow(/between 0 and 500/);
  });

  it('bursty profile packs a period of operations into a burst', async () => {
    const { clock, store } = setup();
    const gen = new WorkloadGenerator({
      target: storeTarget(store),
      clock,
      rate: 2,
      profile: 'bursty',
      random: prng(3),
    });
    await gen.start();
    stops.push(() => gen.stop());
    await clock.advance(10_000);
    const ops = gen.status().operations;
    expect(ops).toBeGreaterThanOrEqual(10);
    expect(ops).toBeLessThanOrEqual(40);
  });
});
