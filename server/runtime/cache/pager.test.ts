import { describe, expect, it } from 'vitest';
import type { KubeList } from '../../../shared/models/object';
import type { ListOptions } from '../client/lister-watcher';
import { ApiError } from '../util/errors';
import { listPages } from './pager';

const obj = (n: number) => ({ metadata: { name: `o${n}` } });
function pagedServer(total: number, failContinue = false) {
  const calls: ListOptions[] = [];
  return {
    calls,
    list: async (o: ListOptions): Promise<KubeList> => {
      calls.push({ ...o });
      if (o.continue && failContinue) throw new ApiError(410, 'Expired', 'continue expired');
      const start = o.continue ? Number(o.continue) : 0;
      const end = o.limit ? Math.min(total, start + o.limit) : total;
      const items = Array.from({ length: end - start }, (_, i) => obj(start + i));
      return { metadata: { resourceVersion: '7', ...(end < total ? { continue: String(end) } : {}) }, items };
    },
  };
}

describe('pager_test', () => {
  it('a single page with no continue token is returned as is', async () => {
    const s = pagedServer(3);
    const r = await listPages(s, { resourceVersion: '0' }, 500);
    expect(r).toMatchObject({ paginated: false, pages: 1 });
    expect(r.list.items).toHaveLength(3);
    expect(s.calls).toEqual([{ resourceVersion: '0', limit: 500 }]);
  });

  it('follows continue tokens and drops the RV on continuation requests', async () => {
    const s = pagedServer(10);
    const r = await listPages(s, { resourceVersion: '0' }, 4);
    expect(r.list.items.map((o) => o.metadata.name)).toEqual(Array.from({ length: 10 }, (_, i) => `o${i}`));
    expect(r).toMatchObject({ paginated: true, pages: 3 });
    expect(r.list.metadata).toEqual({ resourceVersion: '7' });
    expect(s.calls).toEqual([
      { resourceVersion: '0', limit: 4 },
      { limit: 4, continue: '4' },
      { limit: 4, continue: '8' },
    ]);
  });

  it('page size 0 is unpaginated', async () => {
    const s = pagedServer(10);
    await listPages(s, { resourceVersion: '5' }, 0);
    expect(s.calls).toEqual([{ resourceVersion: '5' }]);
  });

  it('an expired continuation falls back once to a full list at the original RV', async () => {
    const s = pagedServer(10, true);
    const r = await listPages(s, { resourceVersion: '5' }, 4);
    expect(r.list.items).toHaveLength(10);
    expect(s.calls.at(-1)).toEqual({ resourceVersion: '5' });
  });

  it('an error on the first page is returned as is', async () => {
    const s = {
      list: async (): Promise<KubeList> => {
        throw new ApiError(410, 'Expired', 'gone');
      },
    };
    await expect(listPages(s, { resourceVersion: '5' }, 4)).rejects.toThrow('gone');
  });
});
