// Ports controller-runtime pkg/client/client.go's cache-backed ("delegating") client: reads go to the
// informer cache (which starts an informer for a new kind on first read), writes always go to the API
// server. As upstream's shouldBypassCache, reads skip the cache for kinds in DisableFor and for
// unstructured reads (kinds the scheme does not know) unless the cache is asked to cache those.
// Cache reads are reported as client.request events with cached: true.
import type { GroupVersionKind, KubeList, KubeObject } from '../../../shared/models/object';
import type { ClientRequestEvent } from '../../../shared/protocol/events-controller';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { currentReconcileScope } from '../instrumentation/reconcile-scope';
import { realClock, type Clock } from '../util/clock';
import { ApiError, errorMessage } from '../util/errors';
import type { Client, ClientListOptions, GetOptions, ObjectKey, ObjectType, Reader, StatusWriter } from './interfaces';
import type { Patch } from './patch';
import type { DeleteOptions, PatchOptions, WriteOptions } from './resource-client';
import { gvkId, isMetadataOnly } from './gvk';
import { normalizeType } from './rest-client';
import { isBuiltInGroup } from './scheme';

export interface CachedClientOptions {
  /** The API server client: all writes, and reads the cache does not serve. */
  client: Client;
  /** The informer cache. Without one every read goes to the API server. */
  cache?: Reader;
  /** Kinds always read from the API server (client.CacheOptions.DisableFor). */
  disableFor?: ObjectType[];
  /** Whether a kind is read as a typed object (in the scheme). Default: the built-in groups only. */
  isTyped?: (gvk: GroupVersionKind) => boolean;
  /** client.CacheOptions.Unstructured: serve unstructured reads from the cache too. Default false. */
  cacheUnstructured?: boolean;
  probe?: Probe;
  clock?: Clock;
  /** Names the controller on emitted events, when this client belongs to one. */
  controller?: string;
}

const isTypedByDefault = (gvk: GroupVersionKind): boolean => isBuiltInGroup(gvk.group);

const sameKind = (a: GroupVersionKind, b: GroupVersionKind): boolean =>
  a.group === b.group && a.version === b.version && a.kind === b.kind;

export class CachedClient implements Client {
  private readonly disabled: GroupVersionKind[];
  private readonly probe: Probe;
  private readonly clock: Clock;

  constructor(private readonly o: CachedClientOptions) {
    this.disabled = (o.disableFor ?? []).map((t) => normalizeType(t, false));
    this.probe = o.probe ?? NOOP_PROBE;
    this.clock = o.clock ?? realClock;
  }

  /** The same client, naming a controller on its cache-read events. */
  forController(controller: string): CachedClient {
    return new CachedClient({ ...this.o, controller });
  }

  /** shouldBypassCache: no cache, a disabled kind, or an unstructured read the cache was not asked to serve. */
  private cacheFor(gvk: GroupVersionKind, metadataOnly: boolean): Reader | undefined {
    if (!this.o.cache) return undefined;
    if (this.disabled.some((d) => sameKind(d, gvk))) return undefined;
    // PartialObjectMetadata is a Go type in every scheme, whatever kind it stands for: served from the cache.
    if (metadataOnly) return this.o.cache;
    if (!this.o.cacheUnstructured && !(this.o.isTyped ?? isTypedByDefault)(gvk)) return undefined;
    return this.o.cache;
  }

  async get<T extends KubeObject = KubeObject>(type: ObjectType, key: ObjectKey, opts?: GetOptions): Promise<T> {
    const gvk = normalizeType(type, false);
    const cache = this.cacheFor(gvk, isMetadataOnly(type));
    if (!cache) return this.o.client.get<T>(type, key, opts);
    return this.observe('get', gvk, key.namespace, key.name, () => cache.get<T>(type, key, opts));
  }

  async list<T extends KubeObject = KubeObject>(type: ObjectType, opts?: ClientListOptions): Promise<KubeList<T>> {
    const gvk = normalizeType(type, true);
    const cache = this.cacheFor(gvk, isMetadataOnly(type));
    if (!cache) return this.o.client.list<T>(type, opts);
    return this.observe('list', gvk, opts?.namespace, '', () => cache.list<T>(type, opts));
  }

  create<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.o.client.create(obj, opts);
  }

  update<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.o.client.update(obj, opts);
  }

  patch<T extends KubeObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T> {
    return this.o.client.patch(obj, patch, opts);
  }

  delete(obj: KubeObject, opts?: DeleteOptions): Promise<void> {
    return this.o.client.delete(obj, opts);
  }

  deleteAllOf(type: ObjectType, opts?: Parameters<Client['deleteAllOf']>[1]): Promise<void> {
    return this.o.client.deleteAllOf(type, opts);
  }

  status(): StatusWriter {
    return this.o.client.status();
  }

  private async observe<R>(
    verb: ClientRequestEvent['verb'],
    gvk: GroupVersionKind,
    namespace: string | undefined,
    name: string,
    fn: () => Promise<R>,
  ): Promise<R> {
    if (!this.probe.enabled) return fn();
    const started = this.clock.now();
    const controller = this.o.controller ?? currentReconcileScope()?.controller;
    const ref = {
      gvk: gvkId(gvk),
      name,
      ...(namespace ? { namespace } : {}),
    };
    const emit = (extra: Partial<ClientRequestEvent>): void =>
      this.probe.emit({
        kind: 'client.request',
        verb,
        ref,
        cached: true,
        durationMs: this.clock.now() - started,
        ...(controller ? { controller } : {}),
        ...extra,
      });
    try {
      const out = await fn();
      emit({});
      return out;
    } catch (err) {
      emit({ error: errorMessage(err), ...(err instanceof ApiError ? { code: err.code } : {}) });
      throw err;
    }
  }
}

/** client.New with a cache reader: the manager's GetClient(). */
export function newCachedClient(opts: CachedClientOptions): CachedClient {
  return new CachedClient(opts);
}
