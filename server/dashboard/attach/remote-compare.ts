// "Compare with the API server" for an attached process's informer: the process lists through its own API
// reader (the dashboard may have no access to that cluster at all) and returns both sides; the diff is the
// same one the dashboard runs for its own caches.
import type { DriftReport } from '../../../shared/protocol/drift';
import { diffCache } from '../../../shared/protocol/drift';
import { splitLaneName } from '../../../shared/protocol/lanes';
import type { CacheComparer } from '../transport/ports';
import type { BridgeConnection } from './bridge-connection';

export function remoteCacheComparer(conns: readonly BridgeConnection[], now: () => number = Date.now): CacheComparer {
  return {
    async compare(informer: string, { pageSize }): Promise<DriftReport> {
      const { lane, name } = splitLaneName(informer);
      const conn = conns.find((c) => c.lane === lane && c.state === 'connected');
      if (!conn) throw new Error(`no connected process holds the informer "${informer}"`);
      const started = now();
      const v = await conn.compareVersions(name, pageSize);
      const done = now();
      return {
        informer,
        comparedAt: done,
        listResourceVersion: v.listResourceVersion,
        pages: v.pages,
        pageSize,
        durationMs: done - started,
        cacheCount: v.cache.size,
        serverCount: v.server.size,
        ...diffCache(v.cache, v.server, v.listResourceVersion),
      };
    },
  };
}
