// apimachinery schema helpers: ParseGroupVersion cases (group_version_test) and resource paths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import {
  apiVersionOf,
  groupResourceString,
  mustGVKOf,
  gvkToString,
  parseGroupVersion,
  resourcePath,
  wellKnownKind,
  groupKindString,
  gvkId,
  gvkIdOf,
  gvkOfObject,
  toGVK,
} from './gvk';

describe('parseGroupVersion', () => {
  it.each([
    ['v1', { group: '', version: 'v1' }],
    ['apps/v1', { group: 'apps', version: 'v1' }],
    ['example.com/v1alpha1', { group: 'example.com', version: 'v1alpha1' }],
  ])('%s', (input, expected) => {
    expect(parseGroupVersion(input)).toEqual(expected);
    expect(apiVersionOf(expected)).toBe(input);
  });

  it.each(['', 'a/b/c', '/v1', 'apps/'])('rejects %j', (input) => {
    expect(() => parseGroupVersion(input)).toThrow();
  });
});

describe('gvk helpers', () => {
  it('mustGVKOf reads apiVersion and kind, and says what is missing', () => {
    expect(mustGVKOf({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(() => mustGVKOf({ kind: 'Pod' })).toThrow('object has no apiVersion/kind set');
  });

  it('prints GVKs and group-resources as apimachinery does', () => {
    expect(gvkToString({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('apps/v1, Kind=Deployment');
    expect(groupResourceString({ group: 'apps', resource: 'deployments' })).toBe('deployments.apps');
    expect(groupResourceString({ group: '', resource: 'pods' })).toBe('pods');
  });

  it('builds collection, object and subresource paths, escaping names', () => {
    const pods = { group: '', version: 'v1', resource: 'pods' };
    const deploys = { group: 'apps', version: 'v1', resource: 'deployments' };
    expect(resourcePath(pods)).toBe('/api/v1/pods');
    expect(resourcePath(pods, { namespace: 'ns', name: 'p', subresource: 'status' })).toBe(
      '/api/v1/namespaces/ns/pods/p/status',
    );
    expect(resourcePath(deploys, { namespace: 'ns' })).toBe('/apis/apps/v1/namespaces/ns/deployments');
    expect(resourcePath(pods, { namespace: 'ns', name: 'a b/c' })).toBe('/api/v1/namespaces/ns/pods/a%20b%2Fc');
    expect(() => resourcePath(pods, { name: '' })).toThrow('may not be empty');
  });

  it('knows common built-in kinds', () => {
    expect(wellKnownKind({ group: 'apps', version: 'v1', kind: 'Deployment' })).toMatchObject({
      gvr: { resource: 'deployments' },
      namespaced: true,
    });
    expect(wellKnownKind({ group: '', version: 'v1', kind: 'Node' })?.namespaced).toBe(false);
    expect(wellKnownKind({ group: 'example.com', version: 'v1', kind: 'Widget' })).toBeUndefined();
  });
});

// Kind descriptors: the scheme-less way this port names types.
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
    const deploy: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} };
    const bare: KubeObject = { metadata: {} };
    expect(gvkOfObject(deploy)).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(gvkOfObject(bare)).toBeUndefined();
    expect(gvkIdOf({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'x')).toBe('apps/v1/Deployment');
    expect(gvkIdOf({ metadata: {} }, 'v1/Pod')).toBe('v1/Pod');
  });

  it('gvkIdOf names what the object declares whatever the fallback, also when the fallback nearly matches', () => {
    const part = fc.constantFrom('v1', 'apps/v1', 'Pod', 'v1/Pod', 'Po', 'd', '/', 'apps', 'v1/Deployment');
    fc.assert(
      fc.property(part, part, fc.oneof(part, fc.string()), (apiVersion, kind, fallback) => {
        expect(gvkIdOf({ apiVersion, kind }, fallback)).toBe(`${apiVersion}/${kind}`);
        expect(gvkIdOf({ apiVersion, kind }, `${apiVersion}/${kind}`)).toBe(`${apiVersion}/${kind}`);
      }),
    );
  });
});
