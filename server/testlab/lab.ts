// The test: two unperturbed reference runs (their end state, and the fields they disagree on, which are
// masked), then one run per plan drawn from the reference trace, within the budget. A run that breaks an
// invariant or ends in a different state is a finding, with the command that runs it again.
import { diffStates, learnMasks, type Difference } from './diff';
import type { ControllerTarget } from './incarnation';
import { INVARIANTS, type Violation } from './invariants';
import { candidatePlans, formatPlan, orderPlans, parsePoint, type Plan } from './plan';
import { runOnce, type RunResult } from './run';
import { defaultScenario, type Scenario } from './scenario';
import { completeScenario, type PartialScenario } from './scenario-file';
import { describeEntry, type TraceEntry } from './trace';
import type { Probe } from '../runtime';

export interface LabOptions {
  target: ControllerTarget;
  /** From --scenario or the module's `scenario` export; steps absent: the For kind's default. */
  scenario?: PartialScenario;
  seed: number;
  /** Most perturbed runs; default every plan the reference offers. */
  runs?: number;
  /** Time budget for the perturbed runs, ms. */
  timeMs: number;
  /** Run exactly these plans instead of drawing them (--plan). */
  plans?: Plan[];
  settleTimeoutMs: number;
  quietMs: number;
  /** The command line that runs this test, without --seed/--plan, for a finding's reproduce command. */
  command: string;
  /** Told about every finished run, reference runs included (index 0 and -1), with how many will run. */
  onRun?: (v: RunVerdict, total: number) => void;
  /** A probe for the perturbed runs' managers (--record records them). */
  probe?: Probe;
}

export interface RunVerdict {
  /** 1-based for perturbed runs; 0 and -1 for the two reference runs. */
  index: number;
  plan: string;
  /** Where the point was reached; absent when the run never got there (nothing was perturbed). */
  fired?: string;
  ok: boolean;
  violations: Violation[];
  differences: Difference[];
  durationMs: number;
  error?: string;
}

export interface Finding {
  plan: string;
  /** The reference trace entry the point names. */
  point: string;
  seed: number;
  /** The first invariant broken, or the first difference from the reference end state. */
  problem: string;
  violations: Violation[];
  differences: Difference[];
  command: string;
  /** Seconds from the start of the test until this run ended. */
  foundAfterS: number;
  run: number;
}

export interface LabReport {
  files: string[];
  scenario: string;
  seed: number;
  reference: { durationMs: number; writes: number; watched: string[]; written: string[]; masks: string[] };
  candidates: number;
  runs: RunVerdict[];
  findings: Finding[];
  stoppedBy: 'plans' | 'runs' | 'time';
  durationMs: number;
}

export async function runLab(o: LabOptions): Promise<LabReport> {
  const began = Date.now();
  const common = { target: o.target, settleTimeoutMs: o.settleTimeoutMs, quietMs: o.quietMs };
  const partial = o.scenario ?? { source: 'default', prepare: [] };
  const first = await runOnce({
    ...common,
    seed: o.seed,
    tag: 'ref1',
    scenario: { source: partial.source, prepare: partial.prepare, steps: partial.steps ?? [] },
    // Without steps, the default needs the For kind, which the first run learns from the controller.
    ...(partial.steps ? {} : { derive: (k) => completeScenario(partial, () => defaultScenario(k)) }),
  });
  if (first.error) throw new Error(`the reference run failed: ${first.error}`);
  const scenario: Scenario = first.scenario;
  const second = await runOnce({ ...common, seed: o.seed + 1, tag: 'ref2', scenario, kinds: first.written });
  if (second.error) throw new Error(`the second reference run failed: ${second.error}`);
  const masks = learnMasks(first.end, second.end);
  const findings: Finding[] = [];
  const runs: RunVerdict[] = [];
  let total = 0;
  const judge = (index: number, plan: string, r: RunResult): RunVerdict => {
    const v = verdict(index, plan, r, diffStates(first.end, r.end, masks));
    runs.push(v);
    o.onRun?.(v, total);
    if (!v.ok) findings.push(findingOf(v, first.trace, o, (Date.now() - began) / 1000));
    return v;
  };
  judge(0, 'none (reference)', first);
  judge(-1, 'none (second reference)', { ...second, end: first.end });
  const all = o.plans ?? orderPlans(candidatePlans(first.trace, first.watched), o.seed, first.trace);
  const limit = Math.min(all.length, o.runs ?? Infinity);
  total = limit;
  const deadline = Date.now() + o.timeMs;
  let stoppedBy: LabReport['stoppedBy'] = limit < all.length ? 'runs' : 'plans';
  for (let i = 0; i < limit; i++) {
    if (Date.now() >= deadline && !o.plans) {
      stoppedBy = 'time';
      break;
    }
    const plan = all[i] as Plan;
    const text = formatPlan(plan);
    const r = await runOnce({
      ...common,
      seed: runSeed(o.seed, text),
      tag: `p${i + 1}`,
      scenario,
      plan,
      kinds: first.written,
      ...(o.probe ? { probe: o.probe } : {}),
    });
    judge(i + 1, text, r);
  }
  return {
    files: o.target.files,
    scenario: scenario.source,
    seed: o.seed,
    reference: {
      durationMs: first.durationMs,
      writes: first.trace.filter((e) => e.at === 'write').length,
      watched: first.watched,
      written: first.written,
      masks: [...masks].sort(),
    },
    candidates: all.length,
    runs,
    findings,
    stoppedBy,
    durationMs: Date.now() - began,
  };
}

/** The sandbox seed of a perturbed run: from the test's seed and the plan alone, so --plan replays it. */
export function runSeed(seed: number, plan: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < plan.length; i++) h = (Math.imul(h, 31) + plan.charCodeAt(i)) >>> 0;
  return h;
}

function verdict(index: number, plan: string, r: RunResult, differences: Difference[]): RunVerdict {
  const violations = [...r.violations].sort(
    (a, b) => INVARIANTS.indexOf(a.invariant) - INVARIANTS.indexOf(b.invariant),
  );
  return {
    index,
    plan,
    ...(r.fired ? { fired: r.fired } : {}),
    ok: !r.error && violations.length === 0 && differences.length === 0,
    violations,
    differences,
    durationMs: r.durationMs,
    ...(r.error ? { error: r.error } : {}),
  };
}

function findingOf(v: RunVerdict, trace: readonly TraceEntry[], o: LabOptions, foundAfterS: number): Finding {
  const first = v.violations[0];
  // An object too many or too few says more than the field differences it drags along.
  const diff = v.differences.find((d) => d.kind !== 'changed') ?? v.differences[0];
  const problem = v.error
    ? `the run failed: ${v.error}`
    : first
      ? `${first.invariant}: ${first.detail}`
      : diff
        ? `end state differs: ${diff.key}${diff.path ? ` ${diff.path}` : ''} (${diff.kind})`
        : 'unknown';
  const at = v.plan.includes('@') ? pointEntry(v.plan.slice(v.plan.indexOf('@') + 1), trace) : 'no perturbation';
  const replay =
    v.index > 0 ? `${o.command} --seed ${o.seed} --plan '${v.plan}'` : `${o.command} --seed ${o.seed} --runs 0`;
  return {
    plan: v.plan,
    point: at,
    seed: o.seed,
    problem,
    violations: v.violations,
    differences: v.differences,
    command: replay,
    foundAfterS,
    run: v.index,
  };
}

function pointEntry(text: string, trace: readonly TraceEntry[]): string {
  const p = parsePoint(text);
  const e = trace.find(
    (x) =>
      (p?.at === 'write' && x.at === 'write' && x.k === p.k) ||
      (p?.at === 'step' && x.at === 'step' && x.i === p.i) ||
      (p?.at === 'reconcile' && x.at === 'reconcile' && x.key === p.key && x.n === p.n),
  );
  return e ? describeEntry(e) : `${text} (not in the reference trace)`;
}
