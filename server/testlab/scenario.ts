// A scenario: what a test does to the cluster around the controller. `prepare` is applied before the
// controller starts (its CRDs, namespaces); each step's operations are applied at once, then the run waits
// until the controller has settled before the next step. With no steps given, a default is derived from the
// controller's For kind.
import type { KubeObject } from '../../shared/models/object';

/** An object by type and name, as a scenario names what it patches or deletes. */
export interface ScenarioRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export type ScenarioOp =
  | { op: 'create'; object: KubeObject }
  /** Replaces the object's content (the server's current resourceVersion is used). */
  | { op: 'update'; object: KubeObject }
  /** A JSON merge patch (RFC 7386). */
  | { op: 'patch'; ref: ScenarioRef; merge: Record<string, unknown> }
  | { op: 'delete'; ref: ScenarioRef };

export interface ScenarioStep {
  ops: ScenarioOp[];
}

export interface Scenario {
  /** Where it came from, for the report ("default for v1/ConfigMap", a file name). */
  source: string;
  prepare: KubeObject[];
  steps: ScenarioStep[];
}

/** The label the default scenario's updates change: visible to any controller, in the schema of any kind. */
export const STEP_LABEL = 'testlab.controller-scope.dev/step';

/** One line per step, for the plan and the report. */
export function describeStep(step: ScenarioStep): string {
  return step.ops.map(describeOp).join(' + ');
}

export function describeOp(op: ScenarioOp): string {
  const ref = op.op === 'create' || op.op === 'update' ? refOf(op.object) : op.ref;
  const where = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
  return `${op.op} ${ref.kind} ${where}`;
}

export function refOf(o: KubeObject): ScenarioRef {
  return {
    apiVersion: o.apiVersion ?? '',
    kind: o.kind ?? '',
    name: o.metadata.name ?? '',
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
  };
}

/**
 * The default for a For kind: create three objects (one step each), change one, change another three
 * times at once (a burst), delete the third. Objects carry only metadata (and data for ConfigMaps and
 * Secrets), which every kind's schema accepts.
 */
export function defaultScenario(forKind: { apiVersion: string; kind: string; namespaced: boolean }): Scenario {
  const base = forKind.kind.toLowerCase();
  const ns = forKind.namespaced ? { namespace: 'default' } : {};
  const ref = (n: string): ScenarioRef => ({
    apiVersion: forKind.apiVersion,
    kind: forKind.kind,
    name: `${base}-${n}`,
    ...ns,
  });
  const object = (n: string): KubeObject => ({
    apiVersion: forKind.apiVersion,
    kind: forKind.kind,
    metadata: { name: `${base}-${n}`, ...ns, labels: { [STEP_LABEL]: '0' } },
    ...(forKind.kind === 'ConfigMap' && forKind.apiVersion === 'v1' ? { data: { value: n } } : {}),
  });
  const label = (n: string, v: number): ScenarioOp => ({
    op: 'patch',
    ref: ref(n),
    merge: { metadata: { labels: { [STEP_LABEL]: String(v) } } },
  });
  return {
    source: `default for ${forKind.apiVersion}/${forKind.kind}`,
    prepare: [],
    steps: [
      { ops: [{ op: 'create', object: object('a') }] },
      { ops: [{ op: 'create', object: object('b') }] },
      { ops: [{ op: 'create', object: object('c') }] },
      { ops: [label('a', 1)] },
      { ops: [label('b', 1), label('b', 2), label('b', 3)] },
      { ops: [{ op: 'delete', ref: ref('c') }] },
    ],
  };
}
