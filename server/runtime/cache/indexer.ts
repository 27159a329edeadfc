// Ports client-go tools/cache/index.go: the namespace index and NewIndexer.
import type { KubeObject } from '../../../shared/models/object';
import type { Indexers, KeyFunc } from './interfaces';
import { metaOf } from './keys';
import { CacheStore, type CacheStoreOptions } from './store';

/** cache.NamespaceIndex */
export const NAMESPACE_INDEX = 'namespace';

/** cache.MetaNamespaceIndexFunc: [namespace] ("" for cluster-scoped objects). */
export function metaNamespaceIndexFunc(obj: unknown): string[] {
  const meta = metaOf(obj);
  if (!meta) throw new Error(`object has no meta: ${String(obj)}`);
  return [meta.namespace ?? ''];
}

/** cache.NewIndexer */
export function newIndexer<T = KubeObject>(
  keyFunc: KeyFunc,
  indexers: Indexers<T>,
  options: Omit<CacheStoreOptions<T>, 'keyFunc' | 'indexers'> = {},
): CacheStore<T> {
  return new CacheStore<T>({ ...options, keyFunc, indexers });
}
