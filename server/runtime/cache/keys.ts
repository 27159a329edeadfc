// Ports client-go tools/cache/store.go (key functions, KeyError) and tools/cache/object-names.go.
import type { KubeObject } from '../../../shared/models/object';
import { DeletedFinalStateUnknown } from './interfaces';
import { errorMessage } from '../util/errors';

/** cache.KeyError: the key function failed for obj. `cause` keeps the underlying error for unwrapping. */
export class KeyError extends Error {
  override readonly name = 'KeyError';
  constructor(
    readonly obj: unknown,
    override readonly cause: unknown,
  ) {
    super(`couldn't create key for object ${describe(obj)}: ${errorMessage(cause)}`);
  }
}

/** errors.Is through nested KeyErrors (and any `cause` chain). */
export function errorIs(err: unknown, target: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; depth < 32 && cur !== undefined && cur !== null; depth++) {
    if (cur === target) return true;
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return false;
}

function describe(obj: unknown): string {
  try {
    return JSON.stringify(obj) ?? String(obj);
  } catch {
    return String(obj);
  }
}

/** The metadata of obj, or undefined when obj does not look like a Kubernetes object. */
export function metaOf(obj: unknown): KubeObject['metadata'] | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return undefined;
  return meta as KubeObject['metadata'];
}

/**
 * cache.MetaNamespaceKeyFunc: "namespace/name", or "name" for cluster-scoped objects. A string is an
 * ExplicitKey and is returned as is.
 */
export function metaNamespaceKeyFunc(obj: unknown): string {
  if (typeof obj === 'string') return obj;
  const meta = metaOf(obj);
  if (!meta) throw new KeyError(obj, new Error(`object has no meta: ${describe(obj)}`));
  const name = meta.name ?? '';
  return meta.namespace ? `${meta.namespace}/${name}` : name;
}

/** cache.DeletionHandlingMetaNamespaceKeyFunc: tombstones key by their recorded key. */
export function deletionHandlingMetaNamespaceKeyFunc(obj: unknown): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  return metaNamespaceKeyFunc(obj);
}

/** cache.SplitMetaNamespaceKey: throws on more than one "/". */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] ?? '' };
  if (parts.length === 2) return { namespace: parts[0] ?? '', name: parts[1] ?? '' };
  throw new Error(`unexpected key format: ${JSON.stringify(key)}`);
}

/** cache.ObjectName */
export interface ObjectName {
  namespace: string;
  name: string;
}

/** ObjectName.String(): same shape as the store key. */
export function objectNameString(n: ObjectName): string {
  return n.namespace ? `${n.namespace}/${n.name}` : n.name;
}

/** cache.ParseObjectName */
export function parseObjectName(key: string): ObjectName {
  return splitMetaNamespaceKey(key);
}

/** cache.MetaObjectToName */
export function metaObjectToName(obj: KubeObject): ObjectName {
  return { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
}

/**
 * cache.DeletionHandlingObjectToName: a tombstone's key is split at the FIRST "/" only, so it never
 * fails (extra slashes stay in the name).
 */
export function deletionHandlingObjectToName(
  obj: KubeObject | DeletedFinalStateUnknown<KubeObject | undefined>,
): ObjectName {
  if (obj instanceof DeletedFinalStateUnknown) {
    const i = obj.key.indexOf('/');
    return i < 0 ? { namespace: '', name: obj.key } : { namespace: obj.key.slice(0, i), name: obj.key.slice(i + 1) };
  }
  return metaObjectToName(obj);
}

/**
 * DeletedObject.GetKey (the typed delete wrapper): the tombstone's key, else the object's key, else ""
 * when there is no object at all. Never throws.
 */
export function deletedObjectKey(obj: unknown): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  if (obj === undefined || obj === null) return '';
  try {
    return metaNamespaceKeyFunc(obj);
  } catch {
    return '';
  }
}

/** DeletedObject.GetObjectName: splits deletedObjectKey at the first "/" (zero name for nothing). */
export function deletedObjectName(obj: unknown): ObjectName {
  const key = deletedObjectKey(obj);
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
