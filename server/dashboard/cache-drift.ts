// Cache drift for the dashboard: an informer's indexer (what the controller reads) against a fresh LIST from
// the API server (what is true), paged so a big cache is listed in bounded requests. Reads only: the LIST
// goes through the manager's API reader, never through the cache, and the cache is only read.
import type { DriftReport } from '../../shared/protocol/drift';
import { diffCache } from '../../shared/protocol/drift';
import type { CacheComparer } from './transport/ports';
import { realClock, toGVK, type Clock, type InformerCache, type Reader } from '../runtime';

export interface CacheComparerOptions {
  /** The caches to look in; the first holding the kind answers (as the object source does). */
  caches: () => readonly InformerCache[];
  /** Lists from the API server directly. */
  reader: () => Reader;
  /** The namespace the caches are restricted to, when they are. */
  namespace?: string;
  clock?: Clock;
}

/** client-go's MetaNamespaceKeyFunc over listed metadata. */
function keyOf(meta: { namespace?: string; name?: string }): string {
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
}

export function cacheComparerOver(opts: CacheComparerOptions): CacheComparer {
  const clock = opts.clock ?? realClock;
  return {
    async compare(informer: string, { pageSize }): Promise<DriftReport> {
      const indexer = opts
        .caches()
        .map((c) => c.indexerFor(informer))
        .find((i) => i !== undefined);
      if (!indexer) {
        throw new Error(`no cache holds an informer for "${informer}"; pick one the Indexer panel lists`);
      }
      const started = clock.now();
      const server = new Map<string, string>();
      let pages = 0;
      let cont: string | undefined;
      let listRv = '';
      do {
        const page = await opts.reader().list(toGVK(informer), {
          limit: pageSize,
          ...(cont ? { continue: cont } : {}),
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
        });
        pages++;
        // Every page of one paged LIST is served at the first page's resourceVersion.
        if (pages === 1) listRv = page.metadata.resourceVersion ?? '';
        for (const item of page.items) server.set(keyOf(item.metadata), item.metadata.resourceVersion ?? '');
        cont = page.metadata.continue || undefined;
      } while (cont);
      // Read the cache after the LIST: anything the cache got meanwhile is newer than the LIST, not drift.
      const cache = new Map<string, string>();
      for (const obj of indexer.list()) cache.set(keyOf(obj.metadata), obj.metadata.resourceVersion ?? '');
      const diff = diffCache(cache, server, listRv);
      const done = clock.now();
      return {
        informer,
        comparedAt: done,
        listResourceVersion: listRv,
        pages,
        pageSize,
        durationMs: done - started,
        cacheCount: cache.size,
        serverCount: server.size,
        ...diff,
      };
    },
  };
}
