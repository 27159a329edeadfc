// Claims are ConfigMaps labelled with the Widget they belong to; the controller marks a claim bound while
// its widget exists and deletes it once the widget is gone. The buggy version decides "gone" from its
// cache: a cache that has not seen a new widget yet makes it delete a claim that belongs to a live one. The
// correct version confirms with a live read before it deletes anything.
import {
  enqueueRequestsFromMapFunc,
  newControllerManagedBy,
  type Client,
  type KubeObject,
  type Manager,
  type Reader,
  type Request,
} from 'controller-scope';
import { getOrNone } from '../get-or-none';
import { ConfigMap, Widget, WIDGET_LABEL } from '../widget';

export function setupStaleParent(correct: boolean) {
  return async function setup(mgr: Manager): Promise<void> {
    const client = mgr.getClient();
    const live = mgr.getAPIReader();
    const claimsOf = enqueueRequestsFromMapFunc(async (_ctx, w) => {
      const claims = await client.list(ConfigMap, {
        namespace: w.metadata.namespace,
        labelSelector: `${WIDGET_LABEL}=${w.metadata.name ?? ''}`,
      });
      return claims.items.map((c) => ({ namespace: c.metadata.namespace ?? '', name: c.metadata.name ?? '' }));
    });
    await newControllerManagedBy(mgr)
      .named(correct ? 'stale-parent' : 'stale-parent-buggy')
      .for(ConfigMap)
      .watches(Widget, claimsOf)
      .complete({ reconcile: (_ctx, req) => reconcile(client, live, req, correct) });
  };
}

async function reconcile(client: Client, live: Reader, req: Request, correct: boolean): Promise<void> {
  const claim = await getOrNone<KubeObject & { data?: Record<string, string> }>(client, ConfigMap, req);
  const owner = claim?.metadata.labels?.[WIDGET_LABEL];
  if (!claim || !owner || claim.metadata.deletionTimestamp) return;
  const key = { namespace: req.namespace, name: owner };
  let widget = await getOrNone(client, Widget, key);
  // The cache may lag behind the cluster: deleting is only safe once the API server agrees.
  if (!widget && correct) widget = await getOrNone(live, Widget, key);
  if (!widget) {
    await client.delete(claim);
    return;
  }
  if (claim.data?.bound !== 'true') await client.update({ ...claim, data: { ...claim.data, bound: 'true' } });
}
