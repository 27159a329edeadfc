// A Widget's spec.phase goes '' → Pending → Ready. The controller prepares a ConfigMap `<name>-prep` and
// marks it ready once the widget is Ready. The buggy version prepares only on seeing Pending, and on Ready
// only finishes what Pending started: if it never observes Pending (a coalesced watch, a relist) it waits
// for ever. The correct version acts on the state it sees: Ready without preparation prepares first.
import {
  newControllerManagedBy,
  setControllerReference,
  type Client,
  type KubeObject,
  type Manager,
  type Request,
} from 'controller-scope';
import { getOrNone } from '../get-or-none';
import { ConfigMap, Widget, type WidgetObject } from '../widget';

type Data = KubeObject & { data?: Record<string, string> };

export function setupIntermediate(correct: boolean) {
  return async function setup(mgr: Manager): Promise<void> {
    const client = mgr.getClient();
    await newControllerManagedBy(mgr)
      .named(correct ? 'intermediate' : 'intermediate-buggy')
      .for(Widget)
      .owns(ConfigMap)
      .complete({ reconcile: (_ctx, req) => reconcile(client, req, correct) });
  };
}

async function reconcile(client: Client, req: Request, correct: boolean): Promise<void> {
  const w = await getOrNone<WidgetObject>(client, Widget, req);
  if (!w || w.metadata.deletionTimestamp) return;
  const phase = w.spec?.phase ?? '';
  const key = { namespace: req.namespace, name: `${req.name}-prep` };
  const prep = await getOrNone<Data>(client, ConfigMap, key);
  const mayPrepare = phase === 'Pending' || (correct && phase === 'Ready');
  if (!prep && mayPrepare) {
    const cm: Data = { ...ConfigMap, metadata: key, data: { ready: 'false' } };
    setControllerReference(w, cm);
    await client.create(cm);
    return;
  }
  if (prep && phase === 'Ready' && prep.data?.ready !== 'true') {
    await client.update({ ...prep, data: { ready: 'true' } });
  }
}
