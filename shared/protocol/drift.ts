// Cache drift: what a controller's cache holds against what the API server holds, key by key. A fresh LIST
// (paged for big caches) is compared with the informer's indexer: keys the cache misses, keys it still holds
// that the server deleted, and keys it holds at an older resourceVersion. The chaos tests' "the cache
// converges to a fresh LIST", made visible.
//
// resourceVersions are opaque to clients in general; the API servers here (the sandbox, etcd-backed
// kube-apiserver) hand out increasing integers, and only then is "newer than the LIST" decided, so a change
// that reached the cache after the LIST was taken is not reported as drift.
import type { InformerId, MetaNamespaceKey } from './ids';

export interface DriftEntry {
  key: MetaNamespaceKey;
  /** resourceVersion in the controller's cache; absent when the cache lacks the key. */
  cacheResourceVersion?: string;
  /** resourceVersion in the fresh LIST; absent when the server lacks the key. */
  serverResourceVersion?: string;
}

export interface DriftReport {
  informer: InformerId;
  /** When the LIST finished (epoch ms). */
  comparedAt: number;
  /** The LIST's resourceVersion: the server's state the cache is compared with. */
  listResourceVersion: string;
  pages: number;
  pageSize: number;
  durationMs: number;
  cacheCount: number;
  serverCount: number;
  /** Keys at the same resourceVersion on both sides. */
  matching: number;
  /** On the server, not in the cache: the cache missed a create (or has not caught up). */
  missing: DriftEntry[];
  /** In the cache, not on the server: the cache missed a delete. */
  extra: DriftEntry[];
  /** In both, the cache at an older resourceVersion: the cache missed an update. */
  stale: DriftEntry[];
  /** Keys the cache holds at a resourceVersion newer than the LIST (changed after it): not drift. */
  newerInCache: number;
  /** Entries beyond the cap per list are counted here, not listed. */
  omitted: { missing: number; extra: number; stale: number };
}

import { compareResourceVersions } from './resource-version';

export { compareResourceVersions };

export type DriftDiff = Pick<DriftReport, 'matching' | 'missing' | 'extra' | 'stale' | 'newerInCache' | 'omitted'>;

/**
 * Diffs the cache (key → resourceVersion) against a LIST taken at listResourceVersion. Lists are sorted by
 * key and capped at maxEntries each; the rest is counted in omitted.
 */
export function diffCache(
  cache: ReadonlyMap<MetaNamespaceKey, string>,
  server: ReadonlyMap<MetaNamespaceKey, string>,
  listResourceVersion: string,
  maxEntries = 1000,
): DriftDiff {
  const missing: DriftEntry[] = [];
  const extra: DriftEntry[] = [];
  const stale: DriftEntry[] = [];
  let matching = 0;
  let newerInCache = 0;
  const afterList = (rv: string) => (compareResourceVersions(rv, listResourceVersion) ?? 0) > 0;
  for (const [key, serverRv] of server) {
    const cacheRv = cache.get(key);
    if (cacheRv === undefined) missing.push({ key, serverResourceVersion: serverRv });
    else if (cacheRv === serverRv) matching++;
    else if ((compareResourceVersions(cacheRv, serverRv) ?? -1) > 0) newerInCache++;
    else stale.push({ key, cacheResourceVersion: cacheRv, serverResourceVersion: serverRv });
  }
  for (const [key, cacheRv] of cache) {
    if (server.has(key)) continue;
    if (afterList(cacheRv)) newerInCache++;
    else extra.push({ key, cacheResourceVersion: cacheRv });
  }
  const cap = (xs: DriftEntry[]) =>
    xs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, maxEntries);
  return {
    matching,
    newerInCache,
    missing: cap(missing),
    extra: cap(extra),
    stale: cap(stale),
    omitted: {
      missing: Math.max(0, missing.length - maxEntries),
      extra: Math.max(0, extra.length - maxEntries),
      stale: Math.max(0, stale.length - maxEntries),
    },
  };
}

/** Nothing missing, extra or stale. */
export function inSync(r: Pick<DriftReport, 'missing' | 'extra' | 'stale'>): boolean {
  return r.missing.length === 0 && r.extra.length === 0 && r.stale.length === 0;
}
