// Ports controller-runtime pkg/cache/internal/cache_reader.go: Get and List answered from one informer's
// indexer — exact-match field selectors through "field:" indexes, namespaces through the namespace index,
// label selectors as a filter, deep copies out.
import type { GroupVersionKind, KubeList, KubeObject } from '../../../shared/models/object';
import { apiVersionOf, groupKindString } from '../client/gvk';
import { parseSelector } from '../predicate/label-selector';
import { ApiError } from '../util/errors';
import type { Indexer } from './interfaces';

/** The index value prefix for "any namespace" (upstream allNamespacesNamespace). */
export const ALL_NAMESPACES = '__all_namespaces';
export const CONTINUE_NOT_SUPPORTED = 'continue-not-supported';

export const fieldIndexName = (field: string): string => `field:${field}`;
export const keyToNamespacedKey = (namespace: string, value: string): string =>
  `${namespace || ALL_NAMESPACES}/${value}`;

export interface CacheListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

function copyOut<T extends KubeObject>(obj: T, gvk: GroupVersionKind, unsafe: boolean): T {
  if (unsafe) return obj;
  const out = structuredClone(obj);
  out.apiVersion = apiVersionOf(gvk);
  out.kind = gvk.kind;
  return out;
}

/** apierrors.NewNotFound with the KIND as the resource, as the cache reader reports it. */
export function cacheNotFound(gvk: GroupVersionKind, name: string): ApiError {
  const gr = groupKindString(gvk);
  const message = `${gr} "${name}" not found`;
  return new ApiError(404, 'NotFound', message, {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'NotFound',
    details: { name, group: gvk.group, kind: gvk.kind },
    code: 404,
  });
}

/** Parses "a=b,c==d" into exact requirements; anything else is refused as the cache cannot index it. */
export function exactFieldRequirements(selector: string): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  for (const part of selector.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    const m = /^([^=!]+?)\s*(==|=)\s*(.*)$/.exec(p);
    if (!m || p.includes('!=')) throw new Error('non-exact field matches are not supported by the cache');
    out.push({ field: (m[1] ?? '').trim(), value: (m[3] ?? '').trim() });
  }
  return out;
}

export class CacheReader {
  constructor(
    private readonly indexer: Indexer<KubeObject>,
    private readonly gvk: GroupVersionKind,
    private readonly namespaced: boolean,
    private readonly unsafeDisableDeepCopy: boolean,
  ) {}

  get<T extends KubeObject>(namespace: string | undefined, name: string): T {
    const key = this.namespaced && namespace ? `${namespace}/${name}` : name;
    const obj = this.indexer.getByKey(key);
    if (!obj) throw cacheNotFound(this.gvk, name);
    return copyOut(obj as T, this.gvk, this.unsafeDisableDeepCopy);
  }

  list<T extends KubeObject>(opts: CacheListOptions): KubeList<T> {
    if (opts.continue) throw new Error('continue list option is not supported by the cache');
    const namespace = this.namespaced ? (opts.namespace ?? '') : '';
    let objs: KubeObject[];
    const fields = opts.fieldSelector ? exactFieldRequirements(opts.fieldSelector) : [];
    if (fields.length > 0) {
      const [first, ...rest] = fields as [{ field: string; value: string }, ...{ field: string; value: string }[]];
      objs = this.byField(first.field, keyToNamespacedKey(namespace, first.value));
      for (const r of rest) {
        const keep = new Set(this.byField(r.field, keyToNamespacedKey(namespace, r.value)));
        objs = objs.filter((o) => keep.has(o));
      }
    } else if (namespace) {
      objs = this.indexer.byIndex('namespace', namespace);
    } else {
      objs = this.indexer.list();
    }
    const labels = opts.labelSelector ? parseSelector(opts.labelSelector) : undefined;
    const items: T[] = [];
    for (const o of objs) {
      if (opts.limit && opts.limit > 0 && items.length >= opts.limit) break;
      if (labels && !labels.matches(o.metadata.labels)) continue;
      items.push(copyOut(o as T, this.gvk, this.unsafeDisableDeepCopy));
    }
    return {
      apiVersion: apiVersionOf(this.gvk),
      kind: `${this.gvk.kind}List`,
      metadata: { resourceVersion: '', continue: CONTINUE_NOT_SUPPORTED },
      items,
    };
  }

  private byField(field: string, value: string): KubeObject[] {
    const name = fieldIndexName(field);
    if (!(name in this.indexer.getIndexers())) throw new Error(`index with name ${name} does not exist`);
    return this.indexer.byIndex(name, value);
  }
}
