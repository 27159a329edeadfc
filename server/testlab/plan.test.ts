import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  candidatePlans,
  faultsFor,
  FAULTS,
  formatPlan,
  orderPlans,
  parsePlan,
  PlanSyntaxError,
  type Plan,
} from './plan';
import type { TraceEntry } from './trace';

const kind = fc.constantFrom('v1/ConfigMap', 'apps/v1/Deployment', 'testlab.controller-scope.dev/v1/Widget');
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const point = fc.oneof(
  fc.record({ at: fc.constant('write' as const), k: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ at: fc.constant('step' as const), i: fc.integer({ min: 1, max: 50 }) }),
  fc.record({
    at: fc.constant('reconcile' as const),
    key: fc.oneof(
      name,
      fc.tuple(name, name).map(([ns, n]) => `${ns}/${n}`),
    ),
    n: fc.integer({ min: 1, max: 50 }),
  }),
);
const perturbation = fc.oneof(
  fc.constant({ class: 'crash' as const }),
  fc.constantFrom(...FAULTS).map((fault) => ({ class: 'fault' as const, fault })),
  fc.record({
    class: fc.constantFrom('stale' as const, 'unobserved' as const),
    kind,
    steps: fc.integer({ min: 0, max: 5 }),
  }),
);
const plan: fc.Arbitrary<Plan> = fc.record({ perturbation, point });

const trace: TraceEntry[] = [
  { at: 'step', i: 1, what: 'create Widget default/a' },
  { at: 'reconcile', controller: 'c', key: 'default/a', n: 1 },
  {
    at: 'write',
    k: 1,
    verb: 'create',
    ref: { kind: 'v1/ConfigMap', namespace: 'default', name: 'a-*' },
    during: 'c default/a',
  },
  {
    at: 'write',
    k: 2,
    verb: 'updateStatus',
    ref: { kind: 'x/v1/Widget', namespace: 'default', name: 'a' },
    during: 'c default/a',
  },
  { at: 'write', k: 3, verb: 'updateStatus', ref: { kind: 'x/v1/Widget', namespace: 'default', name: 'a' } },
  { at: 'step', i: 2, what: 'delete Widget default/a' },
];

describe('plans print as one token and parse back', () => {
  it('formatPlan and parsePlan are inverse for every plan', () => {
    fc.assert(
      fc.property(plan, (p) => {
        expect(parsePlan(formatPlan(p))).toEqual(p);
      }),
    );
  });

  it.each([
    'crash',
    'crash@',
    'crash@write:0',
    'fault:418@write:1',
    'stale:v1/ConfigMap@step:1',
    'stale@step:1',
    'crash:x@write:1',
    'unobserved:v1/Pod+1@reconcile:a',
  ])('refuses %s, saying what a plan looks like', (text) => {
    expect(() => parsePlan(text)).toThrow(PlanSyntaxError);
    expect(() => parsePlan(text)).toThrow(/expected e\.g\. crash@write:3/);
  });
});

describe('candidate plans from a reference trace', () => {
  const plans = candidatePlans(trace, ['v1/ConfigMap']).map(formatPlan);

  it('crash and the verb-fitting faults on every write; no conflict on a create', () => {
    expect(plans).toContain('crash@write:1');
    expect(plans).toContain('fault:409@write:2');
    expect(plans).not.toContain('fault:409@write:1');
    expect(faultsFor('create')).toEqual(['500', '503', '429', 'timeout']);
  });

  it('holds of each watched kind before every step (through one more) and at every write and reconcile', () => {
    expect(plans).toContain('stale:v1/ConfigMap+1@step:2');
    expect(plans).toContain('unobserved:v1/ConfigMap+0@write:2');
    expect(plans).toContain('stale:v1/ConfigMap+0@reconcile:default/a#1');
    expect(plans.filter((p) => p.startsWith('unobserved:'))).toHaveLength(trace.length);
  });
});

describe('orderPlans', () => {
  const all = candidatePlans(trace, ['v1/ConfigMap', 'v1/Secret']);

  it('is a permutation, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const a = orderPlans(all, seed, trace).map(formatPlan);
        expect([...a].sort()).toEqual(all.map(formatPlan).sort());
        expect(orderPlans(all, seed, trace).map(formatPlan)).toEqual(a);
      }),
    );
  });

  it('puts the most promising plans of each class first, whatever the seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const order = orderPlans(all, seed, trace);
        const faults = order.filter((p) => p.perturbation.class === 'fault').map(formatPlan);
        // Writes 1 and 3 are the last to their objects (2 is rewritten by 3): a 409 or 500 there comes first.
        expect(faults.slice(0, 3).sort()).toEqual(['fault:409@write:3', 'fault:500@write:1', 'fault:500@write:3']);
        const holds = order.filter((p) => p.perturbation.class === 'stale');
        expect(holds.slice(0, 4).every((p) => p.point.at === 'step')).toBe(true);
        const crashes = order.filter((p) => p.perturbation.class === 'crash').map(formatPlan);
        // Between the two writes of one reconcile first.
        expect(crashes[0]).toBe('crash@write:1');
      }),
    );
  });

  it('samples every class within the first round, whatever the seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const first = orderPlans(all, seed, trace).slice(0, 4);
        const classes = new Set(first.map((p) => p.perturbation.class));
        expect([...classes].sort()).toEqual(['crash', 'fault', 'stale', 'unobserved']);
      }),
    );
  });
});
