// Ports controller-runtime pkg/cache/informer_cache.go + pkg/cache/internal/informers.go, with
// multi_namespace_cache.go's fan-out: one lazily created SharedIndexInformer per GVK and watched namespace, started with the cache (or at once when the cache already runs), serving
// the manager client's reads. Objects are stored as the server sends them unless a transform is set
// (upstream has no default transform; cache.TransformStripManagedFields is opt-in).
import type { GroupVersionKind, KubeList, KubeObject } from '../../../shared/models/object';
import type { ClientListOptions, GetOptions, ObjectKey, ObjectType, Reader } from '../client/interfaces';
import type { ListerWatcher } from '../client/lister-watcher';
import type { HttpClient } from '../client/http';
import { newListWatchForGVK } from '../client/list-watch';
import { normalizeType } from '../client/rest-client';
import type { DynamicRESTMapper } from '../client/rest-mapper';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { gvkId, isMetadataOnly, toGVK, type KindDescriptor } from '../client/gvk';
import { childContext, whenAborted, type ChildContext } from '../util/context';
import { realClock, type Clock } from '../util/clock';
import { ApiError } from '../util/errors';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './indexer';
import { CacheReader, fieldIndexName, keyToNamespacedKey, ALL_NAMESPACES } from './informer-cache-reader';
import type { Indexer, SharedIndexInformer, TransformFunc } from './interfaces';
import { MultiNamespaceInformer } from './multi-namespace-informer';
import { newSharedIndexInformer, waitForCacheSync, type SharedIndexInformerOptions } from './shared-informer';

export const DEFAULT_SYNC_PERIOD_MS = 10 * 60 * 60 * 1000;

export interface ListerWatcherRequest {
  gvk: GroupVersionKind;
  /** List and watch PartialObjectMetadata (the kind was asked for as partialObjectMetadata(...)). */
  metadataOnly?: boolean;
  /** Set when this informer watches one namespace (a namespaced kind). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * cache.ByObject: one kind's own settings, each falling back to the cache-wide default when unset. The
 * namespaces share the kind's settings (upstream's per-namespace Config is not ported).
 */
export interface ByObject {
  /**
   * ByObject.Namespaces (namespaced kinds only): one informer per namespace; "" watches every namespace not
   * listed. Default the cache's namespaces.
   */
  namespaces?: string[];
  label?: string;
  field?: string;
  /** null: no transform even if the cache has a default one. */
  transform?: TransformFunc<KubeObject> | null;
  unsafeDisableDeepCopy?: boolean;
  /** Resync base for this kind (ms). */
  syncPeriodMs?: number;
}

/** cache.Options: what a user says of the cache (the parts this port supports); the manager takes these. */
export interface CacheOptions {
  /** Restrict every informer to this namespace (DefaultNamespaces with one entry). Default all namespaces. */
  namespace?: string;
  /**
   * cache.Options.DefaultNamespaces (names only): namespaced kinds get one informer per namespace behind
   * one reader; "" stands for every namespace not listed. Default all namespaces (or `namespace`).
   */
  defaultNamespaces?: string[];
  defaultLabelSelector?: string;
  defaultFieldSelector?: string;
  /** Applied to every object before it is stored. Default none (transformStripManagedFields() is opt-in). */
  defaultTransform?: TransformFunc<KubeObject> | null;
  /** Resync base; each informer gets base × [0.9, 1.1). Default 10h. */
  syncPeriodMs?: number;
  /** Reads for a kind with no informer fail instead of starting one. Default false. */
  readerFailOnMissingInformer?: boolean;
  /** Hand out the cached objects themselves (never mutate them!). Default false. */
  unsafeDisableDeepCopy?: boolean;
  /** Per-kind settings (cache.Options.ByObject), keyed by kind ("apps/v1/Deployment", a GVK, ...). */
  byObject?: Map<KindDescriptor, ByObject>;
}

/** CacheOptions and what the cache is built from: the client layer's list/watch and REST mapper. */
export interface InformerCacheOptions extends CacheOptions {
  /** Builds the list/watch for a kind (the client layer's newListWatchForGVK). Required. */
  newListerWatcher: (req: ListerWatcherRequest) => Promise<ListerWatcher<KubeObject>>;
  /** Whether a kind is namespaced (the REST mapper). Required. */
  isNamespaced: (gvk: GroupVersionKind) => Promise<boolean>;
  /** Default newSharedIndexInformer. */
  newInformer?: (opts: SharedIndexInformerOptions<KubeObject>) => SharedIndexInformer<KubeObject>;
  clock?: Clock;
  probe?: Probe;
  random?: () => number;
}

/** One informer of a kind: a namespace's, or ("") every namespace's not listed. */
interface Part {
  informer: SharedIndexInformer<KubeObject>;
  ctx?: ChildContext;
  running?: Promise<void>;
}

interface Entry {
  gvk: GroupVersionKind;
  /** One informer, or the multi-namespace informer over `parts`. */
  informer: SharedIndexInformer<KubeObject>;
  namespaced: boolean;
  /** Namespace ("" = all not listed) → its informer, in the configured order. */
  parts: Map<string, Part>;
  unsafeDisableDeepCopy: boolean;
}

/** A kind's metadata informer is kept apart from its full one, as upstream's informer maps are. */
export const METADATA_INFORMER_SUFFIX = '#metadata';
const entryId = (gvk: GroupVersionKind, meta: boolean): string =>
  meta ? `${gvkId(gvk)}${METADATA_INFORMER_SUFFIX}` : gvkId(gvk);

/** fields.AndSelectors(namespaceAllSelector(...), selector): the "" informer skips the listed namespaces. */
function allOthersSelector(namespaces: string[], selector: string | undefined): string | undefined {
  const terms = namespaces.filter((n) => n !== '').map((n) => `metadata.namespace!=${n}`);
  if (selector) terms.push(selector);
  return terms.length > 0 ? terms.join(',') : undefined;
}

export class InformerCache implements Reader {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly byObject = new Map<string, ByObject>();
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly random: () => number;
  private readonly defaultNamespaces: string[] | undefined;
  private started = false;
  private signal?: AbortSignal;

  constructor(private readonly o: InformerCacheOptions) {
    this.clock = o.clock ?? realClock;
    this.probe = o.probe ?? NOOP_PROBE;
    this.random = o.random ?? Math.random;
    if (o.namespace !== undefined && o.defaultNamespaces !== undefined) {
      throw new Error('cache options: give either namespace or defaultNamespaces, not both');
    }
    this.defaultNamespaces = o.defaultNamespaces
      ? uniqueNamespaces(o.defaultNamespaces, 'defaultNamespaces')
      : o.namespace
        ? [o.namespace]
        : undefined;
    for (const [kind, by] of o.byObject ?? []) {
      const id = gvkId(toGVK(kind));
      this.byObject.set(
        id,
        by.namespaces ? { ...by, namespaces: uniqueNamespaces(by.namespaces, `ByObject for ${id}: namespaces`) } : by,
      );
    }
  }

  /** Runnable: runs every informer until signal aborts, then waits for them to stop. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('informer already started');
    this.started = true;
    this.signal = signal;
    for (const e of this.entries.values()) this.run(e);
    await whenAborted(signal);
    await Promise.all([...this.entries.values()].flatMap((e) => [...e.parts.values()].map((p) => p.running)));
  }

  /** Waits until the cache started and every informer synced; false when signal ends first. */
  async waitForCacheSync(signal: AbortSignal): Promise<boolean> {
    const ok = await waitForCacheSync(signal, this.clock, () => this.started);
    if (!ok) return false;
    return waitForCacheSync(signal, this.clock, ...[...this.entries.values()].map((e) => () => e.informer.hasSynced()));
  }

  /** GetInformer: the kind's informer, created (and started, if the cache runs) on first use. */
  async getInformer(
    kind: KindDescriptor,
    opts: { signal?: AbortSignal; blockUntilSynced?: boolean } = {},
  ): Promise<SharedIndexInformer<KubeObject>> {
    return (await this.entry(toGVK(kind), opts, isMetadataOnly(kind))).informer;
  }

  getInformerForKind(gvk: GroupVersionKind, opts?: { signal?: AbortSignal }): Promise<SharedIndexInformer<KubeObject>> {
    return this.getInformer(gvk, opts);
  }

  /** Stops and forgets the kind's informer. */
  removeInformer(kind: KindDescriptor): void {
    const id = entryId(toGVK(kind), isMetadataOnly(kind));
    const e = this.entries.get(id);
    if (!e) return;
    for (const p of e.parts.values()) p.ctx?.cancel();
    this.entries.delete(id);
  }

  /** FieldIndexer.IndexField: adds "field:<field>" with per-namespace and all-namespace values. */
  async indexField(kind: KindDescriptor, field: string, extract: (obj: KubeObject) => string[]): Promise<void> {
    const e = await this.entry(toGVK(kind), { blockUntilSynced: false }, isMetadataOnly(kind));
    e.informer.addIndexers({
      [fieldIndexName(field)]: (obj: KubeObject) => {
        const values = extract(obj);
        const ns = obj.metadata.namespace ?? '';
        const out = values.map((v) => keyToNamespacedKey('', v));
        if (ns) out.push(...values.map((v) => keyToNamespacedKey(ns, v)));
        return out;
      },
    });
  }

  async get<T extends KubeObject = KubeObject>(type: ObjectType, key: ObjectKey, opts: GetOptions = {}): Promise<T> {
    const gvk = normalizeType(type, false);
    const e = await this.readerEntry(gvk, opts.signal, isMetadataOnly(type));
    if (!e.namespaced) return this.reader(e, this.only(e)).get<T>(undefined, key.name);
    const part = e.parts.get(key.namespace ?? '') ?? e.parts.get('');
    if (!part) {
      throw new Error(`unable to get: ${key.namespace ?? ''}/${key.name} because of unknown namespace for the cache`);
    }
    return this.reader(e, part).get<T>(key.namespace, key.name);
  }

  async list<T extends KubeObject = KubeObject>(type: ObjectType, opts: ClientListOptions = {}): Promise<KubeList<T>> {
    const gvk = normalizeType(type, true);
    if (opts.continue) throw new Error('continue list option is not supported by the cache');
    const e = await this.readerEntry(gvk, opts.signal, isMetadataOnly(type));
    if (!e.namespaced) return this.reader(e, this.only(e)).list<T>(opts);
    if (opts.namespace) {
      const part = e.parts.get(opts.namespace) ?? e.parts.get('');
      if (!part) throw new Error(`unable to list: ${opts.namespace} because of unknown namespace for the cache`);
      return this.reader(e, part).list<T>(opts);
    }
    // Every namespace's informer in turn; a limit counts across them, as multiNamespaceCache.List.
    const items: T[] = [];
    let out: KubeList<T> | undefined;
    let limit = opts.limit && opts.limit > 0 ? opts.limit : undefined;
    for (const part of e.parts.values()) {
      out = this.reader(e, part).list<T>({ ...opts, ...(limit !== undefined ? { limit } : {}) });
      items.push(...out.items);
      if (limit !== undefined) {
        limit -= out.items.length;
        if (limit <= 0) break;
      }
    }
    return { ...(out as KubeList<T>), items };
  }

  /** Kinds with an informer, as "v1/Pod" ids. */
  kinds(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * A running informer's indexer by id ("v1/Pod"), never creating one: for observers such as the dashboard.
   * With several namespaces, the first namespace's.
   */
  indexerFor(id: string): Indexer<KubeObject> | undefined {
    const e = this.entries.get(id);
    return e ? this.only(e).informer.getIndexer() : undefined;
  }

  private only(e: Entry): Part {
    return e.parts.values().next().value as Part;
  }

  private reader(e: Entry, part: Part): CacheReader {
    return new CacheReader(part.informer.getIndexer(), e.gvk, e.namespaced, e.unsafeDisableDeepCopy);
  }

  private async readerEntry(gvk: GroupVersionKind, signal: AbortSignal | undefined, meta: boolean): Promise<Entry> {
    if (!this.started) throw new Error('the cache is not started, can not read objects');
    if (this.o.readerFailOnMissingInformer && !this.entries.has(entryId(gvk, meta))) {
      throw new Error(`${entryId(gvk, meta)} is not cached`);
    }
    return this.entry(gvk, { signal }, meta);
  }

  private async entry(
    gvk: GroupVersionKind,
    opts: { signal?: AbortSignal; blockUntilSynced?: boolean },
    meta = false,
  ): Promise<Entry> {
    if (opts.signal?.aborted) throw new Error(`failed to get informer for ${gvkId(gvk)}: context canceled`);
    const id = entryId(gvk, meta);
    let e = this.entries.get(id);
    if (!e) {
      let p = this.pending.get(id);
      if (!p) {
        p = this.create(gvk, meta).finally(() => this.pending.delete(id));
        this.pending.set(id, p);
      }
      e = await p;
    }
    // As upstream's Informers.Get: wait for a sync only once the cache runs; before Start nothing would
    // ever sync, and handlers are commonly added then.
    if (opts.blockUntilSynced === false || !this.started || e.informer.hasSynced()) return e;
    const signal = opts.signal ?? this.signal ?? new AbortController().signal;
    if (!(await waitForCacheSync(signal, this.clock, () => (e as Entry).informer.hasSynced()))) {
      throw new ApiError(504, 'Timeout', `failed waiting for *${gvk.version}.${gvk.kind} Informer to sync`);
    }
    return e;
  }

  private async create(gvk: GroupVersionKind, meta: boolean): Promise<Entry> {
    const namespaced = await this.o.isNamespaced(gvk);
    const by = this.byObject.get(gvkId(gvk));
    if (!namespaced && by?.namespaces) {
      throw new Error(`type ${gvkId(gvk)} is not namespaced, but its ByObject.Namespaces setting is not nil`);
    }
    const listed = namespaced ? (by?.namespaces ?? this.defaultNamespaces) : undefined;
    const namespaces = listed && listed.length > 0 ? listed : [''];
    const labelSelector = by?.label ?? this.o.defaultLabelSelector;
    const fieldSelector = by?.field ?? this.o.defaultFieldSelector;
    const transform = (by?.transform !== undefined ? by.transform : this.o.defaultTransform) ?? undefined;
    const base = by?.syncPeriodMs ?? this.o.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS;
    const parts = new Map<string, Part>();
    for (const namespace of namespaces) {
      const lw = await this.o.newListerWatcher({
        gvk,
        ...(meta ? { metadataOnly: true } : {}),
        ...(namespace ? { namespace } : {}),
        labelSelector,
        fieldSelector: namespace ? fieldSelector : allOthersSelector(namespaces, fieldSelector),
      });
      const informer = (this.o.newInformer ?? newSharedIndexInformer)({
        listerWatcher: lw,
        objectType: gvkId(gvk),
        ...(namespaces.length > 1 || meta
          ? { informerId: `${entryId(gvk, meta)}${namespaces.length > 1 ? `@${namespace || '*'}` : ''}` }
          : {}),
        resyncPeriodMs: Math.floor(base * (0.9 + this.random() * 0.2)),
        indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
        ...(transform ? { transform } : {}),
        clock: this.clock,
        probe: this.probe,
      });
      parts.set(namespace, { informer });
    }
    const informer =
      parts.size === 1
        ? (parts.values().next().value as Part).informer
        : new MultiNamespaceInformer(new Map([...parts].map(([ns, p]) => [ns, p.informer])));
    const e: Entry = {
      gvk,
      informer,
      namespaced,
      parts,
      unsafeDisableDeepCopy: by?.unsafeDisableDeepCopy ?? this.o.unsafeDisableDeepCopy ?? false,
    };
    this.entries.set(entryId(gvk, meta), e);
    if (this.started) this.run(e);
    return e;
  }

  private run(e: Entry): void {
    if (!this.signal) return;
    for (const p of e.parts.values()) {
      if (p.running) continue;
      p.ctx = childContext(this.signal, this.clock);
      p.running = p.informer.run(p.ctx.signal);
    }
  }
}

export { ALL_NAMESPACES };

function uniqueNamespaces(namespaces: string[], what: string): string[] {
  const seen = new Set<string>();
  for (const n of namespaces) {
    if (typeof n !== 'string') throw new Error(`${what}: every entry must be a namespace name ("" for all others)`);
    if (seen.has(n)) throw new Error(`${what}: namespace "${n}" is listed twice`);
    seen.add(n);
  }
  return [...seen];
}

export interface NewInformerCacheOptions extends Omit<InformerCacheOptions, 'newListerWatcher' | 'isNamespaced'> {
  http: HttpClient;
  mapper: Pick<DynamicRESTMapper, 'restMapping' | 'isGVKNamespaced'>;
}

/** cache.New: list/watch over HTTP for each kind, scopes from the REST mapper. */
export function newInformerCache(opts: NewInformerCacheOptions): InformerCache {
  const { http, mapper, ...rest } = opts;
  return new InformerCache({
    ...rest,
    newListerWatcher: (req) =>
      newListWatchForGVK<KubeObject>({
        http,
        mapper,
        gvk: req.gvk,
        namespace: req.namespace,
        labelSelector: req.labelSelector,
        fieldSelector: req.fieldSelector,
        ...(req.metadataOnly ? { metadataOnly: true } : {}),
      }),
    isNamespaced: (gvk) => mapper.isGVKNamespaced(gvk),
  });
}
