// Transform functions for informers (client-go's TransformFunc; controller-runtime's
// cache.TransformStripManagedFields).
import type { KubeObject } from '../../../shared/models/object';
import type { TransformFunc } from './interfaces';

/** Drops metadata.managedFields, which caches rarely need and which dominate object size. Returns a copy. */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
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
