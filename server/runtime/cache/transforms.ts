// Transform functions for informers (client-go's TransformFunc; controller-runtime's
// cache.TransformStripManagedFields).
import type { KubeObject } from '../../../shared/models/object';
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

/** cache.TransformStripManagedFields: the opt-in transform that drops managedFields before storing. */
export function transformStripManagedFields(): TransformFunc<KubeObject> {
  return dropManagedFields;
}

/** Applies transforms left to right. */
export function chainTransforms<T>(...fns: TransformFunc<T>[]): TransformFunc<T> {
  return (obj) => fns.reduce((o, f) => f(o), obj);
}
