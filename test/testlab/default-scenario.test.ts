// A controller given no scenario: the test derives one from its For kind (ConfigMaps here), and the runs it
// makes with it are judged as with any other.
import { describe, expect, it } from 'vitest';
import {
  isNotFound,
  newControllerManagedBy,
  setControllerReference,
  type KubeObject,
  type Manager,
} from '../../server/runtime';
import { runLab } from '../../server/testlab/lab';
import { parsePlan } from '../../server/testlab/plan';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' };
const Secret = { apiVersion: 'v1', kind: 'Secret' };

/** Copies each ConfigMap's labels onto a Secret it owns. */
async function setup(mgr: Manager): Promise<void> {
  const client = mgr.getClient();
  await newControllerManagedBy(mgr)
    .named('label-copier')
    .for(ConfigMap)
    .owns(Secret)
    .complete({
      async reconcile(_ctx, req) {
        let cm: KubeObject;
        try {
          cm = await client.get(ConfigMap, req);
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
        if (req.namespace !== 'default') return;
        const want: KubeObject = { ...Secret, metadata: { ...req, labels: { ...cm.metadata.labels } } };
        setControllerReference(cm, want);
        try {
          const have = await client.get(Secret, req);
          await client.update({ ...have, metadata: { ...have.metadata, labels: want.metadata.labels } });
        } catch (err) {
          if (!isNotFound(err)) throw err;
          await client.create(want);
        }
      },
    });
}

describe('with no scenario', () => {
  it(
    'derives create, change, burst and delete steps from the For kind and holds the result to them',
    { timeout: 240_000 },
    async () => {
      const r = await runLab({
        target: { files: ['label-copier'], load: async () => [setup] },
        seed: 1,
        plans: [parsePlan('crash@write:1')],
        timeMs: 600_000,
        settleTimeoutMs: 45_000,
        quietMs: 150,
        command: 'controller-scope test label-copier',
      });
      expect(r.scenario).toBe('default for v1/ConfigMap');
      expect(r.reference.written).toEqual(['v1/Secret']);
      expect(r.runs.map((v) => [v.plan, v.ok, v.fired !== undefined])).toEqual([
        ['none (reference)', true, false],
        ['none (second reference)', true, false],
        ['crash@write:1', true, true],
      ]);
      expect(r.findings).toEqual([]);
    },
  );
});
