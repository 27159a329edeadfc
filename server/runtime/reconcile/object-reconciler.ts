// Ports controller-runtime pkg/reconcile (ObjectReconciler, AsReconciler): reconcile the object rather than
// its name — fetch it first, and skip objects that are gone.
import type { KubeObject } from '../../../shared/models/object';
import type { Reader } from '../client/interfaces';
import { apiVersionOf, toGVK, type KindDescriptor } from '../client/gvk';
import { isNotFound } from '../util/errors';
import type { ReconcileContext, Reconciler, Result } from './reconcile';

export interface ObjectReconciler<T extends KubeObject = KubeObject> {
  reconcile(ctx: ReconcileContext, obj: T): Promise<Result | void>;
}

/** reconcile.AsReconciler: Get the object (NotFound → done, no call); other Get errors are returned. */
export function asReconciler<T extends KubeObject = KubeObject>(
  client: Pick<Reader, 'get'>,
  kind: KindDescriptor,
  rec: ObjectReconciler<T>,
): Reconciler {
  const gvk = toGVK(kind);
  const type = { apiVersion: apiVersionOf(gvk), kind: gvk.kind };
  return {
    async reconcile(ctx, req) {
      let obj: T;
      try {
        obj = await client.get<T>(type, { namespace: req.namespace, name: req.name }, { signal: ctx.signal });
      } catch (err) {
        if (isNotFound(err)) return {};
        throw err;
      }
      return rec.reconcile(ctx, obj);
    },
  };
}
