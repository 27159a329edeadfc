// Each Widget gets a ConfigMap `<name>-size` holding its size. The buggy version logs a failed write and
// reports success: the change is lost, since nothing will enqueue the widget again. The correct version
// returns the error, so the key comes back after the rate limiter's delay.
import {
  newControllerManagedBy,
  setControllerReference,
  type Client,
  type KubeObject,
  type Manager,
  type ReconcileContext,
  type Request,
} from 'controller-scope';
import { getOrNone } from '../get-or-none';
import { ConfigMap, sizeOf, Widget, type WidgetObject } from '../widget';

type Data = KubeObject & { data?: Record<string, string> };

export function setupLostWrite(correct: boolean) {
  return async function setup(mgr: Manager): Promise<void> {
    const client = mgr.getClient();
    await newControllerManagedBy(mgr)
      .named(correct ? 'lost-write' : 'lost-write-buggy')
      .for(Widget)
      .owns(ConfigMap)
      .complete({ reconcile: (ctx, req) => reconcile(ctx, client, req, correct) });
  };
}

async function reconcile(ctx: ReconcileContext, client: Client, req: Request, correct: boolean): Promise<void> {
  const w = await getOrNone<WidgetObject>(client, Widget, req);
  if (!w || w.metadata.deletionTimestamp) return;
  try {
    await ensureChild(client, w);
  } catch (err) {
    if (correct) throw err;
    ctx.log.error(err, 'could not write the child; moving on');
    return;
  }
  if (w.status?.observedGeneration !== w.metadata.generation) {
    await client.status().update({ ...w, status: { ...w.status, observedGeneration: w.metadata.generation } });
  }
}

async function ensureChild(client: Client, w: WidgetObject): Promise<void> {
  const key = { namespace: w.metadata.namespace ?? '', name: `${w.metadata.name ?? ''}-size` };
  const child = await getOrNone<Data>(client, ConfigMap, key);
  if (!child) {
    const cm: Data = { ...ConfigMap, metadata: { ...key }, data: { size: sizeOf(w) } };
    setControllerReference(w, cm);
    await client.create(cm);
  } else if (child.data?.size !== sizeOf(w)) {
    await client.update({ ...child, data: { size: sizeOf(w) } });
  }
}
