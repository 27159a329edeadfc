import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { transformShareSubtrees } from './share-subtrees';

const RESOURCES = { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } };

/** As a watch delivers it: parsed from JSON, so every object is a copy of its own. */
const pod = (name: string, containers = 1): KubeObject =>
  JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'team', uid: `uid-${name}`, labels: { app: 'web' } },
      spec: {
        nodeName: `node-${name}`,
        containers: Array.from({ length: containers }, (_, i) => ({
          name: `c${i}`,
          image: 'registry.example.com/app:v1',
          resources: RESOURCES,
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          securityContext: {},
        })),
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }],
      },
    }),
  ) as KubeObject;

/** Deep equality as JavaScript sees it: prototypes, own keys in order, values by Object.is. */
function same(x: unknown, y: unknown): boolean {
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return Object.is(x, y);
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
  const [kx, ky] = [Object.keys(x), Object.keys(y)];
  if (kx.join('\u0000') !== ky.join('\u0000') || kx.length !== ky.length) return false;
  return kx.every((k) => same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
}

/**
 * A subtree is held from its second sighting, and its parent can be keyed only once it is: a subtree of
 * depth d is shared from the (d+2)th object that holds it on. The Pods here are at most 5 deep.
 */
const warm = (t: (o: KubeObject) => KubeObject, containers = 1): void => {
  for (let i = 0; i < 6; i++) t(pod(`warm-${i}`, containers));
};

type Container = { resources: object; ports: object[]; securityContext: object };
const containers = (o: KubeObject): Container[] => (o.spec as { containers: Container[] }).containers;

describe('transformShareSubtrees', () => {
  it('makes equal subtrees of two objects one frozen instance, and leaves unique parts their own', () => {
    const t = transformShareSubtrees();
    warm(t);
    const a = t(pod('a'));
    const b = t(pod('b'));
    const [ca, cb] = [containers(a)[0]!, containers(b)[0]!];
    expect(cb.resources).toBe(ca.resources);
    expect(cb.ports).toBe(ca.ports);
    expect(cb.securityContext).toBe(ca.securityContext);
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect((b.spec as { tolerations: unknown }).tolerations).toBe((a.spec as { tolerations: unknown }).tolerations);
    // The containers are equal too (same name, image...): one instance.
    expect(cb).toBe(ca);
    expect(Object.isFrozen(cb.resources)).toBe(true);
    expect(() => {
      (cb.resources as { requests: unknown }).requests = {};
    }).toThrow(TypeError);
    // What differs stays each object's own; the object and its metadata stay writable.
    expect(b.metadata).not.toBe(a.metadata);
    expect(b.spec).not.toBe(a.spec);
    expect(Object.isFrozen(b)).toBe(false);
    expect(Object.isFrozen(b.metadata)).toBe(false);
  });

  it('never places one instance twice within one object', () => {
    const t = transformShareSubtrees();
    warm(t, 2);
    const o = t(pod('second', 2));
    const [c0, c1] = containers(o) as [Container, Container];
    expect(c0.resources).toEqual(c1.resources);
    expect(c0.resources).not.toBe(c1.resources);
    expect(c0.ports).not.toBe(c1.ports);
    expect(c0.securityContext).not.toBe(c1.securityContext);
    // Each place anywhere in the object holds a distinct object.
    const seen = new Set<object>();
    const walk = (v: unknown): void => {
      if (v === null || typeof v !== 'object') return;
      expect(seen.has(v)).toBe(false);
      seen.add(v);
      Object.values(v).forEach(walk);
    };
    walk(o);
  });

  it('keeps what the object says: the same JSON, key order included', () => {
    const t = transformShareSubtrees();
    const reordered = pod('b');
    const c = containers(reordered)[0] as unknown as Record<string, unknown>;
    c.resources = { limits: { memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } };
    warm(t);
    const before = JSON.stringify(reordered);
    const after = t(reordered);
    expect(after).toBe(reordered);
    expect(JSON.stringify(after)).toBe(before);
    expect(containers(after)[0]!.resources).not.toBe(containers(t(pod('c')))[0]!.resources);
  });

  it('tells apart values that print alike: "1" and 1, null and "null", 0 and -0, keys and values', () => {
    const t = transformShareSubtrees();
    const cases = [{ v: '1' }, { v: 1 }, { v: null }, { v: 'null' }, { v: 0 }, { v: -0 }, { 'v,"w"': 1 }, { v: [1] }];
    const run = (): unknown[] =>
      cases.map((c) => t({ apiVersion: 'v1', kind: 'X', metadata: {}, spec: structuredClone(c) } as KubeObject).spec);
    run();
    run();
    const held = run();
    const again = run();
    for (let i = 0; i < cases.length; i++) {
      expect(again[i]).toBe(held[i]);
      expect(same(again[i], cases[i])).toBe(true);
      for (let j = 0; j < cases.length; j++) if (j !== i) expect(held[j]).not.toBe(held[i]);
    }
  });

  it('holds "__proto__" as data, never as a prototype', () => {
    const t = transformShareSubtrees();
    const text =
      '{"apiVersion":"v1","kind":"X","metadata":{},"spec":{"__proto__":{"polluted":1},"x":{"__proto__":[]}}}';
    t(JSON.parse(text) as KubeObject);
    const o = t(JSON.parse(text) as KubeObject);
    expect(JSON.stringify(o)).toBe(text);
    const spec = o.spec as Record<string, unknown>;
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(Object.keys(spec)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps its table bounded while unique subtrees churn, and still shares after', () => {
    const t = transformShareSubtrees({ maxEntries: 32 });
    for (let i = 0; i < 200; i++) {
      t({ apiVersion: 'v1', kind: 'X', metadata: {}, spec: { unique: { n: i }, tags: [`t${i}`] } } as KubeObject);
      expect(t.heldValues()).toBeLessThanOrEqual(64);
    }
    warm(t);
    const a = t(pod('a'));
    const b = t(pod('b'));
    expect(containers(b)[0]!.resources).toBe(containers(a)[0]!.resources);
  });

  it('does not hold a subtree seen once', () => {
    const t = transformShareSubtrees();
    t(pod('only'));
    expect(t.heldValues()).toBe(0);
    t(pod('again'));
    expect(t.heldValues()).toBeGreaterThan(0);
  });

  it('leaves frozen objects alone and does not throw on a frozen part', () => {
    const t = transformShareSubtrees();
    const frozen = Object.freeze(pod('frozen'));
    expect(t(frozen)).toBe(frozen);
    expect(t.heldValues()).toBe(0);
    const partly = pod('partly');
    Object.freeze(partly.spec);
    const before = JSON.stringify(partly);
    expect(() => t(partly)).not.toThrow();
    expect(JSON.stringify(partly)).toBe(before);
  });

  it('shares again into objects built from held parts (a re-transformed object)', () => {
    const t = transformShareSubtrees();
    const a = t(pod('a'));
    const b = t({ ...pod('b'), spec: { ...(a.spec as object) } } as KubeObject);
    expect(JSON.stringify(b.spec)).toBe(JSON.stringify(a.spec));
  });

  it('property: transform(copy of x) deep-equals x and prints the same, for JSON-like values', () => {
    const key = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'a', 'b', ''),
      fc.string({ unit: 'grapheme' }),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(null, true, false, 0, 1, 'x', 'y', ''),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
        fc.string({ unit: 'grapheme' }),
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
      ),
    }));
    // One transform for all runs, so later objects meet what earlier ones left in the table.
    const t = transformShareSubtrees({ maxEntries: 64 });
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 4 }), (specs) => {
        for (const spec of specs) {
          const x = { apiVersion: 'v1', kind: 'X', metadata: {}, spec, again: spec };
          const text = JSON.stringify(x);
          const out = t(JSON.parse(text) as KubeObject);
          expect(JSON.stringify(out)).toBe(text);
          expect(same(out, JSON.parse(text))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
