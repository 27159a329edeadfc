// kube-controller-manager's ServiceAccount controller (kubernetes pkg/controller/serviceaccount): every
// active namespace has a `default` ServiceAccount, recreated when deleted.
import type { KubeObject } from '../../../../shared/models/object';
import { newControllerManagedBy } from '../../../runtime';
import type { Client } from '../../../runtime/client';
import { enqueueRequestsFromMapFunc } from '../../../runtime';
import type { Manager } from '../../../runtime';
import { reconcileFunc } from '../../../runtime';
import { isAlreadyExists, isNotFound } from '../../../runtime';

const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace' } as const;
const SERVICE_ACCOUNT = { apiVersion: 'v1', kind: 'ServiceAccount' } as const;

export function serviceAccountReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    let ns: KubeObject;
    try {
      ns = await client.get<KubeObject>(NAMESPACE, { name: req.name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
    try {
      await client.get(SERVICE_ACCOUNT, { namespace: req.name, name: 'default' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await client
        .create<KubeObject>({ ...SERVICE_ACCOUNT, metadata: { name: 'default', namespace: req.name } })
        .catch((e: unknown) => (isAlreadyExists(e) || isNotFound(e) ? undefined : Promise.reject(e)));
    }
  });
}

export async function addServiceAccountController(mgr: Manager): Promise<void> {
  await newControllerManagedBy(mgr)
    .named('sandbox-serviceaccount')
    .for('v1/Namespace')
    .watches(
      'v1/ServiceAccount',
      enqueueRequestsFromMapFunc((_ctx, sa) =>
        sa.metadata.name === 'default' ? [{ namespace: '', name: sa.metadata.namespace ?? '' }] : [],
      ),
    )
    .complete(serviceAccountReconciler(mgr.getClient()));
}
