// Scenarios from controller-runtime pkg/controller/controllerutil/controllerutil_test.go.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { ObjectKey, ObjectType } from '../client/interfaces';
import { ApiError } from '../util/errors';
import {
  addFinalizer,
  AlreadyOwnedError,
  containsFinalizer,
  createOrUpdate,
  hasControllerReference,
  hasOwnerReference,
  removeControllerReference,
  removeFinalizer,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './controllerutil';

const rs = (name: string, ns = 'default'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { namespace: ns, name, uid: `uid-${name}` },
});
const pod = (ns = 'default'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: ns, name: 'p' } });

describe('owner references', () => {
  it('sets a controller reference with blockOwnerDeletion', () => {
    const p = pod();
    setControllerReference(rs('a'), p);
    expect(p.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'a',
        uid: 'uid-a',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(hasControllerReference(p)).toBe(true);
  });
  it('refuses a second controller, replaces the same owner (version ignored)', () => {
    const p = pod();
    setControllerReference(rs('a'), p);
    expect(() => setControllerReference(rs('b'), p)).toThrow(AlreadyOwnedError);
    expect(() => setControllerReference(rs('b'), p)).toThrow(
      'Object default/p is already owned by another ReplicaSet controller a',
    );
    setControllerReference(
      { ...rs('a'), apiVersion: 'apps/v1beta1', metadata: { ...rs('a').metadata, uid: 'new' } },
      p,
    );
    expect(p.metadata.ownerReferences).toHaveLength(1);
    expect(p.metadata.ownerReferences?.[0]?.uid).toBe('new');
  });
  it('rejects cross-namespace and namespaced owners of cluster-scoped objects', () => {
    expect(() => setOwnerReference(rs('a', 'other'), pod())).toThrow('cross-namespace owner references are disallowed');
    expect(() => setOwnerReference(rs('a'), { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } })).toThrow(
      'cluster-scoped resource must not have a namespace-scoped owner',
    );
  });
  it('adds plain owner references without the controller flag', () => {
    const p = pod();
    setOwnerReference(rs('a'), p);
    setOwnerReference(rs('b'), p);
    expect(p.metadata.ownerReferences?.map((r) => [r.name, r.controller])).toEqual([
      ['a', undefined],
      ['b', undefined],
    ]);
    expect(hasOwnerReference(p.metadata.ownerReferences, rs('b'))).toBe(true);
    expect(hasControllerReference(p)).toBe(false);
  });
  it('removes references with the upstream errors', () => {
    const p = pod();
    expect(() => removeOwnerReference(rs('a'), p)).toThrow('does not have any owner references');
    setOwnerReference(rs('a'), p);
    expect(() => removeOwnerReference(rs('b'), p)).toThrow('does not have an owner reference for');
    expect(() => removeControllerReference(rs('a'), p)).toThrow(
      'does not have a owner reference with controller equals true',
    );
    removeOwnerReference(rs('a'), p);
    expect(p.metadata.ownerReferences).toEqual([]);
    setControllerReference(rs('a'), p);
    expect(() => removeControllerReference(rs('b'), p)).toThrow('owner is not the controller reference for');
    removeControllerReference(rs('a'), p);
    expect(hasControllerReference(p)).toBe(false);
  });
});

describe('CreateOrUpdate', () => {
  function fakeClient(existing?: KubeObject) {
    const ops: string[] = [];
    let stored = existing ? structuredClone(existing) : undefined;
    return {
      ops,
      client: {
        get: async <T extends KubeObject>(_t: ObjectType, _k: ObjectKey): Promise<T> => {
          ops.push('get');
          if (!stored) throw new ApiError(404, 'NotFound', 'not found');
          return structuredClone(stored) as T;
        },
        create: async <T extends KubeObject>(o: T): Promise<T> => {
          ops.push('create');
          stored = structuredClone(o);
          return o;
        },
        update: async <T extends KubeObject>(o: T): Promise<T> => {
          ops.push('update');
          stored = structuredClone(o);
          return o;
        },
      },
    };
  }
  it('creates when absent', async () => {
    const { client, ops } = fakeClient();
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name: 'b' } };
    expect(await createOrUpdate(client, cm, (o) => void (o.data = { x: '1' }))).toBe('created');
    expect(ops).toEqual(['get', 'create']);
  });
  it('updates only when the mutation changed something', async () => {
    const existing: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'a', name: 'b' },
      data: { x: '1' },
    };
    const { client, ops } = fakeClient(existing);
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name: 'b' } };
    expect(await createOrUpdate(client, cm, (o) => void (o.data = { x: '1' }))).toBe('unchanged');
    expect(await createOrUpdate(client, cm, (o) => void (o.data = { x: '2' }))).toBe('updated');
    expect(ops).toEqual(['get', 'get', 'update']);
  });
  it('refuses a mutation of name or namespace', async () => {
    const { client } = fakeClient();
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name: 'b' } };
    await expect(createOrUpdate(client, cm, (o) => void (o.metadata.name = 'c'))).rejects.toThrow(
      'MutateFn cannot mutate object name and/or object namespace',
    );
  });
});

describe('finalizers', () => {
  it('adds without duplicates and removes every occurrence', () => {
    const p = pod();
    expect(addFinalizer(p, 'f')).toBe(true);
    expect(addFinalizer(p, 'f')).toBe(false);
    p.metadata.finalizers = ['f', 'g', 'f'];
    expect(containsFinalizer(p, 'f')).toBe(true);
    expect(removeFinalizer(p, 'f')).toBe(true);
    expect(p.metadata.finalizers).toEqual(['g']);
    expect(removeFinalizer(p, 'f')).toBe(false);
  });
});
