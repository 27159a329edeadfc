// A short fixed-seed set of chaos runs (see support/chaos-run.ts): a few on the sandbox, a few on a real
// kube-apiserver + etcd with the apiserver SIGKILLed and restarted in each. Long sets: `npm run chaos`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../../shared/models/object';
import type { ClientListOptions, ObjectType } from '../../server/runtime';
import { describeEnvtest } from '../../server/cluster/envtest/testing';
import type { ChaosTarget } from './support/chaos-targets';
import { startEnvtestTarget, startSandboxTarget } from './support/chaos-targets';
import { prng } from '../../shared/prng';
import { chaosRun, installWidgetCrd } from './support/chaos-run';
import type { RunResult } from './support/chaos-run';

const faultsOf = (r: RunResult) => Object.values(r.faults).reduce((a, b) => a + b, 0);

describe('chaos on the sandbox', () => {
  let target: ChaosTarget;
  beforeAll(async () => {
    target = await startSandboxTarget(prng(42));
    await installWidgetCrd(target.direct);
  }, 30_000);
  afterAll(() => target.stop());

  it.each([101, 102, 103])(
    'seed %i quiesces to a fresh LIST, every key reconciled at its last version',
    async (seed) => {
      const r = await chaosRun({ target, seed, steps: 25 });
      expect(r.divergences, `replay: npm run chaos -- --runs 1 --seed ${seed}`).toEqual([]);
      expect(r.writes).toBeGreaterThan(0);
      expect(faultsOf(r)).toBeGreaterThan(0);
    },
    60_000,
  );

  it('reports a divergence when the server holds an object the cache never saw', async () => {
    // The checker itself must be able to fail: a LIST with one extra ConfigMap no informer received.
    const ghost: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'nowhere', name: 'ghost', resourceVersion: '1' },
    };
    const direct = new Proxy(target.direct, {
      get(t, prop, recv) {
        if (prop !== 'list') return Reflect.get(t, prop, recv) as unknown;
        return async (type: ObjectType, opts?: ClientListOptions) => {
          const list: KubeList<KubeObject> = await t.list(type, opts);
          return type.kind === 'ConfigMap' ? { ...list, items: [...list.items, ghost] } : list;
        };
      },
    });
    const r = await chaosRun({ target: { ...target, direct }, seed: 7, steps: 5, quiesceMs: 500 });
    expect(r.divergences).toEqual(
      expect.arrayContaining([
        'v1/ConfigMap nowhere/ghost: cache rv missing, LIST rv 1',
        'v1/ConfigMap nowhere/ghost: last reconciled at never, LIST rv 1',
      ]),
    );
  }, 30_000);
});

describeEnvtest('chaos on kube-apiserver + etcd (SIGKILL and restart, compaction)', () => {
  let target: ChaosTarget;
  beforeAll(async () => {
    target = await startEnvtestTarget();
    await installWidgetCrd(target.direct);
  }, 90_000);
  afterAll(() => target.stop());

  it('restarting kube-apiserver keeps its port and the etcd data', async () => {
    const name = `survives-${Date.now()}`;
    await target.direct.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject);
    await target.killApiServer?.();
    await target.startApiServer?.();
    const got = await target.direct.get({ apiVersion: 'v1', kind: 'Namespace' }, { name });
    expect(got.metadata.name).toBe(name);
  }, 60_000);

  it.each([201, 202])(
    'seed %i quiesces after a kube-apiserver SIGKILL and restart',
    async (seed) => {
      const r = await chaosRun({ target, seed, steps: 20, restarts: true });
      expect(r.divergences, `replay: npm run chaos -- --runs 1 --seed ${seed} --target envtest`).toEqual([]);
      expect(r.faults['apiserver-kill']).toBeGreaterThan(0);
    },
    90_000,
  );
});
