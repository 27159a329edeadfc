// A Widget gets one ConfigMap child, named by generateName, and the widget's status records which one.
// The buggy version trusts status.child alone: a crash between creating the child and recording it, or a
// failed status write, leaves a widget without a record, and the next pass creates a second child. The
// correct version first looks for a child it made already (with a live list: the cache may not have it yet)
// and adopts it.
import {
  isNotFound,
  newControllerManagedBy,
  setControllerReference,
  type Client,
  type KubeObject,
  type Manager,
  type Reader,
  type Request,
} from 'controller-scope';
import { ConfigMap, sizeOf, Widget, WIDGET_LABEL, type WidgetObject } from '../widget';

export function setupGenerateName(correct: boolean) {
  return async function setup(mgr: Manager): Promise<void> {
    const client = mgr.getClient();
    const live = mgr.getAPIReader();
    await newControllerManagedBy(mgr)
      .named(correct ? 'generate-name' : 'generate-name-buggy')
      .for(Widget)
      .owns(ConfigMap)
      .complete({ reconcile: (_ctx, req) => reconcile(client, live, req, correct) });
  };
}

async function reconcile(client: Client, live: Reader, req: Request, correct: boolean): Promise<void> {
  let w: WidgetObject;
  try {
    w = await client.get<WidgetObject>(Widget, req);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  if (w.metadata.deletionTimestamp) return;
  let child = w.status?.child;
  if (!child && correct) child = (await existingChild(live, w))?.metadata.name;
  if (!child) {
    const cm: KubeObject = {
      ...ConfigMap,
      metadata: { generateName: `${req.name}-`, namespace: req.namespace, labels: { [WIDGET_LABEL]: req.name } },
      data: { size: sizeOf(w) },
    };
    setControllerReference(w, cm);
    child = (await client.create(cm)).metadata.name;
  } else await syncChild(client, req.namespace, child, sizeOf(w));
  if (w.status?.child !== child || w.status?.observedGeneration !== w.metadata.generation) {
    await client.status().update({ ...w, status: { ...w.status, child, observedGeneration: w.metadata.generation } });
  }
}

async function existingChild(live: Reader, w: WidgetObject): Promise<KubeObject | undefined> {
  const children = await live.list(ConfigMap, {
    namespace: w.metadata.namespace,
    labelSelector: `${WIDGET_LABEL}=${w.metadata.name ?? ''}`,
  });
  return children.items.find((c) => c.metadata.ownerReferences?.some((r) => r.uid === w.metadata.uid));
}

async function syncChild(client: Client, namespace: string, name: string, size: string): Promise<void> {
  const cm = await client.get(ConfigMap, { namespace, name });
  if ((cm as { data?: Record<string, string> }).data?.size !== size) await client.update({ ...cm, data: { size } });
}
