// Transform functions for informers (client-go's TransformFunc; controller-runtime's
// cache.TransformStripManagedFields).
import type { KubeObject } from '../../../shared/models/object';
import type { DecodeHint } from '../client/lister-watcher';
import type { TransformFunc } from './interfaces';

/**
 * Drops metadata.managedFields, which caches rarely need and which dominate object size. Returns a copy.
 * The copy is built without the key rather than by deleting it: `delete` turns the metadata into a
 * dictionary-mode object, which costs more heap per cached object than the dropped fields save.
 */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** Transforms whose first step drops metadata.managedFields, so the decoder may leave them unparsed. */
const STRIPS_MANAGED_FIELDS = new WeakSet<object>([dropManagedFields]);

/**
 * cache.TransformStripManagedFields: the opt-in transform that drops managedFields before storing. An informer
 * given it also tells its lister-watcher to skip managedFields while decoding (see decodeHintFor).
 */
export function transformStripManagedFields(): TransformFunc<KubeObject> {
  return dropManagedFields;
}

/** Applies transforms left to right. */
export function chainTransforms<T>(...fns: TransformFunc<T>[]): TransformFunc<T> {
  const chained: TransformFunc<T> = (obj) => fns.reduce((o, f) => f(o), obj);
  if (fns[0] && STRIPS_MANAGED_FIELDS.has(fns[0])) STRIPS_MANAGED_FIELDS.add(chained);
  return chained;
}

/**
 * What the decoder may skip for an informer with this transform: managedFields when the transform drops them
 * before anything else reads the object, so an object decoded without them transforms to the same result.
 */
export function decodeHintFor(transform: object | undefined): DecodeHint | undefined {
  return transform && STRIPS_MANAGED_FIELDS.has(transform) ? { dropManagedFields: true } : undefined;
}
