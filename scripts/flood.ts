// `npm run flood`: the socket floods of issue 22 against the whole product (sandbox, its workload, the four
// example controllers, the dashboard) in a child process, while this process asks its /healthz every 10 ms
// and reads its RSS every 100 ms. Floods: 3,000 breakpoint adds; 20 connections × 100 inspects of 10,000
// events; 1,000 cache.compare requests of page size 1. Prints, per flood, /healthz p50/p99/max, peak RSS and
// how the requests were answered (ok, or refused by code); exits 1 when a flood leaves /healthz p99 ≥ 100 ms
// or RSS ≥ 600 MB. The server is a child, and /healthz is asked from a worker thread, so that neither the
// server's nor the flooding clients' event loop delays the measurement. A quiet interval first gives the
// machine's own baseline (the figures mean little on a loaded machine without it).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Ack } from '../shared/protocol/commands';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../shared/protocol/version';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const P99_LIMIT_MS = 100;
const RSS_LIMIT_MB = 600;

async function serve(): Promise<void> {
  const { runApp } = await import('../server/main');
  const app = await runApp(
    {
      command: 'dashboard',
      cluster: { mode: 'sandbox', workload: { rate: 20 } },
      controllers: ['pod-counter', 'replicaset-owner', 'flaky', 'hot-loop'],
      port: 0,
      host: '127.0.0.1',
      allowWrites: false,
      open: false,
    } as Parameters<typeof runApp>[0],
    () => {},
  );
  // FLOOD_PROFILE=file.cpuprofile: the server's CPU profile over the floods, written when it is told to stop.
  const profile = process.env.FLOOD_PROFILE;
  if (profile) {
    const { Session } = await import('node:inspector/promises');
    const { writeFileSync } = await import('node:fs');
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    process.once('SIGINT', () => {
      void session.post('Profiler.stop').then(({ profile: p }) => {
        writeFileSync(profile, JSON.stringify(p));
        process.exit(0);
      });
    });
  }
  process.stdout.write(`${JSON.stringify({ url: app.url })}\n`);
}

interface Figures {
  flood: string;
  healthzP50: number;
  healthzP99: number;
  healthzMax: number;
  healthzSamples: number;
  rssStartMb: number;
  rssPeakMb: number;
  answers: Record<string, number>;
  seconds: number;
}

async function flood(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened`)));
  });
  const pid = child.pid ?? 0;
  const results: Figures[] = [];
  try {
    const first = await connect(url);
    await first.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
    // Let the ring fill, so the inspects have 10,000 events to answer with (or a minute has gone).
    const fillUntil = Date.now() + 60_000;
    for (;;) {
      const a = await first.emitWithAck('inspect', { target: 'events', limit: 1 });
      const lastSeq = a.ok && a.result.target === 'events' ? a.result.lastSeq : 0;
      if (lastSeq >= 10_000 || Date.now() > fillUntil) break;
      await pause(500);
    }
    const h = await first.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
    if (h.type !== 'snapshot') throw new Error(`hello answered ${h.type}`);
    const informers = Object.keys(h.view.informers);
    const informer = informers.find((i) => i.endsWith('v1/Pod')) ?? informers[0];
    if (!informer) throw new Error('the server shows no informer to compare');
    first.disconnect();

    results.push(
      await measure('quiet (baseline, 3 s)', url, pid, async () => {
        await pause(3000);
        return [];
      }),
    );
    results.push(
      await measure('3,000 breakpoint adds', url, pid, async () => {
        const c = await connect(url);
        await c.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
        const acks = Array.from({ length: 3000 }, (_, i) =>
          c.emitWithAck('command', { type: 'step.breakpoint', controller: 'pod-counter', key: `flood/k-${i}` }),
        );
        const all = await Promise.all(acks);
        c.disconnect();
        return all;
      }),
    );
    results.push(
      await measure('20 connections × 100 inspects', url, pid, async () => {
        const clients = await Promise.all(Array.from({ length: 20 }, () => connect(url)));
        await Promise.all(clients.map((c) => c.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION })));
        const all = await Promise.all(
          clients.flatMap((c) =>
            Array.from({ length: 100 }, () =>
              c.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 10_000 }),
            ),
          ),
        );
        for (const c of clients) c.disconnect();
        return all;
      }),
    );
    results.push(
      await measure('1,000 cache.compare (page size 1)', url, pid, async () => {
        const c = await connect(url);
        await c.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
        const all = await Promise.all(
          Array.from({ length: 1000 }, () =>
            c.emitWithAck('command', { type: 'cache.compare', informer, pageSize: 1 }),
          ),
        );
        c.disconnect();
        return all;
      }),
    );
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
  }
  console.log(JSON.stringify(results, null, 2));
  const bad = results.filter((r) => r.healthzP99 >= P99_LIMIT_MS || r.rssPeakMb >= RSS_LIMIT_MB);
  for (const r of results) {
    console.log(
      `${r.flood}: /healthz p50 ${r.healthzP50} ms, p99 ${r.healthzP99} ms, max ${r.healthzMax} ms ` +
        `(${r.healthzSamples} samples); RSS ${r.rssStartMb} → peak ${r.rssPeakMb} MB; ${r.seconds} s; ` +
        `answers ${JSON.stringify(r.answers)}`,
    );
  }
  if (bad.length > 0) {
    console.error(
      `over the limits (p99 < ${P99_LIMIT_MS} ms, RSS < ${RSS_LIMIT_MB} MB): ${bad.map((b) => b.flood).join(', ')}`,
    );
    process.exitCode = 1;
  }
}

/** FLOOD_ONLY=breakpoint (a word of the flood's name) runs only the floods whose names contain it. */
const only = process.env.FLOOD_ONLY;

async function measure(name: string, url: string, pid: number, run: () => Promise<Ack<unknown>[]>): Promise<Figures> {
  if (only && !name.includes(only) && !name.startsWith('quiet')) run = async () => [];
  const rssStartMb = rssMb(pid);
  let rssPeakMb = rssStartMb;
  const pinger = new Worker(PINGER, { eval: true, workerData: new URL('/healthz', url).href });
  const latencies = new Promise<number[]>((resolve) => pinger.once('message', resolve));
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 100);
  const started = performance.now();
  const answers: Record<string, number> = {};
  try {
    for (const a of await run()) {
      const k = a.ok ? 'ok' : (a.code ?? 'error');
      answers[k] = (answers[k] ?? 0) + 1;
    }
  } finally {
    clearInterval(sampler);
    pinger.postMessage('stop');
  }
  rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
  const sorted = [...(await latencies)].sort((a, b) => a - b);
  await pinger.terminate();
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return {
    flood: name,
    healthzP50: at(0.5),
    healthzP99: at(0.99),
    healthzMax: Math.round(sorted[sorted.length - 1] ?? 0),
    healthzSamples: sorted.length,
    rssStartMb,
    rssPeakMb,
    answers,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** Asks /healthz every 10 ms (one at a time) until told to stop, then posts the latencies in ms. */
const PINGER = `
const { parentPort, workerData } = require('node:worker_threads');
let done = false;
const latencies = [];
parentPort.once('message', () => (done = true));
(async () => {
  while (!done) {
    const t = performance.now();
    await fetch(workerData).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  parentPort.postMessage(latencies);
})();
`;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function connect(url: string): Promise<Client> {
  const c: Client = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    c.once('connect', () => resolve(c));
    c.once('connect_error', reject);
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

if (process.argv.includes('--serve')) await serve();
else await flood();
