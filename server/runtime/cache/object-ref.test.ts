import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { DeletedFinalStateUnknown } from './interfaces';
import { objectRef } from './object-ref';

const pod = (rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: rv },
});

describe('objectRef', () => {
  it('names the object, its kind and its version', () => {
    expect(objectRef(pod('7'), 'v1/Pod')).toEqual({
      gvk: 'v1/Pod',
      name: 'p',
      namespace: 'ns',
      uid: 'u1',
      resourceVersion: '7',
    });
    expect(objectRef({ metadata: { name: 'n' } }, 'v1/Node')).toEqual({ gvk: 'v1/Node', name: 'n' });
    expect(objectRef(new DeletedFinalStateUnknown('ns/gone', undefined), 'v1/Pod')).toEqual({
      gvk: 'v1/Pod',
      namespace: 'ns',
      name: 'gone',
    });
  });

  it('hands the emit sites reporting one object change the same ref', () => {
    const p = pod('1');
    const a = objectRef(p, 'v1/Pod');
    expect(objectRef(p, 'v1/Pod')).toBe(a);
    // The object names its kind, so the caller's fallback does not change the ref.
    expect(objectRef(p, '')).toBe(a);
    expect(objectRef(new DeletedFinalStateUnknown('ns/p', p), 'v1/Pod')).toBe(a);
  });

  it('builds a fresh ref for another object, another fallback kind, or an object changed in place', () => {
    const p = pod('1');
    const a = objectRef(p, 'v1/Pod');
    const b = objectRef(pod('1'), 'v1/Pod');
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
    p.metadata.resourceVersion = '2';
    expect(objectRef(p, 'v1/Pod').resourceVersion).toBe('2');
    p.metadata.namespace = undefined;
    expect(objectRef(p, 'v1/Pod').namespace).toBeUndefined();
    p.kind = 'Other';
    expect(objectRef(p, 'v1/Pod').gvk).toBe('v1/Other');
    const bare = { metadata: { name: 'n' } };
    expect(objectRef(bare, 'v1/Node').gvk).toBe('v1/Node');
    expect(objectRef(bare, 'v1/ConfigMap').gvk).toBe('v1/ConfigMap');
    expect(a).toEqual({ gvk: 'v1/Pod', name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '1' });
  });
});
