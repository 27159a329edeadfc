// The measured process of the scale run: a manager with ten controllers over one informer and the dashboard
// around it (serveDashboard: the real recorder, socket server and HTTP transport, as a user's main runs it),
// against bench/scale-server.ts. Forked by bench/scale.ts, which talks to it over IPC:
//   child → {type:'listening', url}    parent → {type:'start'}        (the parent's socket client is connected)
//   child → {type:'synced', ...}       parent → {type:'measure'}      (the server's steady events have begun)
//   child → {type:'result', ...}       after `seconds` of measurement
// With --no-dashboard it runs the manager alone and reports its heap once the cache has synced: the informer's
// own share, which the dashboard's per-object cost is measured against.
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import type { KubeObject } from '../shared/models/object';
import { serveDashboard } from '../server/dashboard';
import { applyHeapPolicy } from '../server/heap-policy';
import { newControllerManagedBy, newManager, newPredicateFuncs, RestConfig } from '../server/runtime';

export interface ScaleChildOptions {
  url: string;
  kind: 'ConfigMap' | 'Pod';
  objects: number;
  controllers: number;
  seconds: number;
  dashboard: boolean;
  /** Writes a heap snapshot here once the cache has synced (and the heap was collected). */
  heapSnapshot?: string;
}

export interface ScaleMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface ScaleChildResult {
  syncMs: number;
  /** The longest the event loop was held while syncing (ms). */
  syncLoopMaxMs: number;
  /** Events in the recorder's ring once synced (0 without the dashboard). */
  ringEvents: number;
  /** Before the manager started (modules loaded, controllers built, dashboard listening), after a full GC. */
  before: ScaleMemory;
  cached: number;
  /** After the sync, after a full GC. */
  synced: ScaleMemory;
  /** At the end of the steady phase, after a full GC. */
  end: ScaleMemory;
  /** Highest RSS sampled every 100 ms, and the kernel's high-water mark (VmHWM). */
  peakRss: number;
  peakRssKernel?: number;
  eldP99Ms: number;
  eldMaxMs: number;
  eldMeanMs: number;
  /** Collector pauses on the main thread while measuring: scavenges and mark-compacts, total and longest (ms). */
  gc: { minor: number; major: number; minorMs: number; majorMs: number; maxMs: number };
  reconciles: number;
  measuredMs: number;
  cpuMs: number;
  /** The V8 heap-growth flag the process ran with (the CLI's policy, or what SCALE_CHILD_FLAGS gave). */
  heapPolicy: string;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as ScaleChildOptions;
const gc = (globalThis as { gc?: () => void }).gc;
const send = (msg: object): void => void process.send?.(msg);
const nextMessage = (type: string): Promise<void> =>
  new Promise((resolve) => {
    const on = (m: { type?: string }): void => {
      if (m.type !== type) return;
      process.off('message', on);
      resolve();
    };
    process.on('message', on);
  });

function memory(): ScaleMemory {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
}

function kernelPeakRss(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  // Measured as the controller-scope CLI runs: with its heap-growth policy (a flag in SCALE_CHILD_FLAGS wins).
  const heapPolicy =
    applyHeapPolicy() ?? process.execArgv.find((a) => a.startsWith('--heap-growing-percent')) ?? "V8's default";
  let peakRss = 0;
  // SCALE_MEMORY_TRACE=1 prints the memory every 100 ms, to see where the peak falls.
  const trace = process.env['SCALE_MEMORY_TRACE'];
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    peakRss = Math.max(peakRss, rss);
    if (trace) {
      const m = process.memoryUsage();
      process.stderr.write(
        `mem ${(performance.now() / 1000).toFixed(1)}s rss ${(m.rss / 1e6).toFixed(0)} total ${(m.heapTotal / 1e6).toFixed(0)} used ${(m.heapUsed / 1e6).toFixed(0)} ext ${(m.external / 1e6).toFixed(0)}\n`,
      );
    }
  }, 100);
  const mgr = newManager(RestConfig.forServer(opts.url), {});
  const kind = { apiVersion: 'v1', kind: opts.kind };
  const client = mgr.getClient();
  let reconciles = 0;
  let ringEvents = (): number => 0;
  // Ten controllers of one kind, as ten operators sharing a cache would: each owns two of the twenty namespaces,
  // so every event reaches all ten predicates and one reconcile, which reads the object from the cache.
  for (let k = 0; k < opts.controllers; k++) {
    const mine = new Set([`team-${k}`, `team-${k + opts.controllers}`]);
    await newControllerManagedBy(mgr)
      .named(`scale-${k}`)
      .for(kind)
      .withEventFilter(newPredicateFuncs((o: KubeObject) => mine.has(o.metadata.namespace ?? ''), 'MyNamespaces'))
      .complete({
        reconcile: async (_ctx, req) => {
          await client.get(kind, { namespace: req.namespace, name: req.name });
          reconciles++;
          return {};
        },
      });
  }
  if (opts.dashboard) {
    const dash = await serveDashboard(mgr, { bindAddress: '127.0.0.1:0', log: () => {} });
    ringEvents = () => dash.recorder.ringBounds().size;
    send({ type: 'listening', url: dash.url });
    await nextMessage('start');
  }
  const before = memory();
  // The sync's longest hold of the event loop: while it lasts no socket is served (ping, HTTP, the stream).
  const syncEld = monitorEventLoopDelay({ resolution: 10 });
  syncEld.enable();
  const ac = new AbortController();
  const running = mgr.start(ac.signal);
  const began = performance.now();
  for (;;) {
    const n = mgr.getCache().indexerFor(`v1/${opts.kind}`)?.listKeys().length ?? 0;
    if (n >= opts.objects) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Let the controllers work off the initial adds before the heap is read.
  while (reconciles < opts.objects) await new Promise((r) => setTimeout(r, 50));
  const syncMs = performance.now() - began;
  syncEld.disable();
  const syncLoopMaxMs = syncEld.max / 1e6;
  const synced = memory();
  const ringAtSync = ringEvents();
  if (opts.heapSnapshot) writeHeapSnapshot(opts.heapSnapshot);
  send({ type: 'synced', syncMs, syncLoopMaxMs, before, synced, peakRss: Math.max(peakRss, kernelPeakRss() ?? 0) });
  let result: ScaleChildResult | undefined;
  if (opts.dashboard) {
    await nextMessage('measure');
    const eld = monitorEventLoopDelay({ resolution: 10 });
    eld.enable();
    const gcs = { minor: 0, major: 0, minorMs: 0, majorMs: 0, maxMs: 0 };
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
        const major = e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
        if (major) {
          gcs.major++;
          gcs.majorMs += e.duration;
        } else {
          gcs.minor++;
          gcs.minorMs += e.duration;
        }
        gcs.maxMs = Math.max(gcs.maxMs, e.duration);
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    const from = reconciles;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    eld.disable();
    obs.disconnect();
    const measuredMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const done = reconciles - from;
    const end = memory();
    result = {
      syncMs,
      syncLoopMaxMs,
      ringEvents: ringAtSync,
      before,
      cached: mgr.getCache().indexerFor(`v1/${opts.kind}`)?.listKeys().length ?? 0,
      synced,
      end,
      peakRss: Math.max(peakRss, end.rss),
      ...(kernelPeakRss() !== undefined ? { peakRssKernel: kernelPeakRss() } : {}),
      eldP99Ms: eld.percentile(99) / 1e6,
      eldMaxMs: eld.max / 1e6,
      eldMeanMs: eld.mean / 1e6,
      gc: gcs,
      reconciles: done,
      measuredMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      heapPolicy,
    };
  }
  clearInterval(sampler);
  send({ type: 'result', result });
  ac.abort();
  await running.catch(() => undefined);
  process.exit(0);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
