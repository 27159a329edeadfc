// The dashboard's window into the controller's own cache: objects and index sizes read straight from the
// informers' indexers (never from the API server), without starting an informer that nobody asked for.
// managedFields are dropped from what the dashboard shows, never from the cache: the controller's cache
// keeps what upstream keeps (no default transform).
import type { ObjectSource } from './dashboard';
import { dropManagedFields, type InformerCache } from './runtime';

export function objectSourceOver(cache: () => InformerCache | undefined): ObjectSource {
  const indexer = (gvk: string) => cache()?.indexerFor(gvk);
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
