// Write → reconcile latency: a manager with one ConfigMap controller runs in this process against an API
// server (latency-servers.ts: the sandbox in this process, the sandbox in its own, kube-apiserver); the
// bench writes ConfigMaps at a steady rate over raw keep-alive HTTP and each sample is the time from a
// write being sent to the start of the first reconcile of that object. Each row runs without and with the
// dashboard Recorder as the manager's probe, wired as serveDashboard wires it (no browser connected). Writes
// of the first second warm the JIT and the caches and are not sampled. Beside the quantiles, what this
// process went through meanwhile: GC pauses (and how many slow samples one overlapped), event-loop delay
// and CPU per write — the evidence for where a tail comes from.
// Part of `npm run bench`; alone:
//   [KUBEBUILDER_ASSETS=...] npx tsx --expose-gc bench/reconcile-latency.ts [seconds] [server,...] [rate,...]
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { objectSourceOver, Recorder } from '../server/dashboard';
import { newControllerManagedBy, newManager } from '../server/runtime';
import { write } from './kube-http';
import { LATENCY_SERVERS, startLatencyServer, type LatencyServer, type LatencyServerName } from './latency-servers';
import { processRunQueueWaitMs, RunQueueWait } from './run-queue';
import { render } from './table';
import {
  latencyStats,
  latencyVerdict,
  TARGET_P99_MS,
  TARGET_RATE,
  type Interval,
  type LatencySample,
  type LatencyStats,
} from './latency-stats';

const WARM_UP_S = 1;

/** The row's figures (latency-stats.ts) and what the bench process went through meanwhile. */
export interface LatencyRow extends LatencyStats {
  server: LatencyServerName;
  rate: number;
  recorder: boolean;
  /** Sampled writes sent, and how many of them were reconciled before the run gave up waiting. */
  writes: number;
  reconciled: number;
  /** Sampled writes answered per second of the sampled window (below `rate`: the server fell behind). */
  answeredPerS: number;
  gcPauses: number;
  gcMaxMs: number;
  gcTotalMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** This process's user+system CPU per sampled write (with the sandbox in process, the server's too). */
  cpuUsPerWrite: number;
  /**
   * Time spent ready to run but waiting for a CPU, per second of the sampled window (ms/s): this process's
   * main thread, and the server's processes (all threads) when it runs apart.
   */
  cpuWaitMsPerS: number;
  serverCpuWaitMsPerS?: number;
  /** 1-minute load average of the machine at the start of the row. */
  load: number;
  /** For the sandbox at 100 writes/s: p99 ≤ 5 ms. */
  met?: boolean;
}

/** Controller names are unique per metrics registry; rows may repeat a server, rate and recorder. */
let rowSeq = 0;

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function once(server: LatencyServer, rate: number, seconds: number, withRecorder: boolean): Promise<LatencyRow> {
  const t = server.target;
  const ns = `lat-${rate}-${withRecorder ? 'rec' : 'plain'}-${Date.now()}`;
  await write(t, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  // Wired as serveDashboard wires it: trusted emits, object versions read from the manager's cache.
  // The source is read only once the manager below runs.
  const recorder = withRecorder
    ? new Recorder({ objectSource: objectSourceOver(() => mgr.getCache()), trustedEmits: true })
    : undefined;
  const mgr = newManager(server.config, recorder ? { probe: recorder } : {});
  // Per sample: how long the event-loop threads on the write's path waited for a CPU meanwhile.
  const benchWait = new RunQueueWait(process.pid);
  const serverWait =
    server.name === 'sandbox-own-process' && server.pids[0] ? new RunQueueWait(server.pids[0]) : undefined;
  const waitedNow = (): number => benchWait.now() + (serverWait?.now() ?? 0);
  const sent = new Map<string, { at: number; waited: number }>();
  const samples: LatencySample[] = [];
  let warm: (() => void) | undefined;
  await newControllerManagedBy(mgr)
    .named(`latency-${server.name}-${rate}-${withRecorder ? 'recorder' : 'plain'}-${++rowSeq}`)
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .complete({
      reconcile: async (_ctx, req) => {
        const at = performance.now();
        if (req.namespace !== ns) return {};
        if (req.name === 'warm-up') warm?.();
        const s = sent.get(req.name);
        if (s !== undefined) {
          samples.push({ sent: s.at, reconciled: at, waited: waitedNow() - s.waited });
          sent.delete(req.name);
        }
        return {};
      },
    });
  const ac = new AbortController();
  const running = mgr.start(ac.signal).catch(() => undefined);
  const gc: Interval[] = [];
  let sampling = false;
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (sampling) gc.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  // A coarse period: a 1 ms timer would itself wake this process a thousand times a second.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const waited = (): { bench: number; server: number } => ({
    bench: benchWait.now(),
    server: server.pids.reduce((sum, pid) => sum + processRunQueueWaitMs(pid), 0),
  });
  try {
    const warmed = new Promise<void>((r) => (warm = r));
    await write(t, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'warm-up' } });
    await warmed;
    const warmUp = Math.round(rate * WARM_UP_S);
    const total = warmUp + Math.round(rate * seconds);
    const tickMs = Math.max(1, Math.round(1000 / rate));
    // Counted rather than kept: an array of every write's promise would itself be heap the GC walks.
    let inFlight = 0;
    let answered = 0;
    let failed = 0;
    let firstError: unknown;
    let drained: (() => void) | undefined;
    let sampleStart = 0;
    let cpu0 = process.cpuUsage();
    let wait0 = waited();
    const load = loadavg()[0] ?? 0;
    gcObserver.observe({ entryTypes: ['gc'] });
    const began = performance.now();
    let i = 0;
    while (i < total) {
      // Catch up to the schedule so a late timer does not lower the rate.
      const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * rate) + 1);
      for (; i < due; i++) {
        const name = `cm-${i}`;
        if (i === warmUp) {
          sampling = true;
          sampleStart = performance.now();
          cpu0 = process.cpuUsage();
          wait0 = waited();
          loop.enable();
        }
        const sampled = i >= warmUp;
        if (sampled) sent.set(name, { at: performance.now(), waited: waitedNow() });
        inFlight++;
        write(t, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { i: '0' } }).then(
          () => {
            if (sampled) answered++;
            if (--inFlight === 0) drained?.();
          },
          (e: unknown) => {
            failed++;
            firstError ??= e;
            sent.delete(name);
            if (--inFlight === 0) drained?.();
          },
        );
      }
      await sleep(tickMs);
    }
    if (inFlight > 0) await new Promise<void>((r) => (drained = r));
    if (failed > 0) throw new Error(`${failed} writes failed, the first: ${errorText(firstError)}`);
    const answeredPerS = answered / ((performance.now() - sampleStart) / 1000);
    const until = performance.now() + 5000;
    while (sent.size > 0 && performance.now() < until) await sleep(20);
    sampling = false;
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const wait1 = waited();
    const windowS = (performance.now() - sampleStart) / 1000;
    const gcMs = gc.map((g) => g.end - g.start);
    const writesSampled = total - warmUp;
    const stats = latencyStats(samples, gc);
    const row: LatencyRow = {
      server: server.name,
      rate,
      recorder: withRecorder,
      writes: writesSampled,
      reconciled: samples.length,
      answeredPerS,
      ...stats,
      gcPauses: gc.length,
      gcMaxMs: Math.max(0, ...gcMs),
      gcTotalMs: gcMs.reduce((a, b) => a + b, 0),
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      loopDelayMaxMs: loop.max / 1e6,
      cpuUsPerWrite: (cpu.user + cpu.system) / writesSampled,
      cpuWaitMsPerS: (wait1.bench - wait0.bench) / windowS,
      ...(server.pids.length ? { serverCpuWaitMsPerS: (wait1.server - wait0.server) / windowS } : {}),
      load,
    };
    const met = latencyVerdict(server.name, rate, stats.p99);
    if (met !== undefined) row.met = met;
    return row;
  } finally {
    gcObserver.disconnect();
    loop.disable();
    ac.abort();
    await running;
    recorder?.close();
    benchWait.close();
    serverWait?.close();
    // Rows after this one start from the same store size (kube-apiserver stays up across rows).
    await write(t, 'DELETE', `/api/v1/namespaces/${ns}/configmaps`).catch(() => undefined);
  }
}

export interface LatencyOptions {
  seconds: number;
  servers?: readonly LatencyServerName[];
  rates?: readonly number[];
  env?: NodeJS.ProcessEnv;
  /** Why a server was not measured. */
  notes?: string[];
}

// V8's memory reducer wakes some 8-14 s after a full collection and, finding the process quiet, runs up to
// three shrinking collections 0.5 s apart (10-25 ms of pause and incremental steps each) and cuts the young
// generation, after which scavenges come several times a second instead of every few seconds. Left alone,
// the one the startup arms lands in whichever row runs 10-20 s into the process. A full collection and the
// reducer's wait before the first row put the startup's there; it still tends to fire in the row after a
// quiet teardown, the recorder's, second of each pair (3 scavenges in the plain row against 20-25 in the
// recorder's). Settling before every row instead was tried and dropped: every row then started from an idle
// spell and ran two to three times the CPU per write (1,000-1,800 µs against ~400), and the reducer still
// fell inside some rows (bench/RESULTS.md). A smoke run (rows of a second or two) skips the wait.
const REDUCER_SETTLE_MS = 10_000;

async function settleHeap(wait: boolean): Promise<void> {
  if (typeof globalThis.gc !== 'function') return;
  globalThis.gc();
  if (wait) await sleep(REDUCER_SETTLE_MS);
}

/** Each server, each rate, without and with the recorder; `seconds` of sampled writes per row. */
export async function benchReconcileLatency(o: LatencyOptions): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  await settleHeap(o.seconds >= 5);
  for (const name of o.servers ?? LATENCY_SERVERS) {
    let server: LatencyServer;
    try {
      server = await startLatencyServer(name, o.env ?? process.env);
    } catch (e) {
      o.notes?.push((e as Error).message.split('\n')[0] ?? String(e));
      continue;
    }
    try {
      for (const rate of o.rates ?? [100, 1000])
        for (const withRecorder of [false, true]) {
          try {
            await settleHeap(o.seconds >= 5);
            rows.push(await once(server, rate, o.seconds, withRecorder));
          } catch (e) {
            o.notes?.push(
              `${name} at ${rate} writes/s ${withRecorder ? 'with' : 'without'} the recorder: ${errorText(e)}`,
            );
          }
        }
    } finally {
      await server.stop();
    }
  }
  return rows;
}

const f = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export function latencyLines(rows: LatencyRow[], seconds: number): string[] {
  const header = [
    'server',
    'writes/s',
    'recorder',
    'samples',
    'p50 ms',
    'p99 ms',
    'max ms',
    'p99 less CPU wait',
    `target p99 ≤ ${TARGET_P99_MS} ms`,
    `> ${TARGET_P99_MS} ms`,
    'of those in a GC',
    'GC pauses (max ms)',
    'loop delay p99/max ms',
    'CPU µs/write',
    'CPU wait ms/s (server)',
    'answered/s',
    'load',
  ];
  const body = rows.map((r) => [
    r.server,
    String(r.rate),
    r.recorder ? 'yes' : 'no',
    `${r.reconciled}/${r.writes}`,
    f(r.p50),
    f(r.p99),
    f(r.max),
    f(r.p99LessWait),
    r.met === undefined ? '' : r.met ? 'met' : 'NOT MET',
    String(r.slow),
    String(r.slowDuringGc),
    `${r.gcPauses} (${f(r.gcMaxMs, 1)})`,
    `${f(r.loopDelayP99Ms, 1)}/${f(r.loopDelayMaxMs, 1)}`,
    f(r.cpuUsPerWrite, 0),
    `${f(r.cpuWaitMsPerS, 0)}${r.serverCpuWaitMsPerS === undefined ? '' : ` (${f(r.serverCpuWaitMsPerS, 0)})`}`,
    f(r.answeredPerS, 0),
    f(r.load, 1),
  ]);
  return [
    `write → reconcile latency (write sent → the first reconcile of that object starts), ${seconds} s of writes per row after ${WARM_UP_S} s of warm-up;`,
    `target p99 ≤ ${TARGET_P99_MS} ms at ${TARGET_RATE} writes/s on the sandbox. The controller, the recorder and the writer run in the bench process;`,
    'sandbox-in-process serves from that process too (as `controller-scope run` hosts it), sandbox-own-process from a child (as `controller-scope sandbox`).',
    "GC, loop delay and CPU are the bench process's; CPU wait: time ready to run but waiting for a core that another process held;",
    '"p99 less CPU wait" subtracts from each sample the CPU wait of the event-loop threads on its path (bench, own-process sandbox): the tail an idle machine would show.',
    '',
    render(header, body, new Set([1, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16])),
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const [seconds = '10', servers, rates] = process.argv.slice(2);
  const notes: string[] = [];
  const rows = await benchReconcileLatency({
    seconds: Number(seconds),
    ...(servers ? { servers: servers.split(',') as LatencyServerName[] } : {}),
    ...(rates ? { rates: rates.split(',').map(Number) } : {}),
    notes,
  });
  console.log([...latencyLines(rows, Number(seconds)), ...notes.map((n) => `- ${n}`)].join('\n'));
  process.exit(0);
}
