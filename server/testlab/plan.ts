// A plan: one perturbation at one point of the reference run's trace. Plans print as one token
// (`crash@write:3`, `fault:409@write:2`, `stale:v1/ConfigMap+1@step:2`, `unobserved:v1/Secret+0@reconcile:default/a#1`)
// so a finding's plan can be given back with --plan to run exactly that again.
import { prng } from '../../shared/prng';
import type { TraceEntry, WriteVerb } from './trace';

export type Point =
  /** Crash and faults: the k-th write itself. Stale and unobserved: from just before it is sent. */
  | { at: 'write'; k: number }
  /** Just before the n-th reconcile of key starts. */
  | { at: 'reconcile'; key: string; n: number }
  /** Just before the scenario's step i (1-based) is applied. */
  | { at: 'step'; i: number };

export const FAULTS = ['409', '500', '503', '429', 'timeout'] as const;
export type FaultCode = (typeof FAULTS)[number];

export type Perturbation =
  /** Hold one kind's watch events from the point through `steps` more scenario steps, then replay them. */
  | { class: 'stale'; kind: string; steps: number }
  /** The same hold, lifted by a relist: only each object's latest state arrives, missed deletes as tombstones. */
  | { class: 'unobserved'; kind: string; steps: number }
  /** Stop the controller's manager right after the write (its cache gone), then start a fresh one. */
  | { class: 'crash' }
  /** The write fails: 409/500 reach the controller, 503/429 carry Retry-After (the client retries), timeout is applied and then fails. */
  | { class: 'fault'; fault: FaultCode };

export type PerturbationClass = Perturbation['class'];
export const CLASSES: readonly PerturbationClass[] = ['stale', 'unobserved', 'crash', 'fault'];

export interface Plan {
  perturbation: Perturbation;
  point: Point;
}

export function formatPoint(p: Point): string {
  if (p.at === 'write') return `write:${p.k}`;
  if (p.at === 'step') return `step:${p.i}`;
  return `reconcile:${p.key}#${p.n}`;
}

export function formatPlan(plan: Plan): string {
  const p = plan.perturbation;
  const what =
    p.class === 'crash' ? 'crash' : p.class === 'fault' ? `fault:${p.fault}` : `${p.class}:${p.kind}+${p.steps}`;
  return `${what}@${formatPoint(plan.point)}`;
}

export class PlanSyntaxError extends Error {
  override readonly name = 'PlanSyntaxError';
}

const count = (s: string | undefined, min: number): number | undefined => {
  const n = Number(s);
  return s !== undefined && /^\d+$/.test(s) && n >= min ? n : undefined;
};

export function parsePoint(text: string): Point | undefined {
  const [at, rest] = splitOnce(text, ':');
  if (at === 'write' && count(rest, 1) !== undefined) return { at, k: Number(rest) };
  if (at === 'step' && count(rest, 1) !== undefined) return { at, i: Number(rest) };
  if (at === 'reconcile' && rest) {
    const [key, n] = splitOnce(rest, '#');
    if (key && count(n, 1) !== undefined) return { at, key, n: Number(n) };
  }
  return undefined;
}

export function parsePlan(text: string): Plan {
  const bad = (why: string): never => {
    throw new PlanSyntaxError(
      `plan '${text}': ${why}; expected e.g. crash@write:3, fault:409@write:2, stale:v1/ConfigMap+1@step:2, unobserved:v1/Secret+0@reconcile:default/a#1`,
    );
  };
  const [what, where] = splitOnce(text.trim(), '@');
  const point = where ? parsePoint(where) : undefined;
  if (!what || !point) return bad('no point after @ (write:K, step:I or reconcile:KEY#N)');
  const [cls, arg] = splitOnce(what, ':');
  if (cls === 'crash' && arg === undefined) return { perturbation: { class: 'crash' }, point };
  if (cls === 'fault') {
    const fault = FAULTS.find((f) => f === arg);
    return fault ? { perturbation: { class: 'fault', fault }, point } : bad(`the fault is one of ${FAULTS.join(', ')}`);
  }
  if ((cls === 'stale' || cls === 'unobserved') && arg) {
    const [kind, steps] = splitOnce(arg, '+');
    const n = count(steps, 0);
    if (kind && n !== undefined) return { perturbation: { class: cls, kind, steps: n }, point };
  }
  return bad('the perturbation is crash, fault:CODE, stale:KIND+STEPS or unobserved:KIND+STEPS');
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + sep.length)];
}

/** The faults worth injecting on a write of this verb (a create cannot conflict on a resourceVersion). */
export function faultsFor(verb: WriteVerb): FaultCode[] {
  if (verb === 'create' || verb === 'delete' || verb === 'deleteAllOf') return FAULTS.filter((f) => f !== '409');
  return [...FAULTS];
}

/**
 * Every plan the reference trace offers: a crash and each fault on every write; a stale and an unobserved
 * hold of every watched kind before every step (through the next step), every write and every reconcile
 * (until the controller settles).
 */
export function candidatePlans(trace: readonly TraceEntry[], kinds: readonly string[]): Plan[] {
  const plans: Plan[] = [];
  for (const e of trace) {
    if (e.at !== 'write') continue;
    const point: Point = { at: 'write', k: e.k };
    plans.push({ perturbation: { class: 'crash' }, point });
    for (const fault of faultsFor(e.verb)) plans.push({ perturbation: { class: 'fault', fault }, point });
  }
  for (const cls of ['stale', 'unobserved'] as const) {
    for (const kind of kinds) {
      for (const e of trace) {
        const point: Point =
          e.at === 'step'
            ? { at: 'step', i: e.i }
            : e.at === 'write'
              ? { at: 'write', k: e.k }
              : { at: 'reconcile', key: e.key, n: e.n };
        plans.push({ perturbation: { class: cls, kind, steps: e.at === 'step' ? 1 : 0 }, point });
      }
    }
  }
  return plans;
}

/**
 * How promising a plan is, lower first (Sieve prunes the same way: a perturbation whose effect a later step
 * repairs finds nothing). Faults: on the last write to an object (nothing later rewrites it), and of a kind
 * the reconciler sees (409, 500) before timeouts, before the ones the client retries by itself (503, 429).
 * Crashes: between two writes of one reconcile first. Holds: before a step, then at a write, then at a
 * reconcile.
 */
export function tierOf(p: Plan, trace: readonly TraceEntry[]): number {
  const c = p.perturbation;
  if (c.class === 'stale' || c.class === 'unobserved')
    return p.point.at === 'step' ? 0 : p.point.at === 'write' ? 1 : 2;
  if (p.point.at !== 'write') return 3;
  const k = p.point.k;
  const writes = trace.filter((e): e is Extract<TraceEntry, { at: 'write' }> => e.at === 'write');
  const w = writes.find((e) => e.k === k);
  const later = writes.filter((e) => e.k > k);
  if (c.class === 'crash') return later[0] && w?.during && later[0].during === w.during ? 0 : 1;
  const same = (e: Extract<TraceEntry, { at: 'write' }>) =>
    e.ref.kind === w?.ref.kind && e.ref.name === w.ref.name && e.ref.namespace === w.ref.namespace;
  const last = !later.some(same);
  const reaches = c.fault === '409' || c.fault === '500' ? 0 : c.fault === 'timeout' ? 1 : 2;
  return (last ? 0 : 3) + reaches;
}

/**
 * The order plans run in: round-robin over the four classes, each class shuffled by the seed and then
 * sorted by tier, so a small budget samples every class, the most promising plans first, and a larger one
 * covers everything.
 */
export function orderPlans(plans: readonly Plan[], seed: number, trace: readonly TraceEntry[] = []): Plan[] {
  const rand = prng(seed);
  const queues = CLASSES.map((c) =>
    shuffle(
      plans.filter((p) => p.perturbation.class === c),
      rand,
    )
      .map((p) => ({ p, tier: tierOf(p, trace) }))
      .sort((a, b) => a.tier - b.tier)
      .map((x) => x.p),
  );
  const out: Plan[] = [];
  for (let round = 0; out.length < plans.length; round++) {
    for (const q of queues) {
      const p = q[round];
      if (p) out.push(p);
    }
  }
  return out;
}

function shuffle<T>(xs: readonly T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}
