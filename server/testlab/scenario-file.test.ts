import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultScenario, describeStep, STEP_LABEL } from './scenario';
import { completeScenario, parseScenario, readScenarioFile, ScenarioError } from './scenario-file';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } };

describe('scenario files', () => {
  it('reads YAML: prepare, single operations and a burst', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const file = join(dir, 's.yaml');
    writeFileSync(
      file,
      [
        'prepare:',
        '  - {apiVersion: v1, kind: Namespace, metadata: {name: team}}',
        'steps:',
        '  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: team}, data: {x: "1"}}',
        '  - burst:',
        '      - patch: {apiVersion: v1, kind: ConfigMap, namespace: team, name: a, merge: {data: {x: "2"}}}',
        '      - delete: {apiVersion: v1, kind: ConfigMap, namespace: team, name: a}',
      ].join('\n'),
    );
    const s = await readScenarioFile(file, () => Promise.reject(new Error('not a module')));
    expect(s.prepare).toHaveLength(1);
    expect(s.steps?.map(describeStep)).toEqual([
      'create ConfigMap team/a',
      'patch ConfigMap team/a + delete ConfigMap team/a',
    ]);
  });

  it('says where a scenario is wrong', () => {
    expect(() => parseScenario({ steps: [{ create: cm }, { replace: cm }] }, 's.yaml')).toThrow(ScenarioError);
    expect(() => parseScenario({ steps: [{ patch: { ...cm, merge: {} } }] }, 's.yaml')).toThrow(
      /s\.yaml: not a scenario at steps\.0/,
    );
  });

  it('without steps, the default for the For kind: three creates, a change, a burst of three, a delete', () => {
    const s = completeScenario(parseScenario({ prepare: [cm] }, 'm.ts'), () =>
      defaultScenario({ apiVersion: 'v1', kind: 'ConfigMap', namespaced: true }),
    );
    expect(s.prepare).toEqual([cm]);
    expect(s.steps.map(describeStep)).toEqual([
      'create ConfigMap default/configmap-a',
      'create ConfigMap default/configmap-b',
      'create ConfigMap default/configmap-c',
      'patch ConfigMap default/configmap-a',
      'patch ConfigMap default/configmap-b + patch ConfigMap default/configmap-b + patch ConfigMap default/configmap-b',
      'delete ConfigMap default/configmap-c',
    ]);
    const first = s.steps[0]?.ops[0];
    expect(first?.op === 'create' && first.object.metadata.labels?.[STEP_LABEL]).toBe('0');
  });
});
