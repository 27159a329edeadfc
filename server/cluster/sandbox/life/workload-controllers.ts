// kube-controller-manager's Deployment and ReplicaSet controllers, reduced to what makes owner
// relationships real in the sandbox: a Deployment owns one ReplicaSet per pod template, a ReplicaSet
// owns its pods, and both report status. Written with our own runtime, through the API server, as any
// controller would be (ports the shape of kubernetes pkg/controller/{deployment,replicaset}).
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../../../shared/models/object';
import { newControllerManagedBy } from '../../../runtime';
import { rawPatch } from '../../../runtime/client';
import type { Client } from '../../../runtime/client';
import { setControllerReference } from '../../../runtime';
import type { Manager } from '../../../runtime';
import { reconcileFunc, type Request } from '../../../runtime';
import { isNotFound } from '../../../runtime';

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const HASH_LABEL = 'pod-template-hash';

interface Workload {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: { metadata?: { labels?: Record<string, string> }; spec?: unknown };
}

const specOf = (o: KubeObject): Workload => (o.spec ?? {}) as Workload;

function selectorString(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

function isReady(pod: KubeObject): boolean {
  const conds = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return conds?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function ownedBy(owner: KubeObject, obj: KubeObject): boolean {
  return obj.metadata.ownerReferences?.some((r) => r.controller && r.uid === owner.metadata.uid) ?? false;
}

async function getOrUndefined(
  client: Client,
  type: typeof RS | typeof DEPLOY,
  req: Request,
): Promise<KubeObject | undefined> {
  try {
    return await client.get(type, { namespace: req.namespace, name: req.name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Writes status only when it changed, so the controller does not wake itself up. */
async function patchStatusIfChanged(client: Client, obj: KubeObject, status: Record<string, number>): Promise<void> {
  const current = (obj.status ?? {}) as Record<string, unknown>;
  if (Object.entries(status).every(([k, v]) => current[k] === v)) return;
  await client.status().patch(obj, rawPatch('merge', { status }));
}

export function replicaSetReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    const rs = await getOrUndefined(client, RS, req);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const spec = specOf(rs);
    const want = spec.replicas ?? 1;
    const pods = (
      await client.list(POD, { namespace: req.namespace, labelSelector: selectorString(spec.selector?.matchLabels) })
    ).items.filter((p) => ownedBy(rs, p) && !p.metadata.deletionTimestamp);
    if (pods.length < want) {
      for (let i = pods.length; i < want; i++) {
        const pod: KubeObject = {
          ...POD,
          metadata: {
            generateName: `${req.name}-`,
            namespace: req.namespace,
            labels: { ...(spec.template?.metadata?.labels ?? {}) },
          },
          spec: structuredClone(spec.template?.spec ?? {}) as Record<string, unknown>,
        };
        setControllerReference(rs, pod);
        await client.create(pod);
      }
    } else if (pods.length > want) {
      // Like upstream, give up the pods least far along first.
      const victims = [...pods].sort((a, b) => Number(isReady(a)) - Number(isReady(b))).slice(0, pods.length - want);
      for (const p of victims)
        await client.delete(p).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    }
    const ready = pods.filter(isReady).length;
    await patchStatusIfChanged(client, rs, {
      replicas: Math.min(pods.length, Math.max(want, 0)),
      fullyLabeledReplicas: pods.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: rs.metadata.generation ?? 0,
    });
  });
}

/** A stable short hash of the pod template, as the Deployment controller names ReplicaSets. */
export function templateHash(template: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(template ?? {}))
    .digest('hex')
    .slice(0, 10);
}

export function deploymentReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    const d = await getOrUndefined(client, DEPLOY, req);
    if (!d || d.metadata.deletionTimestamp) return;
    const spec = specOf(d);
    const hash = templateHash(spec.template);
    const owned = (await client.list(RS, { namespace: req.namespace })).items.filter((rs) => ownedBy(d, rs));
    const name = `${req.name}-${hash}`;
    let current = owned.find((rs) => rs.metadata.name === name);
    const replicas = spec.replicas ?? 1;
    if (!current) {
      const labels = { ...(spec.template?.metadata?.labels ?? {}), [HASH_LABEL]: hash };
      const rs: KubeObject = {
        ...RS,
        metadata: { name, namespace: req.namespace, labels },
        spec: {
          replicas,
          selector: { matchLabels: { ...(spec.selector?.matchLabels ?? {}), [HASH_LABEL]: hash } },
          template: { metadata: { labels }, spec: structuredClone(spec.template?.spec ?? {}) },
        },
      };
      setControllerReference(d, rs);
      current = await client.create(rs);
    } else if (specOf(current).replicas !== replicas) {
      await client.patch(current, rawPatch('merge', { spec: { replicas } }));
    }
    // A recreate rollout: old templates scale to zero and go once the new one exists.
    for (const old of owned.filter((rs) => rs.metadata.name !== name)) {
      await client.delete(old).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    }
    const st = (current.status ?? {}) as Record<string, number | undefined>;
    await patchStatusIfChanged(client, d, {
      replicas: st.replicas ?? 0,
      updatedReplicas: st.replicas ?? 0,
      readyReplicas: st.readyReplicas ?? 0,
      availableReplicas: st.availableReplicas ?? 0,
      observedGeneration: d.metadata.generation ?? 0,
    });
  });
}

/** Registers both controllers with a manager (the sandbox's own "kube-controller-manager"). */
export async function addWorkloadControllers(mgr: Manager): Promise<void> {
  const client = mgr.getClient();
  await newControllerManagedBy(mgr)
    .named('sandbox-replicaset')
    .for('apps/v1/ReplicaSet')
    .owns('v1/Pod')
    .withOptions({ maxConcurrentReconciles: 2 })
    .complete(replicaSetReconciler(client));
  await newControllerManagedBy(mgr)
    .named('sandbox-deployment')
    .for('apps/v1/Deployment')
    .owns('apps/v1/ReplicaSet')
    .complete(deploymentReconciler(client));
}
