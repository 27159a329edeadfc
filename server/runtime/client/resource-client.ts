// Ports client-go dynamic/simple.go (dynamicResourceClient): typed-by-generic CRUD for one
// GroupVersionResource, namespaced or not, plus the status subresource.
import type { GroupVersionResource, KubeList, KubeObject, KubeStatus } from '../../../shared/models/object';
import { resourcePath } from './gvk';
import type { HttpClient, HttpMethod, QueryValue } from './http';
import type { ListOptions } from './lister-watcher';
import { withItemTypeMeta } from './list-watch';
import type { PatchType } from './patch';
import { PATCH_CONTENT_TYPE } from './patch';

export interface RequestScope {
  /** Namespace of the object or collection; omit for cluster-scoped resources or all namespaces. */
  namespace?: string;
  signal?: AbortSignal;
}

/** metav1.CreateOptions / UpdateOptions / PatchOptions in one. */
export interface WriteOptions extends RequestScope {
  /** Server-side dry run (dryRun=All): validated and admitted but not stored. */
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** metav1.DeleteOptions. */
export interface DeleteOptions extends RequestScope {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  /** Delete only if the stored object still has this uid / resourceVersion (409 otherwise). */
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export interface ResourceClientOptions {
  http: HttpClient;
  gvr: GroupVersionResource;
}

/** What a delete answers: a Success Status, or the object when finalizers keep it around. */
export type DeleteResult<T extends KubeObject> = T | KubeStatus;

export class ResourceClient<T extends KubeObject = KubeObject> {
  readonly gvr: GroupVersionResource;
  private readonly http: HttpClient;

  constructor(opts: ResourceClientOptions) {
    this.http = opts.http;
    this.gvr = opts.gvr;
  }

  get(name: string, opts: RequestScope & { resourceVersion?: string } = {}): Promise<T> {
    return this.call('GET', { ...opts, name }, { query: { resourceVersion: opts.resourceVersion } });
  }

  async list(opts: RequestScope & ListOptions = {}): Promise<KubeList<T>> {
    const list = await this.call<KubeList<T>>('GET', opts, {
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        limit: opts.limit,
        continue: opts.continue,
        timeoutSeconds: opts.timeoutSeconds,
      },
    });
    return withItemTypeMeta(list);
  }

  create(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.call('POST', { ...opts, namespace: namespaceOf(obj, opts) }, { body: obj, query: writeQuery(opts) });
  }

  update(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.call('PUT', this.objectScope(obj, opts), { body: obj, query: writeQuery(opts) });
  }

  /** PUT …/status: only the status stanza of `obj` is taken by the server. */
  updateStatus(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.call(
      'PUT',
      { ...this.objectScope(obj, opts), subresource: 'status' },
      { body: obj, query: writeQuery(opts) },
    );
  }

  patch(name: string, type: PatchType, body: unknown, opts: PatchOptions = {}): Promise<T> {
    return this.call('PATCH', { ...opts, name }, patchRequest(type, body, opts));
  }

  patchStatus(name: string, type: PatchType, body: unknown, opts: PatchOptions = {}): Promise<T> {
    return this.call('PATCH', { ...opts, name, subresource: 'status' }, patchRequest(type, body, opts));
  }

  delete(name: string, opts: DeleteOptions = {}): Promise<DeleteResult<T>> {
    return this.call('DELETE', { ...opts, name }, { body: deleteBody(opts) });
  }

  /** DELETE on the collection: every object matching the selectors. */
  deleteCollection(
    listOpts: RequestScope & Pick<ListOptions, 'labelSelector' | 'fieldSelector'> = {},
    deleteOpts: Omit<DeleteOptions, keyof RequestScope> = {},
  ): Promise<KubeStatus | KubeList<T>> {
    return this.call('DELETE', listOpts, {
      body: deleteBody(deleteOpts),
      query: { labelSelector: listOpts.labelSelector, fieldSelector: listOpts.fieldSelector },
    });
  }

  private objectScope(obj: T, opts: RequestScope): RequestScope & { name: string } {
    const name = obj.metadata.name;
    if (!name) throw new Error(`cannot write ${this.gvr.resource} without metadata.name`);
    return { ...opts, namespace: namespaceOf(obj, opts), name };
  }

  private call<R>(
    method: HttpMethod,
    scope: RequestScope & { name?: string; subresource?: string },
    extra: { body?: unknown; query?: Record<string, QueryValue>; contentType?: string },
  ): Promise<R> {
    const path = resourcePath(this.gvr, {
      namespace: scope.namespace,
      name: scope.name,
      subresource: scope.subresource,
    });
    return this.http.request<R>({ method, path, signal: scope.signal, ...extra });
  }
}

/** An explicit `namespace` key (even undefined, for cluster-scoped kinds) wins over the object's own. */
function namespaceOf(obj: KubeObject, opts: RequestScope): string | undefined {
  return 'namespace' in opts ? opts.namespace : obj.metadata.namespace;
}

function writeQuery(opts: WriteOptions): Record<string, QueryValue> {
  return {
    dryRun: opts.dryRun ? 'All' : undefined,
    fieldManager: opts.fieldManager,
    fieldValidation: opts.fieldValidation,
  };
}

function patchRequest(
  type: PatchType,
  body: unknown,
  opts: PatchOptions,
): { body: unknown; query: Record<string, QueryValue>; contentType: string } {
  if (type === 'apply' && !opts.fieldManager) {
    throw new Error('server-side apply needs a fieldManager (PatchOptions.fieldManager)');
  }
  const query = writeQuery(opts);
  if (opts.force !== undefined) query.force = opts.force;
  // JSON is valid YAML, so an apply body goes as JSON text under the apply content type.
  return { body: typeof body === 'string' ? body : JSON.stringify(body), query, contentType: PATCH_CONTENT_TYPE[type] };
}

function deleteBody(opts: Omit<DeleteOptions, keyof RequestScope>): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
  if (opts.preconditions) body.preconditions = opts.preconditions;
  if (opts.dryRun) body.dryRun = ['All'];
  return body;
}
