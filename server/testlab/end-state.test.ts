import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { diffStates, learnMasks } from './diff';
import { normalize } from './end-state';

const widget = (uid: string, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'x.dev/v1',
  kind: 'Widget',
  metadata: {
    name: 'a',
    namespace: 'default',
    uid,
    resourceVersion: '17',
    generation: 3,
    creationTimestamp: '2026-01-01T00:00:00Z',
    managedFields: [],
  },
  status,
});

const child = (name: string, ownerUid: string, size = '1'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    generateName: 'a-',
    namespace: 'default',
    uid: `uid-${name}`,
    ownerReferences: [{ apiVersion: 'x.dev/v1', kind: 'Widget', name: 'a', uid: ownerUid, controller: true }],
  },
  data: { size },
});

describe('normalize', () => {
  it('drops what differs between equal runs: uid, resourceVersion, generation, timestamps, managedFields', () => {
    const a = normalize([widget('u1', { at: '2026-03-03T10:00:00.123Z' })]);
    const b = normalize([widget('u2', { at: '2026-03-04T11:00:00Z' })]);
    expect(a).toEqual(b);
    expect(a.get('x.dev/v1/Widget default/a')).toEqual({
      apiVersion: 'x.dev/v1',
      kind: 'Widget',
      metadata: { name: 'a', namespace: 'default' },
      status: { at: '<time>' },
    });
  });

  it('names generated children by prefix, references to them too, and owners by kind and name', () => {
    const one = normalize([widget('u1', { child: 'a-xk2p9' }), child('a-xk2p9', 'u1')]);
    const other = normalize([widget('u2', { child: 'a-77hhq' }), child('a-77hhq', 'u2')]);
    expect(one).toEqual(other);
    expect(one.get('v1/ConfigMap default/a-*#1')).toMatchObject({
      metadata: { name: 'a-*', ownerReferences: [{ uid: 'x.dev/v1/Widget default/a' }] },
    });
    expect(one.get('x.dev/v1/Widget default/a')).toMatchObject({ status: { child: 'a-*' } });
  });

  it('compares generated objects by count and content: a second child is a difference', () => {
    const reference = normalize([widget('u1', { child: 'a-1' }), child('a-1', 'u1')]);
    const run = normalize([widget('u1', { child: 'a-1' }), child('a-1', 'u1'), child('a-2', 'u1', '2')]);
    expect(diffStates(reference, run).map((d) => [d.key, d.kind])).toEqual([['v1/ConfigMap default/a-*#2', 'extra']]);
  });

  it('marks an owner that is gone instead of hiding it', () => {
    const s = normalize([child('a-1', 'no-such-uid')]);
    expect(s.get('v1/ConfigMap default/a-*#1')).toMatchObject({
      metadata: { ownerReferences: [{ uid: '<gone: Widget a>' }] },
    });
  });
});

describe('diffStates and masks', () => {
  const ref = normalize([widget('u', { phase: 'Ready', nonce: 1 })]);
  const run = normalize([widget('u', { phase: 'Pending', nonce: 2 })]);

  it('names the field that differs, with both values', () => {
    expect(diffStates(ref, run)).toContainEqual({
      key: 'x.dev/v1/Widget default/a',
      kind: 'changed',
      path: '/status/phase',
      reference: 'Ready',
      run: 'Pending',
    });
  });

  it('learns masks from two runs and ignores only the masked fields', () => {
    const masks = learnMasks(ref, normalize([widget('u', { phase: 'Ready', nonce: 9 })]));
    expect([...masks]).toEqual(['x.dev/v1/Widget default/a /status/nonce']);
    expect(diffStates(ref, run, masks).map((d) => d.path)).toEqual(['/status/phase']);
  });

  it('reports objects missing from the run and left over by it', () => {
    const empty = normalize([]);
    expect(diffStates(ref, empty)).toEqual([expect.objectContaining({ kind: 'missing' })]);
    expect(diffStates(empty, ref)).toEqual([expect.objectContaining({ kind: 'extra' })]);
    expect(diffStates(ref, empty, new Set(['x.dev/v1/Widget default/a']))).toEqual([]);
  });
});
