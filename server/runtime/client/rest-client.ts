// Ports controller-runtime pkg/client/client.go + typed_client.go/unstructured_client.go (the uncached
// client): objects name their type through apiVersion/kind, the REST mapper turns that into a resource and
// scope, and every call goes to the API server. Reads through here are what GetAPIReader() serves.
import type { GroupVersionKind, KubeList, KubeObject } from '../../../shared/models/object';
import type { ClientRequestEvent } from '../../../shared/protocol/events-controller';
import type { ObjectRef } from '../../../shared/protocol/ids';
import type { Probe } from '../instrumentation/probe';
import { NOOP_PROBE } from '../instrumentation/probe';
import type { Clock } from '../util/clock';
import { realClock } from '../util/clock';
import { ApiError, errorMessage } from '../util/errors';
import { apiVersionOf, gvkId, mustGVKOf, parseGroupVersion } from './gvk';
import type { RestConfig } from './config';
import { HttpClient } from './http';
import type {
  Client,
  ClientListOptions,
  DeleteAllOfOptions,
  GetOptions,
  ObjectKey,
  ObjectType,
  Reader,
  StatusWriter,
} from './interfaces';
import type { Patch } from './patch';
import type { RESTMapping } from './rest-mapper';
import { DynamicRESTMapper } from './rest-mapper';
import type { DeleteOptions, PatchOptions, WriteOptions } from './resource-client';
import { ResourceClient } from './resource-client';
import { currentReconcileScope } from '../instrumentation/reconcile-scope';

export interface RestClientOptions {
  http: HttpClient;
  /** Default: a DynamicRESTMapper over the same HttpClient. */
  mapper?: DynamicRESTMapper;
  /** Field manager for every write that does not name one (client.WithFieldOwner). Default none. */
  fieldOwner?: string;
  /** Dry-run every write (client.WithDryRun). Default false. */
  dryRun?: boolean;
  /** Default NOOP_PROBE; emits client.request with cached=false. */
  probe?: Probe;
  /** Names the controller on emitted events, when this client belongs to one. */
  controller?: string;
  /** For request durations; default realClock. */
  clock?: Clock;
}

type Verb = ClientRequestEvent['verb'];

/** The API server client: implements Client (Reader + Writer + status()). */
export class RestClient implements Client {
  readonly http: HttpClient;
  readonly mapper: DynamicRESTMapper;
  private readonly fieldOwner?: string;
  private readonly dryRun: boolean;
  private readonly probe: Probe;
  private readonly controller?: string;
  private readonly clock: Clock;

  constructor(opts: RestClientOptions) {
    this.http = opts.http;
    this.mapper = opts.mapper ?? new DynamicRESTMapper({ http: opts.http });
    this.fieldOwner = opts.fieldOwner;
    this.dryRun = opts.dryRun ?? false;
    this.probe = opts.probe ?? NOOP_PROBE;
    this.controller = opts.controller;
    this.clock = opts.clock ?? realClock;
  }

  /** The per-resource client for a GVR, when the caller already knows it. */
  resource<T extends KubeObject = KubeObject>(gvr: ResourceClient['gvr']): ResourceClient<T> {
    return new ResourceClient<T>({ http: this.http, gvr });
  }

  async get<T extends KubeObject = KubeObject>(type: ObjectType, key: ObjectKey, opts: GetOptions = {}): Promise<T> {
    const gvk = normalizeType(type, false);
    return this.observe('get', gvk, key, async () => {
      const m = await this.mapping(gvk);
      const ns = this.namespaceFor(m, key.namespace, 'get', key.name);
      const obj = await this.resource<T>(m.resource).get(key.name, { ...opts, namespace: ns });
      return withTypeMeta(obj, gvk);
    });
  }

  async list<T extends KubeObject = KubeObject>(type: ObjectType, opts: ClientListOptions = {}): Promise<KubeList<T>> {
    const gvk = normalizeType(type, true);
    return this.observe('list', gvk, { namespace: opts.namespace, name: '' }, async () => {
      const m = await this.mapping(gvk);
      const ns = m.scope === 'namespace' ? opts.namespace || undefined : undefined;
      return this.resource<T>(m.resource).list({ ...opts, namespace: ns });
    });
  }

  create<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.write('create', obj, (rc, ns) => rc.create(obj, { ...this.writeDefaults(opts), namespace: ns }));
  }

  update<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.write('update', obj, (rc, ns) => rc.update(obj, { ...this.writeDefaults(opts), namespace: ns }));
  }

  patch<T extends KubeObject>(obj: T, patch: Patch, opts: PatchOptions = {}): Promise<T> {
    return this.write('patch', obj, (rc, ns) =>
      rc.patch(this.nameOf(obj), patch.type, patch.data(obj), { ...this.writeDefaults(opts), namespace: ns }),
    );
  }

  async delete(obj: KubeObject, opts: DeleteOptions = {}): Promise<void> {
    await this.write('delete', obj, (rc, ns) =>
      rc.delete(this.nameOf(obj), { ...opts, dryRun: opts.dryRun ?? this.dryRun, namespace: ns }),
    );
  }

  async deleteAllOf(type: ObjectType, opts: DeleteAllOfOptions = {}): Promise<void> {
    const gvk = normalizeType(type, true);
    await this.observe('deleteAllOf', gvk, { namespace: opts.namespace, name: '' }, async () => {
      const m = await this.mapping(gvk);
      const ns = this.namespaceFor(m, opts.namespace, 'deleteAllOf', '');
      const { labelSelector, fieldSelector, signal, ...deleteOpts } = opts;
      return this.resource(m.resource).deleteCollection(
        { namespace: ns, labelSelector, fieldSelector, signal },
        { ...deleteOpts, dryRun: deleteOpts.dryRun ?? this.dryRun },
      );
    });
  }

  status(): StatusWriter {
    return {
      update: <T extends KubeObject>(obj: T, opts: WriteOptions = {}) =>
        this.write('updateStatus', obj, (rc, ns) =>
          rc.updateStatus(obj, { ...this.writeDefaults(opts), namespace: ns }),
        ),
      patch: <T extends KubeObject>(obj: T, patch: Patch, opts: PatchOptions = {}) =>
        this.write('patchStatus', obj, (rc, ns) =>
          rc.patchStatus(this.nameOf(obj), patch.type, patch.data(obj), { ...this.writeDefaults(opts), namespace: ns }),
        ),
    };
  }

  private async write<T extends KubeObject, R>(
    verb: Verb,
    obj: T,
    fn: (rc: ResourceClient<T>, namespace: string | undefined) => Promise<R>,
  ): Promise<R> {
    const gvk = mustGVKOf(obj);
    const key = { namespace: obj.metadata.namespace, name: obj.metadata.name ?? obj.metadata.generateName ?? '' };
    return this.observe(verb, gvk, key, async () => {
      const m = await this.mapping(gvk);
      const ns = this.namespaceFor(m, obj.metadata.namespace, verb, key.name);
      const out = await fn(this.resource<T>(m.resource), ns);
      // Update/Patch restore the GVK the object had (the response may omit it).
      if (verb !== 'delete' && out && typeof out === 'object') withTypeMeta(out as unknown as KubeObject, gvk);
      return out;
    });
  }

  private writeDefaults<O extends WriteOptions>(opts: O): O {
    return { ...opts, fieldManager: opts.fieldManager ?? this.fieldOwner, dryRun: opts.dryRun ?? this.dryRun };
  }

  private nameOf(obj: KubeObject): string {
    if (!obj.metadata.name) throw new Error(`${obj.kind ?? 'object'} has no metadata.name`);
    return obj.metadata.name;
  }

  private mapping(gvk: GroupVersionKind): Promise<RESTMapping> {
    return this.mapper.restMapping({ group: gvk.group, kind: gvk.kind }, gvk.version);
  }

  /** Namespaced kinds need a namespace for single-object calls; cluster-scoped kinds must not get one. */
  private namespaceFor(m: RESTMapping, namespace: string | undefined, verb: Verb, name: string): string | undefined {
    if (m.scope === 'root') return undefined;
    if (!namespace && verb !== 'deleteAllOf') {
      throw new ApiError(
        400,
        'BadRequest',
        `${m.gvk.kind} ${JSON.stringify(name)} is namespaced: ${verb} needs metadata.namespace (or key.namespace)`,
      );
    }
    return namespace || undefined;
  }

  private async observe<R>(verb: Verb, gvk: GroupVersionKind, key: ObjectKey, fn: () => Promise<R>): Promise<R> {
    if (!this.probe.enabled) return fn();
    const start = this.clock.now();
    const ref = {
      gvk: gvkId(gvk),
      namespace: key.namespace || undefined,
      name: key.name,
    };
    // Writes made inside a reconcile are attributed to its controller, which is how the dashboard ties a
    // reconcile's own writes to the events they cause (hot-loop evidence).
    const scope = currentReconcileScope();
    const controller = this.controller ?? scope?.controller;
    const reconcileId = scope !== undefined && scope.controller === controller ? scope.reconcileID : undefined;
    try {
      const out = await fn();
      if (this.probe.enabled) {
        this.probe.emit({
          kind: 'client.request',
          controller,
          verb,
          ref: withResult(ref, out),
          cached: false,
          durationMs: this.clock.now() - start,
          ...(reconcileId !== undefined ? { reconcileId } : {}),
        });
      }
      return out;
    } catch (err) {
      if (this.probe.enabled) {
        this.probe.emit({
          kind: 'client.request',
          controller,
          verb,
          ref,
          cached: false,
          durationMs: this.clock.now() - start,
          code: err instanceof ApiError ? err.code : undefined,
          error: errorMessage(err),
          ...(reconcileId !== undefined ? { reconcileId } : {}),
        });
      }
      throw err;
    }
  }
}

/**
 * The written object's uid and the resourceVersion the server gave it: what its watch event will carry,
 * which ties the two exactly. A delete answered with a Status (no object) leaves both unknown.
 */
function withResult(ref: ObjectRef, out: unknown): ObjectRef {
  const meta = (out as { kind?: unknown; metadata?: { resourceVersion?: unknown; uid?: unknown } } | undefined)
    ?.metadata;
  if ((out as { kind?: unknown } | undefined)?.kind === 'Status' || !meta) return ref;
  const r: ObjectRef = { ...ref };
  if (typeof meta.uid === 'string' && meta.uid !== '') r.uid = meta.uid;
  if (typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '') r.resourceVersion = meta.resourceVersion;
  return r;
}

/** client.New(config): an HttpClient, a lazy DynamicRESTMapper and a RestClient over them. */
export function newRestClient(
  config: RestConfig,
  opts: Omit<RestClientOptions, 'http'> & { maxRetries?: number } = {},
): RestClient {
  const http = new HttpClient({ config, clock: opts.clock, maxRetries: opts.maxRetries });
  return new RestClient({ ...opts, http });
}

/** GetAPIReader(): reads that always go to the API server, never a cache. */
export type APIReader = Reader;

export function newAPIReader(
  opts: Pick<RestClientOptions, 'http' | 'mapper' | 'probe' | 'clock' | 'controller'>,
): APIReader {
  const c = new RestClient(opts);
  return { get: (t, k, o) => c.get(t, k, o), list: (t, o) => c.list(t, o) };
}

/** ObjectType → GVK; for lists the "List" suffix of the kind is dropped. */
export function normalizeType(type: ObjectType, isList: boolean): GroupVersionKind {
  const gvk = 'apiVersion' in type ? { ...parseGroupVersion(type.apiVersion), kind: type.kind } : { ...type };
  if (isList && gvk.kind.endsWith('List') && gvk.kind.length > 4) gvk.kind = gvk.kind.slice(0, -4);
  return gvk;
}

function withTypeMeta<T extends KubeObject>(obj: T, gvk: GroupVersionKind): T {
  if (!obj.apiVersion) obj.apiVersion = apiVersionOf(gvk);
  if (!obj.kind) obj.kind = gvk.kind;
  return obj;
}
