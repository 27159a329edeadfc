// Runs the embedded API server in its own process for workload 5, so neither client (ours in the bench
// process, client-go in the Go peer) shares a thread with the server. Seeds a namespace with configmaps,
// then updates them, and prints one JSON line: the URL, the resourceVersion the writes started after, and how
// many configmaps and watch events a client should see. Stops when stdin closes.
import { SandboxServer } from '../server/cluster/sandbox';

export interface SandboxSeed {
  url: string;
  namespace: string;
  /** Watches from here replay every write below. */
  fromRV: string;
  /** Configmaps a list of the namespace returns. */
  objects: number;
  /** Changes to configmaps in the namespace after fromRV (what a watch from fromRV delivers). */
  events: number;
  /** Time the server took to accept the writes in-process (ms). */
  seedMs: number;
}

async function main(): Promise<void> {
  const [count = '5000', updates = '15000'] = process.argv.slice(2);
  const namespace = 'bench';
  const server = new SandboxServer({ garbageCollector: false });
  const { url } = await server.start();
  server.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  // Let anything the namespace's creation sets off (built-in controllers) settle before the start point.
  await new Promise((r) => setTimeout(r, 200));
  const ref = { apiVersion: 'v1', kind: 'ConfigMap' };
  let events = 0;
  const unsubscribe = server.store.onChange((c) => {
    if (c.resource === 'configmaps' && c.object.metadata.namespace === namespace) events++;
  });
  const fromRV = server.store.resourceVersion;
  const start = performance.now();
  const n = Number(count);
  for (let i = 0; i < n; i++) {
    server.store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace, labels: { app: 'bench', shard: String(i % 7) } },
      data: { index: String(i), payload: 'x'.repeat(200) },
    });
  }
  for (let u = 0; u < Number(updates); u++) {
    const i = u % n;
    const cur = server.store.get(ref, `cm-${i}`, namespace);
    if (!cur) throw new Error(`cm-${i} vanished`);
    server.store.update({ ...cur, data: { index: String(i), payload: 'y'.repeat(200), round: String(u) } });
  }
  const seedMs = performance.now() - start;
  await new Promise((r) => setTimeout(r, 100));
  unsubscribe();
  const objects = server.store.list(ref, { namespace }).length;
  const seed: SandboxSeed = { url, namespace, fromRV, objects, events, seedMs };
  process.stdout.write(`${JSON.stringify(seed)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.stop().then(() => process.exit(0)));
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
