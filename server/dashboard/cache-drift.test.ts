import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import type { InformerCache, Reader } from '../runtime';
import { FakeClock } from '../runtime/testing/fake-clock';
import { cacheComparerOver } from './cache-drift';

const pod = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name, resourceVersion: rv },
});

function fakeCache(objects: KubeObject[]): InformerCache {
  return {
    indexerFor: (id: string) => (id === 'v1/Pod' ? { list: () => objects } : undefined),
  } as unknown as InformerCache;
}

/** A server that pages its items and records the requests it got. */
function pagingReader(items: KubeObject[], rv: string, requests: unknown[]): Reader {
  return {
    get: () => Promise.reject(new Error('not used')),
    list: (_type, opts) => {
      requests.push(opts);
      const from = opts?.continue ? Number(opts.continue) : 0;
      const limit = opts?.limit ?? items.length;
      const next = from + limit;
      return Promise.resolve({
        metadata: { resourceVersion: rv, ...(next < items.length ? { continue: String(next) } : {}) },
        items: items.slice(from, next),
      });
    },
  } as Reader;
}

describe('cacheComparerOver', () => {
  it('lists the server in pages and reports what the cache missed', async () => {
    const requests: unknown[] = [];
    const server = Array.from({ length: 25 }, (_, i) => pod(`p${String(i).padStart(2, '0')}`, String(100 + i)));
    const cache = [...server.slice(0, 20), pod('gone', '50')];
    cache[3] = pod('p03', '90');
    const c = cacheComparerOver({
      caches: () => [fakeCache(cache)],
      reader: () => pagingReader(server, '130', requests),
      clock: new FakeClock(),
    });
    const r = await c.compare('v1/Pod', { pageSize: 10 });
    expect(r.pages).toBe(3);
    expect(requests).toHaveLength(3);
    expect(r.listResourceVersion).toBe('130');
    expect(r.serverCount).toBe(25);
    expect(r.cacheCount).toBe(21);
    expect(r.missing.map((e) => e.key)).toEqual(['ns/p20', 'ns/p21', 'ns/p22', 'ns/p23', 'ns/p24']);
    expect(r.extra).toEqual([{ key: 'ns/gone', cacheResourceVersion: '50' }]);
    expect(r.stale).toEqual([{ key: 'ns/p03', cacheResourceVersion: '90', serverResourceVersion: '103' }]);
    expect(r.matching).toBe(19);
  });

  it('names an informer no cache holds', async () => {
    const c = cacheComparerOver({ caches: () => [fakeCache([])], reader: () => pagingReader([], '1', []) });
    await expect(c.compare('v1/Secret', { pageSize: 10 })).rejects.toThrow(
      /no cache holds an informer for "v1\/Secret"/,
    );
  });
});
