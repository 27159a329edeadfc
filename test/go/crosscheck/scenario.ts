// The cross-check scenario through our TypeScript runtime, for `controller-scope run`: the same three
// controllers as main.go here, line for line in behaviour (see the comment there), so the dashboard's view of
// both runs can be compared fact by fact (test/go/crosscheck.test.ts).
import {
  isNotFound,
  newControllerManagedBy,
  newPredicateFuncs,
  setControllerReference,
  type KubeObject,
  type Manager,
  type Reconciler,
} from 'controller-scope';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const Secret = { apiVersion: 'v1', kind: 'Secret' } as const;

/** What flaky asks for on its first success, as main.go's RequeueAfter. */
export const REQUEUE_AFTER_MS = 30;

interface ConfigMapObject extends KubeObject {
  data?: Record<string, string>;
}

const intOf = (cm: ConfigMapObject, key: string): number => Number.parseInt(cm.data?.[key] ?? '', 10) || 0;

export default async function setup(mgr: Manager): Promise<void> {
  const c = mgr.getClient();
  const getConfigMap = async (req: { namespace: string; name: string }) => {
    try {
      return await c.get<ConfigMapObject>(ConfigMap, req);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  const attempts = new Map<string, number>();
  const flaky: Reconciler = {
    async reconcile(_ctx, req) {
      const cm = await getConfigMap(req);
      if (!cm) return {};
      const key = `${req.namespace}/${req.name}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      const fails = intOf(cm, 'fails');
      if (n <= fails) throw new Error(`attempt ${n} of ${fails} fails`);
      return n === fails + 1 ? { requeueAfterMs: REQUEUE_AFTER_MS } : {};
    },
  };

  const hot: Reconciler = {
    async reconcile(_ctx, req) {
      const cm = await getConfigMap(req);
      if (!cm) return {};
      const n = intOf(cm, 'n');
      if (n >= intOf(cm, 'limit')) return {};
      await c.update({ ...cm, data: { ...cm.data, n: String(n + 1) } });
      return {};
    },
  };

  const owner: Reconciler = {
    async reconcile(_ctx, req) {
      const cm = await getConfigMap(req);
      if (!cm) return {};
      const name = `${req.name}-secret`;
      try {
        await c.get(Secret, { namespace: req.namespace, name });
        return {};
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const s: KubeObject = { ...Secret, metadata: { namespace: req.namespace, name } };
      setControllerReference(cm, s);
      await c.create(s);
      return {};
    },
  };

  for (const [name, r, owns] of [
    ['flaky', flaky, false],
    ['hot', hot, false],
    ['owner', owner, true],
  ] as const) {
    const b = newControllerManagedBy(mgr)
      .named(name)
      .for(ConfigMap)
      .withEventFilter(newPredicateFuncs((o) => (o.metadata.name ?? '').startsWith(`${name}-`)));
    if (owns) b.owns(Secret);
    await b.complete(r);
  }
}
