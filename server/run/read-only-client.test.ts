import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import type { Client } from '../runtime';
import { readOnlyClient, ReadOnlyClusterError } from './read-only-client';

const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'team-a', name: 'settings' } };

function recordingClient(calls: string[]): Client {
  const write =
    (verb: string) =>
    async <T>(obj: T) => (calls.push(verb), obj);
  return {
    get: async <T extends KubeObject>() => (calls.push('get'), cm as T),
    list: async () => (calls.push('list'), { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [cm] }),
    create: write('create'),
    update: write('update'),
    patch: write('patch'),
    delete: async () => void calls.push('delete'),
    deleteAllOf: async () => void calls.push('deleteAllOf'),
    status: () => ({ update: write('status.update'), patch: write('status.patch') }),
  } as Client;
}

describe('readOnlyClient', () => {
  it('reads through and refuses every write, naming the object, the cluster and --allow-writes', async () => {
    const calls: string[] = [];
    const c = readOnlyClient(recordingClient(calls), 'context kind-dev');
    await c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'team-a', name: 'settings' });
    await c.list({ apiVersion: 'v1', kind: 'ConfigMap' });
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['create', () => c.create(cm)],
      ['update', () => c.update(cm)],
      ['patch', () => c.patch(cm, { type: 'merge', data: {} } as never)],
      ['delete', () => c.delete(cm)],
      ['delete all of', () => c.deleteAllOf({ apiVersion: 'v1', kind: 'ConfigMap' })],
      ['update the status of', () => c.status().update(cm)],
      ['patch the status of', () => c.status().patch(cm, { type: 'merge', data: {} } as never)],
    ];
    for (const [verb, attempt] of attempts) {
      const err = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ReadOnlyClusterError);
      expect((err as Error).message).toContain(`refused to ${verb} ConfigMap`);
      expect((err as Error).message).toMatch(
        /context kind-dev is read-only; restart controller-scope with --allow-writes/,
      );
    }
    expect((await c.create(cm).catch((e: Error) => e.message)) as string).toContain('ConfigMap team-a/settings');
    expect(calls).toEqual(['get', 'list']);
  });
});
