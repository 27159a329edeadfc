// The browser bench's workload, as a user's controller module (`controller-scope run bench/browser-load.ts`):
// a controller For ConfigMaps in namespace "load", and a writer that creates LOAD_OBJECTS ConfigMaps through
// the manager's client (the sandbox's HTTP API, as any client would) and then merge-patches them round-robin
// at LOAD_RATE updates/s. Every patch is one watch event the informer receives, indexes, hands to the
// controller's queue and reconciles: the probe events the dashboard streams. It prints what it did, one line a
// second, for the bench to read: "load: seeded N in T ms", "load: R updates/s (total U)".
import { newControllerManagedBy, rawPatch, type Manager, type ReconcileContext, type Request } from '../server/runtime';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const NAMESPACE = 'load';
/** Writes in flight at once: enough to keep the API server busy without queueing thousands of requests. */
const IN_FLIGHT = 32;

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}=${raw}: expected a whole number ≥ 0`);
  return n;
}

/** cm-000042: fixed width, so the keys sort as they are numbered. */
export const loadKey = (i: number, width: number): string => `cm-${String(i).padStart(width, '0')}`;

async function pool(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, worker));
}

export default async function setup(mgr: Manager): Promise<void> {
  const objects = envInt('LOAD_OBJECTS', 10_000);
  const rate = envInt('LOAD_RATE', 5_000);
  const width = String(Math.max(1, objects - 1)).length;
  const client = mgr.getClient();
  let reconciles = 0;
  await newControllerManagedBy(mgr)
    .named('load')
    .for(ConfigMap)
    .withOptions({ maxConcurrentReconciles: 4 })
    .complete({
      reconcile: (_ctx: ReconcileContext, req: Request) => {
        if (req.namespace === NAMESPACE) reconciles++;
        return Promise.resolve({});
      },
    });
  mgr.add({
    start: async (signal: AbortSignal) => {
      const began = performance.now();
      await client
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } })
        .catch(() => undefined);
      await pool(objects, async (i) => {
        if (signal.aborted) return;
        await client.create({
          ...ConfigMap,
          metadata: { name: loadKey(i, width), namespace: NAMESPACE, labels: { app: 'load', shard: String(i % 16) } },
          data: { n: '0', payload: 'x'.repeat(64) },
        });
      });
      console.log(`load: seeded ${objects} in ${(performance.now() - began).toFixed(0)} ms`);
      if (rate === 0 || objects === 0) return;
      let updates = 0;
      let lastUpdates = 0;
      let lastReconciles = 0;
      const report = setInterval(() => {
        console.log(`load: ${updates - lastUpdates} updates/s ${reconciles - lastReconciles} reconciles/s`);
        lastUpdates = updates;
        lastReconciles = reconciles;
      }, 1000);
      signal.addEventListener('abort', () => clearInterval(report), { once: true });
      // Paced per 10 ms slice: each slice starts its share of writes, never more than IN_FLIGHT waiting.
      let inFlight = 0;
      let seq = 0;
      const t0 = performance.now();
      while (!signal.aborted) {
        const due = Math.floor(((performance.now() - t0) / 1000) * rate);
        while (seq < due && inFlight < IN_FLIGHT) {
          const i = seq++ % objects;
          inFlight++;
          void client
            .patch(
              { ...ConfigMap, metadata: { name: loadKey(i, width), namespace: NAMESPACE } },
              rawPatch('merge', { data: { n: String(seq) } }),
            )
            .then(
              () => void updates++,
              () => undefined,
            )
            .finally(() => void inFlight--);
        }
        // Writes behind schedule are dropped rather than owed: the rate printed is what the server sustained.
        if (due - seq > rate) seq = due;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  });
}
