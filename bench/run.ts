// `npm run bench`: runs our runtime blocks and their client-go peers on the same workloads, one after the
// other (never concurrently, so they don't share the cores), and prints the figures side by side.
//   --quick       small shapes, one repetition: a smoke run
//   --no-go       skip the Go peers (no Go toolchain)
//   --no-sandbox  skip the HTTP workloads against the embedded API server (the watch-delivery lines, the recording size)
//   --no-browser  skip the dashboard in Chromium (frame rate and long tasks under load, first render, Indexer search)
//   --no-ingest   skip ingest from bytes (realistic Pods over HTTP, each peer in its own process)
//   --no-scale    skip the scale run (100,000 cached objects, the dashboard and one socket client; --quick: 5,000)
//   --no-envtest  skip the kube-apiserver rows instead of building kube-apiserver + etcd when they are missing
//   --only LIST   run only these parts, comma-separated: inproc (workqueue, rate-limited queue, informer and
//                 their client-go peers), ingest, latency, probe, scale, browser, recording (bytes per event of a
//                 recording on the hot-loop workload), otel (trace export per reconcile, to Jaeger when built)
//                 (e.g. --only inproc or --only ingest,latency)
// Figures are also written to bench/results/latest.json; a run with --only keeps the figures of the parts it
// did not run from the file (its "measured" field dates each part).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensureControlPlaneAssets } from './control-plane-assets';
import { BROWSER_FULL, BROWSER_QUICK, benchBrowser, type BrowserFigures } from './browser';
import { browserLines, browserTargets } from './browser-targets';
import { benchGoBridge } from './go-bridge';
import { buildGoPeer, goVersion, runGoPeer } from './go-peer';
import { canMeasureHeap, type Figure } from './harness';
import { benchInformer } from './informer';
import { inProcessTargets } from './inproc-targets';
import { benchIngest, INGEST_FULL, INGEST_QUICK, ingestTables, type IngestShapeResult } from './ingest';
import {
  benchProbeCost,
  recorderTargets,
  recorderTargetTable,
  type RecorderBreakdown,
  type RecorderCost,
} from './probe-cost';
import { benchOtelCost } from './otel-cost';
import { benchReconcileLatency, latencyLines, type LatencyRow } from './reconcile-latency';
import { benchRecordingBytesApart, recordingLines, type RecordingBytesResult } from './recording-bytes';
import { benchSandbox, startSandboxHost, type SandboxHost } from './sandbox';
import { benchScale, SCALE_FULL, SCALE_QUICK, scaleLines, type ScaleResult } from './scale';
import { benchWatchDelivery } from './watch-delivery';
import { FULL, QUICK } from './shapes';
import { inProcessTargetTable, oursOnly, sideBySide } from './table';
import { benchQueue, benchRateLimited } from './workqueue';

const argv = process.argv.slice(2);
const args = new Set(argv);
const onlyArg = argv[argv.indexOf('--only') + 1];
const onlyParts = argv.includes('--only') && onlyArg ? new Set(onlyArg.split(',')) : undefined;
const part = (name: string): boolean => !onlyParts || onlyParts.has(name);
const quick = args.has('--quick');
const withGo = !args.has('--no-go') && (part('ingest') || part('inproc'));
const withSandbox = !args.has('--no-sandbox') && !onlyParts;
const withBrowser = !args.has('--no-browser') && part('browser');
const withIngest = !args.has('--no-ingest') && part('ingest');
const withLatency = !args.has('--no-sandbox') && part('latency');
const withProbe = part('probe');
const withOtel = part('otel');
const withRecording = !args.has('--no-sandbox') && part('recording');
const withScale = !args.has('--no-scale') && part('scale');
const inProcess = part('inproc');
const ingestShape = quick ? INGEST_QUICK : INGEST_FULL;
const shape = quick ? QUICK : FULL;
/** 10 s at 100 writes/s is 1,000 samples, so the p99 is not the third-slowest of 300. */
const latencySeconds = quick ? 1 : 10;

const t0 = performance.now();
const log = (msg: string): void =>
  void process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);

/** A failing Go peer becomes a note under the table instead of ending the run. */
async function tryGo(notes: string[], fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    notes.push(`Go peer failed: ${(e as Error).message.split('\n')[0]}`);
  }
}

async function main(): Promise<void> {
  const began = performance.now();
  if (!canMeasureHeap) log('no global gc(): run with node --expose-gc (npm run bench does) for heap figures');
  const ours: Figure[] = [];
  const peers: Figure[] = [];
  const peersOneCore: Figure[] = [];
  const onlyOurs: Figure[] = [];
  const notes: string[] = [];

  let goBin: string | undefined;
  if (withGo) {
    log('building Go peers (bench/go, client-go)…');
    try {
      goBin = await buildGoPeer();
    } catch (e) {
      notes.push(`Go peers not run: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const goFlags = quick ? ['-quick'] : [];

  if (inProcess) await inProcessBlocks();
  async function inProcessBlocks(): Promise<void> {
    log('workqueue…');
    ours.push(await benchQueue(shape));
    log('rate-limited queue…');
    ours.push(await benchRateLimited(shape));
    log('informer…');
    ours.push(await benchInformer(shape));
    if (goBin) {
      const bin = goBin;
      log('client-go: workqueue, rate-limited queue, informer…');
      const only = [...goFlags, '-only', 'queue,ratelimited,informer'];
      await tryGo(notes, async () => {
        peers.push(...(await runGoPeer(bin, only)));
        log('client-go with GOMAXPROCS=1…');
        peersOneCore.push(...(await runGoPeer(bin, only, { oneCore: true })));
      });
    }

    if (goBin) {
      log('Go bridge overhead on a controller-runtime controller…');
      await tryGo(notes, async () => void onlyOurs.push(...(await benchGoBridge(quick ? 2000 : 20000))));
    }
  }

  let recorderCosts: RecorderCost[] = [];
  let recorderBreakdown: RecorderBreakdown[] = [];
  if (withProbe) {
    log('probe cost…');
    const probe = await benchProbeCost(shape);
    onlyOurs.push(...probe.figures);
    recorderCosts = probe.costs;
    recorderBreakdown = probe.breakdown;
  }

  let traceExport: Figure[] = [];
  if (withOtel) {
    log('trace export cost…');
    traceExport = await benchOtelCost(quick ? 2_000 : 20_000, shape.reps, notes);
  }

  let recording: RecordingBytesResult | undefined;
  if (withRecording) {
    log('recording bytes per event on the hot loop…');
    try {
      recording = await benchRecordingBytesApart(quick ? 10_000 : 30_000);
    } catch (e) {
      notes.push(`recording size not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  let ingest: IngestShapeResult[] = [];
  if (withIngest) ingest = await benchIngest(ingestShape, goBin, log, notes);

  if ((withLatency || withSandbox) && !process.env['KUBEBUILDER_ASSETS']) {
    const assets = await ensureControlPlaneAssets(!args.has('--no-envtest'), log);
    if ('why' in assets) notes.push(assets.why);
  }

  let latency: LatencyRow[] = [];
  if (withLatency) {
    log('write → reconcile latency: the sandbox in process and in its own, and kube-apiserver…');
    try {
      latency = await benchReconcileLatency({ seconds: latencySeconds, notes });
    } catch (e) {
      notes.push(`write → reconcile latency not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  let host: SandboxHost | undefined;
  if (withSandbox) {
    log('sandbox: seeding the embedded API server in a child process…');
    try {
      host = await startSandboxHost(shape);
    } catch (e) {
      notes.push(`sandbox workloads not run: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (host) {
    try {
      const { seed } = host;
      notes.push(
        `sandbox seeded in-process with ${seed.objects} configmaps + ${seed.events - seed.objects} updates in ${seed.seedMs.toFixed(0)} ms ` +
          `(${((seed.events / seed.seedMs) * 1000).toFixed(0)} writes/s through the store API)`,
      );
      log('sandbox: our client…');
      ours.push(...(await benchSandbox(shape, seed)));
      if (goBin) {
        const bin = goBin;
        log('sandbox: client-go…');
        const sandboxArgs = [
          ...goFlags,
          '-only',
          'sandbox',
          '-sandbox',
          seed.url,
          '-namespace',
          seed.namespace,
          '-from-rv',
          seed.fromRV,
          '-objects',
          String(seed.objects),
          '-events',
          String(seed.events),
        ];
        await tryGo(notes, async () => {
          peers.push(...(await runGoPeer(bin, sandboxArgs)));
          log('sandbox: client-go with GOMAXPROCS=1…');
          peersOneCore.push(...(await runGoPeer(bin, sandboxArgs, { oneCore: true })));
        });
      }
    } finally {
      await host.stop();
    }
  }

  let scale: ScaleResult | undefined;
  if (withScale) {
    try {
      scale = await benchScale(quick ? SCALE_QUICK : SCALE_FULL, log);
    } catch (e) {
      notes.push(`scale run not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  const delivery: string[] = [];
  if (withSandbox) {
    log('watch delivery: sandbox, and kube-apiserver when KUBEBUILDER_ASSETS is set…');
    try {
      delivery.push(...(await benchWatchDelivery(quick ? 50 : 200)));
    } catch (e) {
      notes.push(`watch delivery not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  const browser: string[] = [];
  let browserFigures: BrowserFigures | undefined;
  if (withBrowser) {
    log('browser: the dashboard in Chromium under load, then the Indexer over a large cache…');
    try {
      const f = await benchBrowser(quick ? BROWSER_QUICK : BROWSER_FULL);
      if (typeof f !== 'string') browserFigures = f;
      browser.push(...browserLines(f));
    } catch (e) {
      notes.push(`browser not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  const targets = inProcess ? inProcessTargets(shape, ours, peers, peersOneCore) : [];
  const paired = new Set(peers.map((p) => p.bench));
  onlyOurs.unshift(...ours.filter((o) => !paired.has(o.bench)));

  const c = cpus();
  const header = [
    `controller-scope bench${quick ? ' (--quick)' : ''} — ${new Date().toISOString()}`,
    `machine: ${availableParallelism()} cores (${c[0]?.model.trim() ?? 'unknown cpu'}), node ${process.version}, go ${goBin ? ((await goVersion()) ?? 'unknown') : 'not run'}`,
    `each figure: median of ${shape.reps} run(s) (probe cost: ${shape.probeReps}) after one warm-up; ` +
      'heap = retained after the run, after GC',
  ];
  const out = [
    ...header,
    '',
    ...(ingest.length ? [...ingestTables(ingest, ingestShape), ''] : []),
    ...(peers.length
      ? ['Ours vs client-go (same workload, same shape):', '', sideBySide(ours, peers, peersOneCore), '']
      : []),
    ...(inProcess
      ? [
          "In-process targets (ours ops/s over the peer's, above 1 = we are faster):",
          '',
          inProcessTargetTable(targets),
          '',
        ]
      : []),
    ...(onlyOurs.length ? ['Ours only:', '', oursOnly(onlyOurs)] : []),
    ...(recorderCosts.length ? ['', recorderTargetTable(recorderCosts, recorderBreakdown)] : []),
    ...(traceExport.length ? ['', 'Trace export (README "Traces"):', '', oursOnly(traceExport)] : []),
    ...(recording ? ['', ...recordingLines(recording)] : []),
    ...(latency.length ? ['', ...latencyLines(latency, latencySeconds)] : []),
    ...(scale ? ['', ...scaleLines(scale)] : []),
    ...(delivery.length ? ['', ...delivery] : []),
    ...(browser.length ? ['', ...browser] : []),
    ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
    '',
    `total bench time ${((performance.now() - began) / 1000).toFixed(0)} s`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(resultsDir, { recursive: true });
  const now = new Date().toISOString();
  const sections: Record<string, { ran: boolean; value: unknown }> = {
    ingest: { ran: withIngest, value: { shape: ingestShape, shapes: ingest } },
    inProcess: {
      ran: inProcess || withProbe,
      value: { ours, clientGo: peers, clientGoOneCore: peersOneCore, oursOnly: onlyOurs, targets },
    },
    recorder: {
      ran: withProbe,
      value: { costs: recorderCosts, breakdown: recorderBreakdown, targets: recorderTargets(recorderCosts) },
    },
    recording: { ran: withRecording, value: recording },
    traceExport: { ran: withOtel, value: traceExport },
    reconcileLatency: { ran: withLatency, value: latency },
    scale: { ran: withScale, value: scale },
    watchDelivery: { ran: withSandbox, value: delivery },
    browser: {
      ran: withBrowser,
      value: browserFigures ? { ...browserFigures, targets: browserTargets(browserFigures) } : browser,
    },
  };
  // A run of some parts (--only) keeps the other parts' figures from the run before, each with its date.
  const file = `${resultsDir}latest.json`;
  const previous = (onlyParts && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<
    string,
    unknown
  > & { measured?: Record<string, string> };
  const latest: Record<string, unknown> = {
    date: now,
    quick,
    machine: { cores: availableParallelism(), cpu: c[0]?.model.trim(), node: process.version },
  };
  const measured: Record<string, string> = {};
  for (const [name, { ran, value }] of Object.entries(sections)) {
    const kept = !ran && previous[name] !== undefined;
    latest[name] = kept ? previous[name] : value;
    measured[name] = ran ? now : kept ? (previous.measured?.[name] ?? String(previous.date)) : 'not measured';
  }
  latest.measured = measured;
  latest.notes = notes;
  writeFileSync(file, `${JSON.stringify(latest, null, 2)}\n`);
}

// A workload awaiting a promise nothing will settle lets the event loop run dry, and node would exit 0 with
// the tables unprinted: say so and fail instead.
let finished = false;
process.on('beforeExit', () => {
  if (finished) return;
  process.stderr.write('bench stopped early: a workload waits for something that can no longer happen\n');
  process.exit(1);
});

main().then(
  () => {
    finished = true;
    process.exit(0);
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
