// Ports controller-runtime pkg/cache/informer_cache.go + pkg/cache/internal/informers.go: one lazily created
// SharedIndexInformer per GVK, started with the cache (or at once when the cache already runs), serving
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
import { gvkId, toGVK, type KindDescriptor } from '../client/gvk';
import { childContext, whenAborted, type ChildContext } from '../source/context';
import { realClock, type Clock } from '../util/clock';
import { ApiError } from '../util/errors';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './indexer';
import { CacheReader, fieldIndexName, keyToNamespacedKey, ALL_NAMESPACES } from './informer-cache-reader';
import type { Indexer, SharedIndexInformer, TransformFunc } from './interfaces';
import { newSharedIndexInformer, waitForCacheSync, type SharedIndexInformerOptions } from './shared-informer';

export const DEFAULT_SYNC_PERIOD_MS = 10 * 60 * 60 * 1000;

export interface ListerWatcherRequest {
  gvk: GroupVersionKind;
  /** Set when the cache is restricted to one namespace and the kind is namespaced. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * cache.ByObject: one kind's own settings, each falling back to the cache-wide default when unset. This
 * port watches at most one namespace per kind.
 */
export interface ByObject {
  /** ByObject.Namespaces with one entry (namespaced kinds only). Default the cache's namespace. */
  namespaces?: [string];
  label?: string;
  field?: string;
  /** null: no transform even if the cache has a default one. */
  transform?: TransformFunc<KubeObject> | null;
  unsafeDisableDeepCopy?: boolean;
  /** Resync base for this kind (ms). */
  syncPeriodMs?: number;
}

export interface InformerCacheOptions {
  /** Builds the list/watch for a kind (the client layer's newListWatchForGVK). Required. */
  newListerWatcher: (req: ListerWatcherRequest) => Promise<ListerWatcher<KubeObject>>;
  /** Whether a kind is namespaced (the REST mapper). Required. */
  isNamespaced: (gvk: GroupVersionKind) => Promise<boolean>;
  /** Restrict every informer to this namespace (DefaultNamespaces with one entry). Default all namespaces. */
  namespace?: string;
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
  /** Default newSharedIndexInformer. */
  newInformer?: (opts: SharedIndexInformerOptions<KubeObject>) => SharedIndexInformer<KubeObject>;
  clock?: Clock;
  probe?: Probe;
  random?: () => number;
}

interface Entry {
  gvk: GroupVersionKind;
  informer: SharedIndexInformer<KubeObject>;
  namespaced: boolean;
  /** The one namespace this kind's informer watches, if restricted. */
  namespace?: string;
  unsafeDisableDeepCopy: boolean;
  ctx?: ChildContext;
  running?: Promise<void>;
}

export class InformerCache implements Reader {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly byObject = new Map<string, ByObject>();
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly random: () => number;
  private started = false;
  private signal?: AbortSignal;

  constructor(private readonly o: InformerCacheOptions) {
    this.clock = o.clock ?? realClock;
    this.probe = o.probe ?? NOOP_PROBE;
    this.random = o.random ?? Math.random;
    for (const [kind, by] of o.byObject ?? []) {
      if (by.namespaces && by.namespaces.length !== 1) {
        throw new Error(`ByObject for ${gvkId(toGVK(kind))}: give exactly one namespace (several are not supported)`);
      }
      this.byObject.set(gvkId(toGVK(kind)), by);
    }
  }

  /** Runnable: runs every informer until signal aborts, then waits for them to stop. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('informer already started');
    this.started = true;
    this.signal = signal;
    for (const e of this.entries.values()) this.run(e);
    await whenAborted(signal);
    await Promise.all([...this.entries.values()].map((e) => e.running));
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
    return (await this.entry(toGVK(kind), opts)).informer;
  }

  getInformerForKind(gvk: GroupVersionKind, opts?: { signal?: AbortSignal }): Promise<SharedIndexInformer<KubeObject>> {
    return this.getInformer(gvk, opts);
  }

  /** Stops and forgets the kind's informer. */
  removeInformer(kind: KindDescriptor): void {
    const id = gvkId(toGVK(kind));
    const e = this.entries.get(id);
    if (!e) return;
    e.ctx?.cancel();
    this.entries.delete(id);
  }

  /** FieldIndexer.IndexField: adds "field:<field>" with per-namespace and all-namespace values. */
  async indexField(kind: KindDescriptor, field: string, extract: (obj: KubeObject) => string[]): Promise<void> {
    const e = await this.entry(toGVK(kind), { blockUntilSynced: false });
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
    const e = await this.readerEntry(gvk, opts.signal);
    if (e.namespaced && e.namespace && key.namespace !== e.namespace) {
      throw new Error(`unable to get: ${key.namespace ?? ''}/${key.name} because of unknown namespace for the cache`);
    }
    return this.reader(e).get<T>(e.namespaced ? key.namespace : undefined, key.name);
  }

  async list<T extends KubeObject = KubeObject>(type: ObjectType, opts: ClientListOptions = {}): Promise<KubeList<T>> {
    const gvk = normalizeType(type, true);
    if (opts.continue) throw new Error('continue list option is not supported by the cache');
    const e = await this.readerEntry(gvk, opts.signal);
    if (e.namespaced && e.namespace && opts.namespace && opts.namespace !== e.namespace) {
      throw new Error(`unable to list: ${opts.namespace} because of unknown namespace for the cache`);
    }
    return this.reader(e).list<T>(opts);
  }

  /** Kinds with an informer, as "v1/Pod" ids. */
  kinds(): string[] {
    return [...this.entries.keys()];
  }

  /** A running informer's indexer by id ("v1/Pod"), never creating one: for observers such as the dashboard. */
  indexerFor(id: string): Indexer<KubeObject> | undefined {
    return this.entries.get(id)?.informer.getIndexer();
  }

  private reader(e: Entry): CacheReader {
    return new CacheReader(e.informer.getIndexer(), e.gvk, e.namespaced, e.unsafeDisableDeepCopy);
  }

  private async readerEntry(gvk: GroupVersionKind, signal?: AbortSignal): Promise<Entry> {
    if (!this.started) throw new Error('the cache is not started, can not read objects');
    if (this.o.readerFailOnMissingInformer && !this.entries.has(gvkId(gvk))) {
      throw new Error(`${gvkId(gvk)} is not cached`);
    }
    return this.entry(gvk, { signal });
  }

  private async entry(
    gvk: GroupVersionKind,
    opts: { signal?: AbortSignal; blockUntilSynced?: boolean },
  ): Promise<Entry> {
    if (opts.signal?.aborted) throw new Error(`failed to get informer for ${gvkId(gvk)}: context canceled`);
    const id = gvkId(gvk);
    let e = this.entries.get(id);
    if (!e) {
      let p = this.pending.get(id);
      if (!p) {
        p = this.create(gvk).finally(() => this.pending.delete(id));
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

  private async create(gvk: GroupVersionKind): Promise<Entry> {
    const namespaced = await this.o.isNamespaced(gvk);
    const by = this.byObject.get(gvkId(gvk));
    if (!namespaced && by?.namespaces) {
      throw new Error(`type ${gvkId(gvk)} is not namespaced, but its ByObject.Namespaces setting is not nil`);
    }
    const namespace = namespaced ? (by?.namespaces?.[0] ?? this.o.namespace) : undefined;
    const lw = await this.o.newListerWatcher({
      gvk,
      namespace,
      labelSelector: by?.label ?? this.o.defaultLabelSelector,
      fieldSelector: by?.field ?? this.o.defaultFieldSelector,
    });
    const transform = (by?.transform !== undefined ? by.transform : this.o.defaultTransform) ?? undefined;
    const base = by?.syncPeriodMs ?? this.o.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS;
    const informer = (this.o.newInformer ?? newSharedIndexInformer)({
      listerWatcher: lw,
      objectType: gvkId(gvk),
      resyncPeriodMs: Math.floor(base * (0.9 + this.random() * 0.2)),
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
      ...(transform ? { transform } : {}),
      clock: this.clock,
      probe: this.probe,
    });
    const e: Entry = {
      gvk,
      informer,
      namespaced,
      ...(namespace ? { namespace } : {}),
      unsafeDisableDeepCopy: by?.unsafeDisableDeepCopy ?? this.o.unsafeDisableDeepCopy ?? false,
    };
    this.entries.set(gvkId(gvk), e);
    if (this.started) this.run(e);
    return e;
  }

  private run(e: Entry): void {
    if (e.running || !this.signal) return;
    e.ctx = childContext(this.signal, this.clock);
    e.running = e.informer.run(e.ctx.signal);
  }
}

export { ALL_NAMESPACES };

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
      }),
    isNamespaced: (gvk) => mapper.isGVKNamespaced(gvk),
  });
}
