// Builds the ObjectRef that probe events carry instead of objects (no upstream counterpart).
import type { ObjectRef } from '../../../shared/protocol/ids';
import { DeletedFinalStateUnknown } from './interfaces';
import { metaOf } from './keys';

/** gvk of an object from its apiVersion/kind ("v1/Pod", "apps/v1/Deployment"), or fallback. */
export function gvkOf(obj: unknown, fallback: string): string {
  if (typeof obj !== 'object' || obj === null) return fallback;
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  return typeof apiVersion === 'string' && typeof kind === 'string' && apiVersion && kind
    ? `${apiVersion}/${kind}`
    : fallback;
}

/** A reference to obj (unwrapping tombstones); key is used when the object has no metadata. */
export function objectRef(obj: unknown, gvk: string, key?: string): ObjectRef {
  const inner = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
  const meta = metaOf(inner);
  if (!meta) {
    const k = obj instanceof DeletedFinalStateUnknown ? obj.key : (key ?? '');
    const i = k.indexOf('/');
    return i < 0 ? { gvk, name: k } : { gvk, namespace: k.slice(0, i), name: k.slice(i + 1) };
  }
  const ref: ObjectRef = { gvk: gvkOf(inner, gvk), name: meta.name ?? '' };
  if (meta.namespace) ref.namespace = meta.namespace;
  if (meta.uid) ref.uid = meta.uid;
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  return ref;
}
