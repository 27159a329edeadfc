// Each Widget holds a finalizer while its ConfigMap `<name>-size` exists; deleting the widget deletes the
// child first. The buggy version removes its finalizer only on the pass that deletes the child: when the
// child is already gone (a crash right after the delete, a delete whose answer was lost), the finalizer
// stays for ever and the widget never goes. The correct version removes it whether or not a child is left.
import {
  addFinalizer,
  containsFinalizer,
  newControllerManagedBy,
  removeFinalizer,
  setControllerReference,
  type Client,
  type KubeObject,
  type Manager,
  type Request,
} from 'controller-scope';
import { getOrNone } from '../get-or-none';
import { ConfigMap, GROUP, sizeOf, Widget, type WidgetObject } from '../widget';

export const FINALIZER = `${GROUP}/cleanup`;
type Data = KubeObject & { data?: Record<string, string> };

export function setupFinalizer(correct: boolean) {
  return async function setup(mgr: Manager): Promise<void> {
    const client = mgr.getClient();
    await newControllerManagedBy(mgr)
      .named(correct ? 'finalizer' : 'finalizer-buggy')
      .for(Widget)
      .owns(ConfigMap)
      .complete({ reconcile: (_ctx, req) => reconcile(client, req, correct) });
  };
}

const childKey = (req: Request) => ({ namespace: req.namespace, name: `${req.name}-size` });

async function reconcile(client: Client, req: Request, correct: boolean): Promise<void> {
  const w = await getOrNone<WidgetObject>(client, Widget, req);
  if (!w) return;
  const child = await getOrNone<Data>(client, ConfigMap, childKey(req));
  if (w.metadata.deletionTimestamp) {
    if (!containsFinalizer(w, FINALIZER)) return;
    if (child) await client.delete(child);
    else if (!correct) return;
    removeFinalizer(w, FINALIZER);
    await client.update(w);
    return;
  }
  if (addFinalizer(w, FINALIZER)) {
    await client.update(w);
    return;
  }
  if (!child) {
    const cm: Data = { ...ConfigMap, metadata: childKey(req), data: { size: sizeOf(w) } };
    setControllerReference(w, cm);
    await client.create(cm);
  } else if (child.data?.size !== sizeOf(w)) await client.update({ ...child, data: { size: sizeOf(w) } });
}
