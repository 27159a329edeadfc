// Kind descriptors: the scheme-less way this port names types.
import { describe, expect, it } from 'vitest';
import { groupKindString, gvkId, gvkOfObject, toGVK } from './gvk';

describe('toGVK', () => {
  it('accepts a GVK, an {apiVersion, kind} pair, "group/version/Kind", "version/Kind" and well-known kinds', () => {
    const deploy = { group: 'apps', version: 'v1', kind: 'Deployment' };
    expect(toGVK(deploy)).toEqual(deploy);
    expect(toGVK({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual(deploy);
    expect(toGVK('apps/v1/Deployment')).toEqual(deploy);
    expect(toGVK('v1/Pod')).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(toGVK('Deployment')).toEqual(deploy);
  });
  it('refuses unknown bare kinds and malformed strings', () => {
    expect(() => toGVK('Gizmo')).toThrow('no kind is registered for the type Gizmo');
    expect(() => toGVK('a/b/c/d')).toThrow('unexpected kind descriptor');
  });
  it('prints ids and group kinds as the rest of the runtime does', () => {
    expect(gvkId({ group: '', version: 'v1', kind: 'Pod' })).toBe('v1/Pod');
    expect(gvkId({ group: 'apps', version: 'v1', kind: 'ReplicaSet' })).toBe('apps/v1/ReplicaSet');
    expect(groupKindString({ group: 'apps', kind: 'ReplicaSet' })).toBe('ReplicaSet.apps');
    expect(groupKindString({ group: '', kind: 'Pod' })).toBe('Pod');
    expect(gvkOfObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} })).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(gvkOfObject({ metadata: {} })).toBeUndefined();
  });
});
