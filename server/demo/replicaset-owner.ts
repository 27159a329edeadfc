// An owner-aware controller: reconciles ReplicaSets, and is woken by their Pods through Owns() and by their
// Deployments through Watches() with a map function (a Deployment scaled → the ReplicaSets it owns, found in
// the cache). It writes how many of the owned pods are ready into an annotation, and only when that changed,
// so its own write wakes it once and then it settles (compare hot-loop.ts, which does not check).
import type { KubeObject } from '../../shared/models/object';
import {
  enqueueRequestsFromMapFunc,
  isNotFound,
  mergeFrom,
  newControllerManagedBy,
  type Client,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime';

export const READY_ANNOTATION = 'controller-scope.dev/ready-pods';
const ReplicaSet = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const Pod = { apiVersion: 'v1', kind: 'Pod' } as const;
const Deployment = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

export class ReplicaSetOwner implements Reconciler {
  constructor(readonly client: Client) {}

  setupWithManager(mgr: Manager): Promise<void> {
    return newControllerManagedBy(mgr)
      .named('replicaset-owner')
      .for(ReplicaSet)
      .owns(Pod)
      .watches(
        Deployment,
        enqueueRequestsFromMapFunc((_ctx, d) => this.replicaSetsOf(d)),
      )
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(this);
  }

  /** The map function: a Deployment's ReplicaSets, by owner reference, read from the cache. */
  private async replicaSetsOf(d: KubeObject): Promise<Request[]> {
    const sets = await this.client.list(ReplicaSet, { namespace: d.metadata.namespace });
    return sets.items
      .filter((rs) => rs.metadata.ownerReferences?.some((o) => o.uid === d.metadata.uid))
      .map((rs) => ({ namespace: rs.metadata.namespace ?? '', name: rs.metadata.name ?? '' }));
  }

  async reconcile(_ctx: ReconcileContext, req: Request): Promise<Result> {
    let rs: KubeObject;
    try {
      rs = await this.client.get(ReplicaSet, req);
    } catch (err) {
      if (isNotFound(err)) return {}; // deleted: its pods go with it through the garbage collector
      throw err;
    }
    const pods = await this.client.list(Pod, { namespace: req.namespace });
    const owned = pods.items.filter((p) => p.metadata.ownerReferences?.some((o) => o.uid === rs.metadata.uid));
    const ready = owned.filter((p) =>
      (p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    ).length;
    const value = `${ready}/${owned.length}`;
    if (rs.metadata.annotations?.[READY_ANNOTATION] === value) return {};
    const before = structuredClone(rs);
    rs.metadata.annotations = { ...rs.metadata.annotations, [READY_ANNOTATION]: value };
    await this.client.patch(rs, mergeFrom(before));
    return {};
  }
}
