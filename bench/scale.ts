// Workload "scale": the dashboard process at cluster size. N cached objects of realistic size (ConfigMaps from
// bench/realistic-objects.ts, mean 3.5 KB of JSON with managedFields), ten controllers over one informer, a
// steady stream of MODIFIED events, and the dashboard (serveDashboard: recorder + socket server) with one
// socket.io client — this process — connected and reading every batch. The server (bench/scale-server.ts) and
// the measured process (bench/scale-dashboard.ts) are children of their own, so the measured RSS holds only
// the manager, its cache and the dashboard. A second child runs the same manager without the dashboard and
// reports its heap after the sync: the informer's share, which the dashboard's cost per object is measured against.
// Part of `npm run bench` (--only scale); alone: npx tsx bench/scale.ts [--quick]
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { loadavg, availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { io as connect } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../shared/protocol/version';
import type { ScaleChildOptions, ScaleChildResult, ScaleMemory } from './scale-dashboard';

export interface ScaleShape {
  objects: number;
  controllers: number;
  /** MODIFIED events per second, from the server. */
  rate: number;
  seconds: number;
}

export const SCALE_FULL: ScaleShape = { objects: 100_000, controllers: 10, rate: 1000, seconds: 60 };
export const SCALE_QUICK: ScaleShape = { objects: 5_000, controllers: 10, rate: 1000, seconds: 10 };

export const SCALE_TARGETS = { rssBytes: 1024 ** 3, eldP99Ms: 50 };

export interface ScaleResult {
  shape: ScaleShape;
  kind: 'ConfigMap';
  meanJsonBytes: number;
  dashboard: ScaleChildResult;
  /** The manager alone, after the sync (after GC), and its peak RSS during the sync. */
  baseline: { syncMs: number; syncLoopMaxMs: number; before: ScaleMemory; synced: ScaleMemory; peakRss: number };
  /** The machine's 1-minute load average when the steady phase began and ended (wall-clock figures stretch with it). */
  loadAverage: number[];
  client: {
    bytes: number;
    batches: number;
    events: number;
    /** Snapshots (a client that fell behind gets one when its socket drains; hello answers one), and their bytes. */
    snapshots: number;
    snapshotBytes: number;
    lagNotices: number;
    ms: number;
    /** Why the socket closed before the end, each time it did (it then reconnects and resumes, as the browser does). */
    disconnects: string[];
  };
}

const tsxArgs = ['--import', 'tsx'];
const here = (f: string): string => new URL(f, import.meta.url).pathname;

interface Server {
  url: string;
  go(): void;
  stop(): Promise<void>;
}

async function startServer(shape: ScaleShape): Promise<Server> {
  const child = spawn(
    process.execPath,
    [...tsxArgs, here('./scale-server.ts'), 'configmaps', String(shape.objects), String(shape.rate)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (l) => {
      rl.close();
      resolve(l.replace(/^listening /, ''));
    });
    child.once('exit', (code) => reject(new Error(`scale server exited (${code}) before it listened`)));
  });
  return {
    url,
    go: () => void child.stdin.write('go\n'),
    stop: async () => {
      child.stdin.end();
      const t = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

type Message = { type: string } & Record<string, unknown>;
const NO_MEMORY: ScaleMemory = { rss: NaN, heapUsed: NaN, heapTotal: NaN, external: NaN, arrayBuffers: NaN };

function forkChild(opts: ScaleChildOptions): { child: ChildProcess; next(type: string): Promise<Message> } {
  const child = fork(here('./scale-dashboard.ts'), [JSON.stringify(opts)], {
    // SCALE_CHILD_FLAGS adds node flags to the measured process only (e.g. --cpu-prof, --heapsnapshot-signal=SIGUSR2).
    execArgv: [...tsxArgs, '--expose-gc', ...(process.env['SCALE_CHILD_FLAGS']?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: Message[] = [];
  const waiting: { type: string; resolve: (m: Message) => void; reject: (e: Error) => void }[] = [];
  child.on('message', (m: Message) => {
    const w = waiting.findIndex((x) => x.type === m.type);
    if (w >= 0) waiting.splice(w, 1)[0]!.resolve(m);
    else inbox.push(m);
  });
  child.once('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`scale child exited (${code}) while waiting for ${w.type}`));
  });
  return {
    child,
    next: (type) => {
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]!);
      if (child.exitCode !== null) return Promise.reject(new Error(`scale child exited (${child.exitCode})`));
      return new Promise((resolve, reject) => waiting.push({ type, resolve, reject }));
    },
  };
}

const exitOf = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));

export async function benchScale(
  shape: ScaleShape,
  log: (msg: string) => void = () => {},
  extra: { heapSnapshot?: string; noClient?: boolean; noBaseline?: boolean } = {},
): Promise<ScaleResult> {
  const server = await startServer(shape);
  const load: number[] = [];
  try {
    const base: ScaleChildOptions = {
      url: server.url,
      kind: 'ConfigMap',
      objects: shape.objects,
      controllers: shape.controllers,
      seconds: shape.seconds,
      dashboard: false,
    };
    let plainSynced: Message = {
      type: 'synced',
      syncMs: NaN,
      syncLoopMaxMs: NaN,
      before: NO_MEMORY,
      synced: NO_MEMORY,
      peakRss: NaN,
    };
    if (!extra.noBaseline) {
      log(`scale: the manager alone syncing ${shape.objects} configmaps (baseline heap)…`);
      const plain = forkChild(base);
      plainSynced = await plain.next('synced');
      await plain.next('result');
      await exitOf(plain.child);
    }

    log(`scale: the manager with the dashboard and one socket client…`);
    const dash = forkChild({
      ...base,
      dashboard: true,
      ...(extra.heapSnapshot ? { heapSnapshot: extra.heapSnapshot } : {}),
    });
    const { url } = (await dash.next('listening')) as unknown as { url: string };
    log(`scale: dashboard at ${url}`);
    const socket = connect(extra.noClient ? 'http://127.0.0.1:1' : url, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelayMax: 2000,
    });
    const stats: ScaleResult['client'] = {
      bytes: 0,
      batches: 0,
      events: 0,
      snapshots: 0,
      snapshotBytes: 0,
      lagNotices: 0,
      ms: 0,
      disconnects: [],
    };
    socket.io.on('open', () => {
      socket.io.engine.on('packet', (p: { data?: unknown }) => {
        if (typeof p.data !== 'string') return;
        const n = Buffer.byteLength(p.data) + 1;
        stats.bytes += n;
        if (p.data.startsWith('2["snapshot"') || /^3\d+\[\{"type":"snapshot"/.test(p.data.slice(0, 40))) {
          stats.snapshotBytes += n;
        }
      });
    });
    // As the browser does: on every (re)connect say hello, resuming from the last batch when there was one.
    let cursor: { serverEpoch: string; lastSeq: number } | undefined;
    const hello = async (): Promise<void> => {
      const res = (await socket.emitWithAck('hello', {
        protocolVersion: PROTOCOL_VERSION,
        ...(cursor ? { resume: cursor } : {}),
      })) as { type: string; seq?: number; server?: { serverEpoch: string } };
      if (res.type !== 'snapshot' && res.type !== 'replay') throw new Error(`hello answered ${res.type}`);
      if (res.server && res.seq !== undefined) cursor = { serverEpoch: res.server.serverEpoch, lastSeq: res.seq };
    };
    socket.on('batch', (b: { serverEpoch: string; seq: number; events: unknown[] }) => {
      stats.batches++;
      stats.events += b.events.length;
      cursor = { serverEpoch: b.serverEpoch, lastSeq: b.seq };
    });
    socket.on('snapshot', (snap: { serverEpoch: string; seq: number }) => {
      stats.snapshots++;
      cursor = { serverEpoch: snap.serverEpoch, lastSeq: snap.seq };
    });
    socket.on('lag', () => void stats.lagNotices++);
    socket.on('disconnect', (reason) => {
      if (reason !== 'io client disconnect') stats.disconnects.push(reason);
    });
    const firstHello = new Promise<void>((resolve, reject) => {
      socket.on('connect', () => {
        hello().then(resolve, reject);
      });
      socket.once('connect_error', reject);
    });
    if (!extra.noClient) await firstHello;
    else {
      firstHello.catch(() => undefined);
      socket.disconnect();
    }
    dash.child.send({ type: 'start' });
    const synced = await dash.next('synced');
    log(
      `scale: synced in ${(synced['syncMs'] as number).toFixed(0)} ms; ${shape.rate} events/s for ${shape.seconds} s…`,
    );
    server.go();
    load.push(loadavg()[0] ?? NaN);
    const bytes0 = stats.bytes;
    const events0 = stats.events;
    stats.snapshots = 0;
    stats.snapshotBytes = 0;
    const t0 = performance.now();
    dash.child.send({ type: 'measure' });
    const { result } = (await dash.next('result')) as unknown as { result: ScaleChildResult };
    stats.ms = performance.now() - t0;
    stats.bytes -= bytes0;
    stats.events -= events0;
    load.push(loadavg()[0] ?? NaN);
    socket.disconnect();
    await exitOf(dash.child);
    const sample = Math.min(shape.objects, 2000);
    const { realisticConfigMap } = await import('./realistic-objects');
    let json = 0;
    for (let i = 0; i < sample; i++) json += JSON.stringify(realisticConfigMap(i, i + 1)).length;
    return {
      shape,
      kind: 'ConfigMap',
      meanJsonBytes: json / sample,
      dashboard: result,
      baseline: {
        syncMs: plainSynced['syncMs'] as number,
        syncLoopMaxMs: plainSynced['syncLoopMaxMs'] as number,
        before: plainSynced['before'] as ScaleMemory,
        synced: plainSynced['synced'] as ScaleMemory,
        peakRss: plainSynced['peakRss'] as number,
      },
      client: stats,
      loadAverage: load,
    };
  } finally {
    await server.stop();
  }
}

const MB = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT MET');

export function scaleLines(r: ScaleResult): string[] {
  const d = r.dashboard;
  const n = r.shape.objects;
  const perObject = (before: ScaleMemory, after: ScaleMemory): number => (after.heapUsed - before.heapUsed) / n;
  const withDash = perObject(d.before, d.synced);
  const alone = perObject(r.baseline.before, r.baseline.synced);
  const peak = Math.max(d.peakRss, d.peakRssKernel ?? 0);
  const secs = d.measuredMs / 1000;
  return [
    `Scale: ${n} ConfigMaps cached (mean ${(r.meanJsonBytes / 1024).toFixed(1)} KB JSON, with managedFields), ` +
      `${r.shape.controllers} controllers, ${r.shape.rate} MODIFIED events/s for ${r.shape.seconds} s, ` +
      'dashboard with one socket.io client (the measured process runs alone in a child):',
    `  machine load average ${r.loadAverage.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores ` +
      '(the event-loop delay and the collector pauses are wall time and stretch with it)',
    `  heap growth ${d.heapPolicy} (as the controller-scope CLI runs; a main of your own keeps V8's default unless node is given the flag)`,
    `  sync ${(d.syncMs / 1000).toFixed(1)} s (manager alone ${(r.baseline.syncMs / 1000).toFixed(1)} s); the event loop held at most ` +
      `${d.syncLoopMaxMs.toFixed(0)} ms at a time while syncing (manager alone ${r.baseline.syncLoopMaxMs.toFixed(0)} ms)`,
    `  RSS peak ${MB(peak)}, end ${MB(d.end.rss)}  (target ≤ ${MB(SCALE_TARGETS.rssBytes)}: ${verdict(peak <= SCALE_TARGETS.rssBytes)}); ` +
      `the manager alone peaked at ${MB(r.baseline.peakRss)} while syncing`,
    `  heap used/total after sync ${MB(d.synced.heapUsed)} / ${MB(d.synced.heapTotal)}, at the end ${MB(d.end.heapUsed)} / ${MB(d.end.heapTotal)} (after GC)`,
    `  heap grown by the sync, per cached object: ${withDash.toFixed(0)} B with the dashboard, ${alone.toFixed(0)} B ` +
      `for the manager alone (${(alone / r.meanJsonBytes).toFixed(2)}× the JSON) → the dashboard adds ${(withDash - alone).toFixed(0)} B per object ` +
      `(its event ring then held ${d.ringEvents} events)`,
    `  off the heap at the end: external ${MB(d.end.external)} (array buffers ${MB(d.end.arrayBuffers)})`,
    `  event-loop delay p99 ${d.eldP99Ms.toFixed(1)} ms, max ${d.eldMaxMs.toFixed(1)} ms, mean ${d.eldMeanMs.toFixed(1)} ms ` +
      `(target p99 ≤ ${SCALE_TARGETS.eldP99Ms} ms: ${verdict(d.eldP99Ms <= SCALE_TARGETS.eldP99Ms)})`,
    `  collector pauses: ${d.gc.minor} scavenges ${d.gc.minorMs.toFixed(0)} ms, ${d.gc.major} mark-compacts ` +
      `${d.gc.majorMs.toFixed(0)} ms, longest ${d.gc.maxMs.toFixed(0)} ms`,
    `  reconciles ${(d.reconciles / secs).toFixed(0)}/s, CPU ${((d.cpuMs / d.measuredMs) * 100).toFixed(0)} % of one core`,
    `  stream to the client ${(r.client.bytes / 1024 / (r.client.ms / 1000)).toFixed(0)} KB/s ` +
      `(${(r.client.events / (r.client.ms / 1000)).toFixed(0)} events/s in ${r.client.batches} batches; ` +
      `${r.client.lagNotices} lag notices, ${r.client.snapshots} snapshots of ${MB(r.client.snapshotBytes)}` +
      `${r.client.disconnects.length ? `; disconnected ${r.client.disconnects.length}× (${[...new Set(r.client.disconnects)].join(', ')}), reconnected` : ''})`,
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const argv = process.argv.slice(2);
  const shape = { ...(argv.includes('--quick') ? SCALE_QUICK : SCALE_FULL) };
  const objects = argv.indexOf('--objects');
  if (objects >= 0) shape.objects = Number(argv[objects + 1]);
  const seconds = argv.indexOf('--seconds');
  if (seconds >= 0) shape.seconds = Number(argv[seconds + 1]);
  const snap = argv.indexOf('--heap-snapshot');
  const r = await benchScale(shape, (m) => process.stderr.write(`${m}\n`), {
    noClient: argv.includes('--no-client'),
    noBaseline: argv.includes('--no-baseline'),
    ...(snap >= 0 && argv[snap + 1] ? { heapSnapshot: argv[snap + 1] } : {}),
  });
  console.log(scaleLines(r).join('\n'));
  process.exit(0);
}
