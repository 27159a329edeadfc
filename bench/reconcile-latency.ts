// Write → reconcile latency: a manager with one ConfigMap controller runs against the sandbox; a client
// creates ConfigMaps at a steady rate and each sample is the time from the write being sent to the start of
// the first reconcile of that object. Without and with the dashboard Recorder as the manager's probe (no
// browser connected). The sandbox serves from this same process, as `controller-scope` runs it, so its
// own work shares the event loop and counts in the figures.
// Part of `npm run bench`; alone: npx tsx bench/reconcile-latency.ts [seconds]
import { Agent, request } from 'node:http';
import { SandboxServer } from '../server/cluster/sandbox';
import { Recorder } from '../server/dashboard/recorder/recorder';
import { newControllerManagedBy, newManager, RestConfig } from '../server/runtime';

export interface LatencyRow {
  rate: number;
  recorder: boolean;
  writes: number;
  reconciled: number;
  p50: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function post(agent: Agent, url: string, path: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function once(url: string, rate: number, seconds: number, withRecorder: boolean): Promise<LatencyRow> {
  const ns = `lat-${rate}-${withRecorder ? 'rec' : 'plain'}-${Date.now()}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  await post(agent, url, '/api/v1/namespaces', { metadata: { name: ns } });
  const recorder = withRecorder ? new Recorder() : undefined;
  const mgr = newManager(RestConfig.forServer(url), recorder ? { probe: recorder } : {});
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  let warm: (() => void) | undefined;
  await newControllerManagedBy(mgr)
    .named(`latency-${rate}-${withRecorder ? 'recorder' : 'plain'}`)
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .complete({
      reconcile: async (_ctx, req) => {
        const at = performance.now();
        if (req.name === 'warm-up') warm?.();
        const t = sent.get(req.name);
        if (t !== undefined && req.namespace === ns) {
          latencies.push(at - t);
          sent.delete(req.name);
        }
        return {};
      },
    });
  const ac = new AbortController();
  const running = mgr.start(ac.signal).catch(() => undefined);
  try {
    const warmed = new Promise<void>((r) => (warm = r));
    await post(agent, url, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'warm-up' } });
    await warmed;
    // The first half second of writes warms the JIT and the caches and is not sampled.
    const warmUp = Math.round(rate / 2);
    const total = warmUp + rate * seconds;
    const perTick = Math.max(1, Math.round(rate / 100));
    const writes: Promise<void>[] = [];
    const began = performance.now();
    let i = 0;
    while (i < total) {
      // Catch up to the schedule (10 ms ticks) so a slow turn does not lower the rate.
      const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * rate) + perTick);
      for (; i < due; i++) {
        const name = `cm-${i}`;
        if (i >= warmUp) sent.set(name, performance.now());
        writes.push(post(agent, url, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { i: '0' } }));
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(writes);
    const until = performance.now() + 5000;
    while (sent.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      rate,
      recorder: withRecorder,
      writes: total - warmUp,
      reconciled: latencies.length,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
    };
  } finally {
    ac.abort();
    await running;
    recorder?.close();
    agent.destroy();
  }
}

/** Both rates, each without and with the recorder; `seconds` of writes per row. */
export async function benchReconcileLatency(seconds: number): Promise<LatencyRow[]> {
  const sandbox = new SandboxServer({ port: 0 });
  const { url } = await sandbox.start();
  const rows: LatencyRow[] = [];
  try {
    for (const rate of [100, 1000])
      for (const withRecorder of [false, true]) rows.push(await once(url, rate, seconds, withRecorder));
  } finally {
    await sandbox.stop();
  }
  return rows;
}

export function latencyLines(rows: LatencyRow[]): string[] {
  return [
    'write → reconcile latency on the sandbox (write sent → first reconcile of that object starts), target p99 ≤ 5 ms at 100 writes/s:',
    ...rows.map(
      (r) =>
        `  ${String(r.rate).padStart(4)} writes/s ${r.recorder ? 'with the recorder' : 'no recorder      '}  ` +
        `p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(2)} ms  (${r.reconciled}/${r.writes} reconciled)` +
        (r.rate === 100 ? `  ${r.p99 <= 5 ? 'met' : 'NOT MET'}` : ''),
    ),
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  console.log(latencyLines(await benchReconcileLatency(Number(process.argv[2] ?? 3))).join('\n'));
  process.exit(0);
}
