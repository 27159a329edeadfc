// The TypeScript half of the trace test (test/otel/traces.test.ts), for `controller-scope run`: when the
// ConfigMap "ping" appears it creates "pong" (which wakes the Go controller in go-peer/), and it reconciles
// "ack" (the Go controller's write) without writing, so its trace links back across the processes.
import { isAlreadyExists, newControllerManagedBy, newPredicateFuncs, type Manager } from 'controller-scope';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

export default async function setup(mgr: Manager): Promise<void> {
  const c = mgr.getClient();
  await newControllerManagedBy(mgr)
    .named('pinger')
    .for(ConfigMap)
    .withEventFilter(newPredicateFuncs((o) => o.metadata?.name === 'ping' || o.metadata?.name === 'ack'))
    .complete({
      async reconcile(_ctx, req) {
        if (req.name !== 'ping') return {};
        try {
          await c.create({ ...ConfigMap, metadata: { namespace: req.namespace, name: 'pong' }, data: { from: 'ts' } });
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
        return {};
      },
    });
}
