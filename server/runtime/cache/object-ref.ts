// The one builder of ObjectRef, what probe events and causes carry instead of objects (no upstream
// counterpart).
import type { ObjectRef } from '../../../shared/protocol/ids';
import { gvkIdOf } from '../client/gvk';
import { DeletedFinalStateUnknown } from './interfaces';
import { metaOf } from './keys';

/**
 * A reference to obj for probe events and enqueue causes (never the object itself). Tombstones are
 * unwrapped; gvk names the kind when the object does not (list items often carry no apiVersion/kind), and
 * key stands in for a name when the object has no metadata.
 */
export function objectRef(obj: unknown, gvk: string, key?: string): ObjectRef {
  const inner = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
  const meta = metaOf(inner);
  if (!meta) {
    const k = obj instanceof DeletedFinalStateUnknown ? obj.key : (key ?? '');
    const i = k.indexOf('/');
    return i < 0 ? { gvk, name: k } : { gvk, namespace: k.slice(0, i), name: k.slice(i + 1) };
  }
  const ref: ObjectRef = { gvk: gvkIdOf(inner, gvk), name: meta.name ?? '' };
  if (meta.namespace) ref.namespace = meta.namespace;
  if (meta.uid) ref.uid = meta.uid;
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  return ref;
}
