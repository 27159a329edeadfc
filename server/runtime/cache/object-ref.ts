// The one builder of ObjectRef, what probe events and causes carry instead of objects (no upstream
// counterpart).
import type { ObjectRef } from '../../../shared/protocol/ids';
import { gvkIdOf } from '../client/gvk';
import { DeletedFinalStateUnknown } from './interfaces';
import { metaOf } from './keys';

/**
 * The last ref built, and what it was built from. One object change is reported by several emit sites in a
 * row (the watch event, the FIFO delta, the store update, the notification), each asking for a ref to the
 * same object: they share one instead of building four. Refs are never written after they are built, and
 * every field a ref is read from is compared, so an object changed in place (against the cache's contract)
 * still gets a fresh ref.
 */
let last: ObjectRef | undefined;
let lastObj: unknown;
let lastMeta: unknown;
let lastGvk = '';
let lastApiVersion: unknown;
let lastKind: unknown;
/** Whether the object named its own apiVersion and kind: then the ref's gvk does not depend on the fallback. */
let lastNamesKind = false;

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
  const o = inner as { apiVersion?: unknown; kind?: unknown };
  if (
    last !== undefined &&
    inner === lastObj &&
    meta === lastMeta &&
    (gvk === lastGvk || lastNamesKind) &&
    o.apiVersion === lastApiVersion &&
    o.kind === lastKind &&
    last.name === (meta.name ?? '') &&
    last.namespace === (meta.namespace || undefined) &&
    last.uid === (meta.uid || undefined) &&
    last.resourceVersion === (meta.resourceVersion || undefined)
  )
    return last;
  const ref: ObjectRef = { gvk: gvkIdOf(inner, gvk), name: meta.name ?? '' };
  if (meta.namespace) ref.namespace = meta.namespace;
  if (meta.uid) ref.uid = meta.uid;
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  last = ref;
  lastObj = inner;
  lastMeta = meta;
  lastGvk = gvk;
  lastApiVersion = o.apiVersion;
  lastKind = o.kind;
  lastNamesKind =
    typeof o.apiVersion === 'string' && o.apiVersion !== '' && typeof o.kind === 'string' && o.kind !== '';
  return ref;
}
