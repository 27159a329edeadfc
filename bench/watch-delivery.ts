// Measures write → watch-event latency: a client creates (or updates) ConfigMaps one after another and
// times until its own watch delivers each change, on the sandbox and, when the envtest binaries are
// present, on kube-apiserver + etcd. The latency is what an operator's informer lags behind its own
// writes; a large one shows up as conflicts and "already exists" on the next reconcile.
// Part of `npm run bench` (its lines go under the tables); alone: [KUBEBUILDER_ASSETS=...] npx tsx bench/watch-delivery.ts [N]
import type { IncomingMessage } from 'node:http';
import { ControlPlane } from '../server/cluster/envtest';
import { SandboxServer } from '../server/cluster/sandbox';
import { readJson as json, send, type Target } from './kube-http';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface Sample {
  /** Request sent → the watch event arrived (ms). */
  event: number;
  /** Request sent → the answer was read (ms). */
  answer: number;
  eventFirst: boolean;
}

async function measure(t: Target, n: number): Promise<{ create: Sample[]; update: Sample[] }> {
  const ns = `latency-${Date.now()}`;
  await json(await send(t, 'POST', '/api/v1/namespaces', { metadata: { name: ns } }));
  const list = await json(await send(t, 'GET', `/api/v1/namespaces/${ns}/configmaps`));
  const rv = (list.metadata as { resourceVersion: string }).resourceVersion;
  const watch = await send(t, 'GET', `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`);
  const waiting = new Map<string, (at: number) => void>();
  const arrived = new Map<string, number>();
  let buf = '';
  watch.on('data', (c: Buffer) => {
    const at = performance.now();
    buf += c.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      const ev = JSON.parse(line) as { type: string; object: { metadata: { resourceVersion: string } } };
      const key = `${ev.type}/${ev.object.metadata.resourceVersion}`;
      const w = waiting.get(key);
      if (w) w(at);
      else arrived.set(key, at);
      waiting.delete(key);
    }
  });
  const timed = async (type: string, write: () => Promise<IncomingMessage>): Promise<Sample> => {
    const sent = performance.now();
    const res = await write();
    const obj = await json(res);
    const rv = (obj.metadata as { resourceVersion: string }).resourceVersion;
    const answered = performance.now();
    const key = `${type}/${rv}`;
    const early = arrived.get(key);
    const at = early ?? (await new Promise<number>((resolve) => waiting.set(key, resolve)));
    return { event: at - sent, answer: answered - sent, eventFirst: at < answered };
  };
  const create: Sample[] = [];
  const update: Sample[] = [];
  for (let i = 0; i < n; i++) {
    create.push(
      await timed('ADDED', () =>
        send(t, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { i: '0' } }),
      ),
    );
    update.push(
      await timed('MODIFIED', () =>
        send(t, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/cm-${i}`, { data: { i: '1' } }),
      ),
    );
  }
  watch.destroy();
  return { create, update };
}

/** Measures both servers (kube-apiserver only when KUBEBUILDER_ASSETS is set); one line per server and write. */
export async function benchWatchDelivery(n: number, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const rows: string[] = [
    `watch delivery: write sent → own watch event / answer, ${n} ConfigMaps (create, then merge patch each)`,
  ];
  const report = (name: string, r: { create: Sample[]; update: Sample[] }): void => {
    for (const [what, samples] of Object.entries(r)) {
      const ev = samples.map((x) => x.event);
      const first = samples.filter((x) => x.eventFirst).length;
      rows.push(
        `  ${name.padEnd(15)} ${what.padEnd(7)} event p50 ${pct(ev, 50).toFixed(2)} ms  p99 ${pct(ev, 99).toFixed(2)} ms` +
          `  answer p50 ${pct(
            samples.map((x) => x.answer),
            50,
          ).toFixed(2)} ms  event before answer ${((100 * first) / samples.length).toFixed(0)}%`,
      );
    }
  };
  const sandbox = new SandboxServer({ port: 0 });
  const { url } = await sandbox.start();
  try {
    report('sandbox', await measure({ name: 'sandbox', url }, n));
  } finally {
    await sandbox.stop();
  }
  if (env.KUBEBUILDER_ASSETS) {
    const plane = new ControlPlane({ env });
    const info = await plane.start();
    try {
      report('kube-apiserver', await measure({ name: 'envtest', url: info.apiServerUrl, tls: info.tls }, n));
    } finally {
      await plane.stop();
    }
  } else rows.push('  kube-apiserver not measured: set KUBEBUILDER_ASSETS (scripts/setup-envtest.sh)');
  return rows;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  console.log((await benchWatchDelivery(Number(process.argv[2] ?? 200))).join('\n'));
}
