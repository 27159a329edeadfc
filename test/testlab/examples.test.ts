// One fixed plan per perturbation class on the buggy examples and their twins: the plan must find the planted
// bug (at the write or step the reference trace names) and must reach its point on the twin without a
// finding. The long budgets (every plan, many seeds) run in scripts/testlab-examples.ts instead.
import { describe, expect, it } from 'vitest';
import { runLab, type LabReport } from '../../server/testlab/lab';
import { parsePlan } from '../../server/testlab/plan';
import { parseScenario } from '../../server/testlab/scenario-file';
import type { SetupFunction } from '../../server/run/user-module';

interface Example {
  default: SetupFunction;
  scenario: unknown;
}

const EXAMPLES: Record<string, { buggy: () => Promise<Example>; correct: () => Promise<Example> }> = {
  'generate-name': {
    buggy: () => import('../../examples/buggy/generate-name/buggy'),
    correct: () => import('../../examples/buggy/generate-name/correct'),
  },
  'stale-parent': {
    buggy: () => import('../../examples/buggy/stale-parent/buggy'),
    correct: () => import('../../examples/buggy/stale-parent/correct'),
  },
  'lost-write': {
    buggy: () => import('../../examples/buggy/lost-write/buggy'),
    correct: () => import('../../examples/buggy/lost-write/correct'),
  },
  finalizer: {
    buggy: () => import('../../examples/buggy/finalizer/buggy'),
    correct: () => import('../../examples/buggy/finalizer/correct'),
  },
  intermediate: {
    buggy: () => import('../../examples/buggy/intermediate/buggy'),
    correct: () => import('../../examples/buggy/intermediate/correct'),
  },
};

async function lab(example: keyof typeof EXAMPLES, twin: 'buggy' | 'correct', plan: string): Promise<LabReport> {
  const mod = await EXAMPLES[example]![twin]();
  return runLab({
    target: { files: [`${example}/${twin}.ts`], load: async () => [mod.default] },
    scenario: parseScenario(mod.scenario, example),
    seed: 1,
    plans: [parsePlan(plan)],
    timeMs: 600_000,
    // Generous: the machine may be busy; a settle that takes this long is a finding, not a flake.
    settleTimeoutMs: 45_000,
    quietMs: 150,
    command: `controller-scope test ${example}/${twin}.ts`,
  });
}

/** The run of the plan, which must have reached its point. */
function planRun(r: LabReport) {
  const run = r.runs.find((v) => v.index === 1);
  expect(run?.fired, 'the plan reached its point').toBeDefined();
  return run;
}

interface Case {
  cls: string;
  example: keyof typeof EXAMPLES;
  plan: string;
  point: RegExp;
  problem: RegExp;
  /** An object the buggy run leaves that the reference does not have. */
  extra?: string;
  /** An object of the reference the buggy run does not leave. */
  missing?: string;
}

const CASES: Case[] = [
  {
    cls: 'crash',
    example: 'generate-name',
    plan: 'crash@write:1',
    point: /write 1: create v1\/ConfigMap default\/a-\*/,
    problem: /end state differs: v1\/ConfigMap default\/a-\*#2 \(extra\)/,
    extra: 'v1/ConfigMap default/a-*#2',
  },
  {
    cls: 'crash',
    example: 'finalizer',
    plan: 'crash@write:5',
    point: /write 5: delete v1\/ConfigMap default\/a-size/,
    problem: /finalizer-released: .*Widget default\/a is being deleted but still holds/,
  },
  {
    cls: 'fault 500',
    example: 'lost-write',
    // The create of b's child: nothing later brings b back, so the lost write stays lost.
    plan: 'fault:500@write:5',
    point: /write 5: create v1\/ConfigMap default\/b-size/,
    problem: /end state differs/,
    missing: 'v1/ConfigMap default/b-size',
  },
  {
    cls: 'fault 409',
    example: 'generate-name',
    plan: 'fault:409@write:2',
    point: /write 2: updateStatus .*Widget default\/a/,
    problem: /end state differs: v1\/ConfigMap default\/a-\*/,
    extra: 'v1/ConfigMap default/a-*#2',
  },
  {
    cls: 'fault timeout',
    example: 'finalizer',
    plan: 'fault:timeout@write:5',
    point: /write 5: delete v1\/ConfigMap default\/a-size/,
    problem: /finalizer-released/,
  },
  {
    cls: 'stale',
    example: 'stale-parent',
    plan: 'stale:testlab.controller-scope.dev/v1/Widget+1@step:1',
    point: /step 1: create Widget default\/a/,
    problem: /end state differs: v1\/ConfigMap default\/a-1 \(missing\)/,
  },
  {
    cls: 'unobserved',
    example: 'intermediate',
    plan: 'unobserved:testlab.controller-scope.dev/v1/Widget+1@step:2',
    point: /step 2: patch Widget default\/a/,
    problem: /end state differs: v1\/ConfigMap default\/a-prep \(missing\)/,
  },
];

describe('the test lab finds each planted bug with one fixed plan, and not in the twin', () => {
  for (const c of CASES) {
    it(`${c.cls}: ${c.plan} on ${c.example}`, { timeout: 240_000 }, async () => {
      const buggy = await lab(c.example, 'buggy', c.plan);
      expect(
        buggy.runs.filter((v) => v.index <= 0).every((v) => v.ok),
        'the reference runs are clean',
      ).toBe(true);
      expect(planRun(buggy)?.ok).toBe(false);
      expect(buggy.findings).toHaveLength(1);
      const f = buggy.findings[0]!;
      expect(f.point).toMatch(c.point);
      expect(f.problem).toMatch(c.problem);
      if (c.extra) expect(f.differences).toContainEqual(expect.objectContaining({ key: c.extra, kind: 'extra' }));
      if (c.missing) expect(f.differences).toContainEqual(expect.objectContaining({ key: c.missing, kind: 'missing' }));
      expect(f.command).toBe(`controller-scope test ${c.example}/buggy.ts --seed 1 --plan '${c.plan}'`);

      const twin = await lab(c.example, 'correct', c.plan);
      const run = planRun(twin);
      expect({ violations: run?.violations, differences: run?.differences }).toEqual({
        violations: [],
        differences: [],
      });
      expect(twin.findings).toEqual([]);
    });
  }
});
