// Ports controller-runtime pkg/client/interfaces.go: Reader, Writer, StatusWriter, Client. The REST client
// implements all of them against the API server; the cache-backed client serves Reader from informers.
import type { GroupVersionKind, KubeList, KubeObject } from '../../../shared/models/object';
import type { ListOptions } from './lister-watcher';
import type { Patch } from './patch';
import type { DeleteOptions, PatchOptions, WriteOptions } from './resource-client';

/** client.ObjectKey: namespace is omitted (or '') for cluster-scoped objects. */
export interface ObjectKey {
  namespace?: string;
  name: string;
}

/**
 * Names the type a read is for: a GVK, or apiVersion + kind as on an object. A list may name the item kind
 * or the list kind ("PodList"), as controller-runtime strips the "List" suffix.
 */
export type ObjectType = GroupVersionKind | { apiVersion: string; kind: string };

export interface GetOptions {
  /** resourceVersion="0" lets the server answer from its cache. */
  resourceVersion?: string;
  signal?: AbortSignal;
}

export interface ClientListOptions extends ListOptions {
  /** Restrict to one namespace; omit for all namespaces. */
  namespace?: string;
  signal?: AbortSignal;
}

export interface Reader {
  get<T extends KubeObject = KubeObject>(type: ObjectType, key: ObjectKey, opts?: GetOptions): Promise<T>;
  list<T extends KubeObject = KubeObject>(type: ObjectType, opts?: ClientListOptions): Promise<KubeList<T>>;
}

/** client.DeleteAllOfOptions: which objects (list options) and how (delete options). */
export interface DeleteAllOfOptions extends Omit<DeleteOptions, 'namespace'> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface Writer {
  create<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  update<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T>;
  delete(obj: KubeObject, opts?: DeleteOptions): Promise<void>;
  deleteAllOf(type: ObjectType, opts?: DeleteAllOfOptions): Promise<void>;
}

export interface StatusWriter {
  update<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T>;
}

export interface Client extends Reader, Writer {
  status(): StatusWriter;
}
