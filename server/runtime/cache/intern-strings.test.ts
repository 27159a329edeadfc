import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { transformInternStrings } from './intern-strings';

const IMAGE = 'registry.example.com/team/app:v1.2.3';
const TOLERATION = 'node.kubernetes.io/not-ready';

/** As a watch delivers it: parsed from JSON, so values longer than 10 characters are copies of their own. */
const pod = (name: string, image = IMAGE): KubeObject =>
  JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'team-payments', creationTimestamp: '2026-11-30T10:00:00Z' },
      spec: {
        containers: [{ name: 'app', image, env: [{ name: 'SETTING_WITH_A_LONG_NAME', value: `${name}-secret` }] }],
        tolerations: [{ key: TOLERATION, operator: 'Exists' }],
      },
    }),
  ) as KubeObject;

describe('transformInternStrings', () => {
  it('returns the object itself, equal to what it was', () => {
    const t = transformInternStrings();
    const a = pod('a-pod-with-a-long-name');
    const before = structuredClone(a);
    expect(t(a)).toBe(a);
    expect(a).toEqual(before);
  });

  it('holds one copy per distinct value under the interned fields, longer than V8 shares itself', () => {
    const t = transformInternStrings();
    t(pod('first-pod-name'));
    // namespace, creationTimestamp, image, the toleration key; not names, env, or "v1"/"Pod"/"Exists".
    expect(t.heldValues()).toBe(4);
    t(pod('second-pod-name'));
    expect(t.heldValues()).toBe(4);
    t(pod('third-pod-name', 'registry.example.com/team/app:v1.2.4'));
    expect(t.heldValues()).toBe(5);
  });

  it('writes the held copy back into every later object', () => {
    const t = transformInternStrings({ fields: ['image'] });
    t(pod('first'));
    // A string's identity is not observable from JavaScript; a setter sees what the transform writes back.
    const written: string[] = [];
    let image = `${IMAGE.slice(0, 10)}${IMAGE.slice(10)}`;
    const container = {};
    Object.defineProperty(container, 'image', {
      enumerable: true,
      get: () => image,
      set: (v: string) => {
        written.push(v);
        image = v;
      },
    });
    t({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'second' }, spec: { containers: [container] } } as KubeObject);
    expect(written).toEqual([IMAGE]);
  });

  it('stops admitting values once full, and keeps working', () => {
    const t = transformInternStrings({ maxEntries: 2, fields: ['image'] });
    for (let i = 0; i < 5; i++) expect(t(pod(`pod-${i}`, `${IMAGE}-${i}`)).metadata.name).toBe(`pod-${i}`);
    expect(t.heldValues()).toBe(2);
  });

  it('leaves frozen objects alone and does not throw on a frozen part', () => {
    const t = transformInternStrings();
    const frozen = Object.freeze(pod('frozen'));
    expect(t(frozen)).toBe(frozen);
    expect(t.heldValues()).toBe(0);
    t(pod('warm-the-table'));
    const partly = pod('partly');
    Object.freeze(partly.metadata);
    expect(() => t(partly)).not.toThrow();
    expect(partly.metadata.namespace).toBe('team-payments');
  });
});
