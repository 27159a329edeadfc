// The dashboard's window into the controllers' own caches: objects and index sizes read straight from the
// informers' indexers (never from the API server), without starting an informer that nobody asked for.
// managedFields are dropped from what the dashboard shows, never from the cache: the controller's cache
// keeps what upstream keeps (no default transform).
// Several managers may run (the examples' and one per user module): the first cache with the kind answers.
import type { ObjectSource } from './recorder/object-source';
import { dropManagedFields, type InformerCache } from '../runtime';

export function objectSourceOver(caches: () => InformerCache | undefined | readonly InformerCache[]): ObjectSource {
  const indexer = (gvk: string) => {
    const c = caches();
    if (!c) return undefined;
    if (!Array.isArray(c)) return (c as InformerCache).indexerFor(gvk);
    for (const cache of c as readonly InformerCache[]) {
      const found = cache.indexerFor(gvk);
      if (found) return found;
    }
    return undefined;
  };
  return {
    get(gvk, namespace, name) {
      const obj = indexer(gvk)?.getByKey(namespace ? `${namespace}/${name}` : name);
      return obj && dropManagedFields(obj);
    },
    keys: (gvk) => indexer(gvk)?.listKeys() ?? [],
    indexes(gvk) {
      const idx = indexer(gvk);
      if (!idx) return {};
      return Object.fromEntries(Object.keys(idx.getIndexers()).map((n) => [n, idx.listIndexFuncValues(n).length]));
    },
  };
}
