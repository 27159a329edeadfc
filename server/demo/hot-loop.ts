// A controller with the classic bug: every reconcile stamps the time into an annotation on the object
// it reconciles, so its own write is a new event that wakes it again, about four times a second for
// ever. The dashboard's trace view shows the evidence: each reconcile was caused by the previous one's
// update. The fix would be to write only when something changed (see replicaset-owner.ts).
import type { KubeObject } from '../../shared/models/object';
import {
  isAlreadyExists,
  isNotFound,
  mergeFrom,
  newControllerManagedBy,
  newPredicateFuncs,
  type Client,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime';

export const HOT_LOOP_NAME = 'hot-loop-target';
export const STAMP_ANNOTATION = 'controller-scope.dev/last-reconciled';
const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

export class HotLoopReconciler implements Reconciler {
  constructor(
    readonly client: Client,
    /** Simulated work before the write; sets the loop's pace. Default 250 ms. */
    private readonly workMs = 250,
  ) {}

  async setupWithManager(mgr: Manager, namespace: string): Promise<void> {
    await newControllerManagedBy(mgr)
      .named('hot-loop')
      .for(ConfigMap)
      .withEventFilter(newPredicateFuncs((o) => o.metadata.name === HOT_LOOP_NAME, 'NameIs(hot-loop-target)'))
      .complete(this);
    // The object it loops on; created once through the API so the loop has something to chew.
    const Namespace = { apiVersion: 'v1', kind: 'Namespace' } as const;
    await this.client
      .create({ ...Namespace, metadata: { name: namespace } })
      .catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
    try {
      await mgr.getAPIReader().get(ConfigMap, { namespace, name: HOT_LOOP_NAME });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const cm: KubeObject = { ...ConfigMap, metadata: { name: HOT_LOOP_NAME, namespace }, data: { purpose: 'demo' } };
      await this.client.create(cm).catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
    }
  }

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    await new Promise((r) => setTimeout(r, this.workMs));
    if (ctx.signal.aborted) return {};
    let cm: KubeObject;
    try {
      cm = await this.client.get(ConfigMap, req);
    } catch (err) {
      if (isNotFound(err)) return {};
      throw err;
    }
    const before = structuredClone(cm);
    // The bug: a value that is different every time, written unconditionally.
    cm.metadata.annotations = { ...cm.metadata.annotations, [STAMP_ANNOTATION]: new Date().toISOString() };
    await this.client.patch(cm, mergeFrom(before));
    return {};
  }
}
