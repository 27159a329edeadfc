// The delegating client: reads from the cache unless disabled, writes to the API server, probe events.
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../../../shared/models/object';
import { FakeClock } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ApiError } from '../util/errors';
import { runInReconcileScope } from '../instrumentation/reconcile-scope';
import { CachedClient } from './cached-client';
import { newScheme } from './scheme';
import type { Client, Reader } from './interfaces';

function fakes() {
  const calls: string[] = [];
  const obj: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'a', name: 'b' } };
  const list: KubeList = { metadata: {}, items: [obj] };
  const cache: Reader = {
    get: async <T extends KubeObject>() => {
      calls.push('cache.get');
      return obj as T;
    },
    list: async <T extends KubeObject>() => {
      calls.push('cache.list');
      return list as KubeList<T>;
    },
  };
  const api = {
    get: async () => {
      calls.push('api.get');
      throw new ApiError(404, 'NotFound', 'pods "b" not found');
    },
    list: async () => {
      calls.push('api.list');
      return list;
    },
    create: async (o: KubeObject) => (calls.push('api.create'), o),
    update: async (o: KubeObject) => (calls.push('api.update'), o),
    patch: async (o: KubeObject) => (calls.push('api.patch'), o),
    delete: async () => void calls.push('api.delete'),
    deleteAllOf: async () => void calls.push('api.deleteAllOf'),
    status: () => ({
      update: async (o: KubeObject) => (calls.push('api.status.update'), o),
      patch: async (o: KubeObject) => (calls.push('api.status.patch'), o),
    }),
  } as unknown as Client;
  return { calls, cache, api, obj };
}

describe('CachedClient', () => {
  it('reads through the cache and writes through the API server', async () => {
    const { calls, cache, api, obj } = fakes();
    const c = new CachedClient({ client: api, cache });
    await c.get({ group: '', version: 'v1', kind: 'Pod' }, { namespace: 'a', name: 'b' });
    await c.list({ apiVersion: 'v1', kind: 'PodList' });
    await c.create(obj);
    await c.update(obj);
    await c.delete(obj);
    await c.status().update(obj);
    expect(calls).toEqual(['cache.get', 'cache.list', 'api.create', 'api.update', 'api.delete', 'api.status.update']);
  });

  it('bypasses the cache for disabled kinds and without a cache', async () => {
    const { calls, cache, api } = fakes();
    const c = new CachedClient({ client: api, cache, disableFor: [{ apiVersion: 'v1', kind: 'Pod' }] });
    await c.list({ apiVersion: 'v1', kind: 'PodList' });
    await c.get({ apiVersion: 'v1', kind: 'Pod' }, { name: 'x' }).catch(() => undefined);
    await new CachedClient({ client: api }).list({ apiVersion: 'v1', kind: 'Pod' });
    expect(calls).toEqual(['api.list', 'api.get', 'api.list']);
  });

  it('reports cache reads as cached client.request events', async () => {
    const { cache, api } = fakes();
    const probe = new RecordingProbe();
    const c = new CachedClient({ client: api, cache, probe, clock: new FakeClock() }).forController('pods');
    await c.get({ apiVersion: 'v1', kind: 'Pod' }, { namespace: 'a', name: 'b' });
    expect(probe.ofKind('client.request')).toEqual([
      {
        kind: 'client.request',
        verb: 'get',
        ref: { gvk: 'v1/Pod', namespace: 'a', name: 'b' },
        cached: true,
        durationMs: 0,
        controller: 'pods',
      },
    ]);
  });

  it('names the controller whose reconcile made the call', async () => {
    const { cache, api } = fakes();
    const probe = new RecordingProbe();
    const c = new CachedClient({ client: api, cache, probe, clock: new FakeClock() });
    await runInReconcileScope({ controller: 'pod-counter', key: 'a/b', reconcileID: 'r1' }, async () => {
      await Promise.resolve();
      await c.list({ apiVersion: 'v1', kind: 'Pod' }, { namespace: 'a' });
    });
    await c.list({ apiVersion: 'v1', kind: 'Pod' });
    expect(probe.ofKind('client.request').map((e) => e.controller)).toEqual(['pod-counter', undefined]);
  });

  // client_test.go / shouldBypassCache: unstructured objects are read from the API server unless
  // CacheOptions.Unstructured is set; typed objects (the scheme's) from the cache.
  const Widget = { apiVersion: 'example.com/v1', kind: 'Widget' };
  it('reads kinds the scheme does not know (Go: unstructured) from the API server, not a new informer', async () => {
    const { calls, cache, api } = fakes();
    const c = new CachedClient({ client: api, cache });
    await c.list(Widget);
    await c.get(Widget, { name: 'w' }).catch(() => undefined);
    await c.get({ apiVersion: 'apps/v1', kind: 'Deployment' }, { namespace: 'a', name: 'd' });
    await c.list({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressList' });
    expect(calls).toEqual(['api.list', 'api.get', 'cache.get', 'cache.list']);
  });

  it('serves unstructured reads from the cache when asked (CacheOptions.Unstructured), and typed kinds always', async () => {
    const { calls, cache, api } = fakes();
    await new CachedClient({ client: api, cache, cacheUnstructured: true }).list(Widget);
    await new CachedClient({ client: api, cache, isTyped: (g) => g.group === 'example.com' }).list(Widget);
    expect(calls).toEqual(['cache.list', 'cache.list']);
  });

  it('newScheme knows the built-in groups and the kinds added to it', () => {
    const s = newScheme('example.com/v1/Widget');
    expect(s.recognizes({ group: 'example.com', version: 'v1', kind: 'Widget' })).toBe(true);
    expect(s.recognizes({ group: 'example.com', version: 'v1', kind: 'Gadget' })).toBe(false);
    expect(s.recognizes({ group: '', version: 'v1', kind: 'Pod' })).toBe(true);
    expect(s.recognizes({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(true);
    expect(s.recognizes({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' })).toBe(true);
  });
});
