// Reads a scenario from a YAML file or from a TS/JS module's default export, in one shape:
//   prepare: [objects]                     created before the controller starts (CRDs, namespaces)
//   steps:                                 each step is one operation, or a burst applied at once
//     - create: {object}
//     - update: {object}
//     - patch: {apiVersion, kind, name, namespace?, merge: {…}}
//     - delete: {apiVersion, kind, name, namespace?}
//     - burst: [ {patch: …}, {patch: …} ]
// A module's `scenario` export takes the same shape. Steps left out: the default for the For kind is used.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { loadYaml } from '@kubernetes/client-node';
import { z } from 'zod';
import type { KubeObject } from '../../shared/models/object';
import type { Scenario, ScenarioOp, ScenarioStep } from './scenario';

const object = z
  .looseObject({
    apiVersion: z.string().min(1),
    kind: z.string().min(1),
    metadata: z.looseObject({ name: z.string().optional(), namespace: z.string().optional() }),
  })
  .transform((o) => o as unknown as KubeObject);
const ref = z.strictObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().min(1).optional(),
});
const op = z.union([
  z.strictObject({ create: object }),
  z.strictObject({ update: object }),
  z.strictObject({ patch: ref.extend({ merge: z.record(z.string(), z.unknown()) }) }),
  z.strictObject({ delete: ref }),
]);
const step = z.union([op, z.strictObject({ burst: z.array(op).min(1) })]);

export const scenarioInputSchema = z.strictObject({
  prepare: z.array(object).optional(),
  steps: z.array(step).optional(),
});

export type ScenarioInput = z.input<typeof scenarioInputSchema>;

/** A scenario as far as its input says; `steps` undefined: the caller derives the default. */
export interface PartialScenario {
  source: string;
  prepare: KubeObject[];
  steps?: ScenarioStep[];
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

export function parseScenario(input: unknown, source: string): PartialScenario {
  const parsed = scenarioInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const at = first?.path.length ? ` at ${first.path.join('.')}` : '';
    throw new ScenarioError(`${source}: not a scenario${at}: ${first?.message ?? 'invalid'}`);
  }
  const { prepare, steps } = parsed.data;
  return {
    source,
    prepare: prepare ?? [],
    ...(steps ? { steps: steps.map((s) => ({ ops: 'burst' in s ? s.burst.map(toOp) : [toOp(s)] })) } : {}),
  };
}

function toOp(o: z.output<typeof op>): ScenarioOp {
  if ('create' in o) return { op: 'create', object: o.create };
  if ('update' in o) return { op: 'update', object: o.update };
  if ('delete' in o) return { op: 'delete', ref: o.delete };
  const { merge, ...r } = o.patch;
  return { op: 'patch', ref: r, merge };
}

/** A scenario file: YAML (.yaml/.yml/.json), or a module whose default export is the scenario. */
export async function readScenarioFile(
  file: string,
  importModule: (file: string) => Promise<Record<string, unknown>>,
): Promise<PartialScenario> {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml' || ext === '.json') {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new ScenarioError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    return parseScenario(loadYaml<unknown>(text), file);
  }
  const exports = await importModule(file);
  return parseScenario(exports['default'] ?? exports['scenario'], file);
}

/** Fills in the default steps when a scenario gave none. */
export function completeScenario(partial: PartialScenario, fallback: () => Scenario): Scenario {
  if (partial.steps) return { source: partial.source, prepare: partial.prepare, steps: partial.steps };
  const d = fallback();
  return {
    source: partial.prepare.length ? `${d.source} (prepare from ${partial.source})` : d.source,
    prepare: partial.prepare,
    steps: d.steps,
  };
}
