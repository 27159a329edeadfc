// Ingest from bytes: for each shape (Pods with and without managedFields) one bytes-server process serves the
// same LIST / watch / WatchList bytes to every peer (and, when the Go peer is built, the same objects as
// Kubernetes protobuf to client-go asking for it), and each peer measures in a fresh process of its own
// (bench/ingest-peer.ts; the Go peer's `-only ingest`). Repetitions are interleaved across peers so a burst of
// load on a shared machine does not land on one peer only; each figure is the median.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './harness';
import type { IngestResult } from './ingest-peer-result';
import { eventsPerSec, ingestTargets, meanPodJsonBytes, type Target } from './ingest-targets';
import { render } from './table';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// floor-lines and transport split ours in two: parsing the WatchList stream's lines alone, and our HTTP client
// and watch decoding alone (no informer); the rest of ours is the informer.
const NODE_PEERS = [
  'floor',
  'floor-lines',
  'transport',
  'ours',
  'ours-list',
  'ours-strip',
  'ours-compact',
  'ours-lean',
  'client-node',
] as const;

export interface IngestShape {
  pods: number;
  events: number;
  reps: number;
}
export const INGEST_FULL: IngestShape = { pods: 5_000, events: 10_000, reps: 5 };
export const INGEST_QUICK: IngestShape = { pods: 1_000, events: 2_000, reps: 1 };

export interface IngestShapeResult {
  managedFields: boolean;
  jsonBytesPerObject: number;
  jsonBytesPerObjectNoManagedFields: number;
  /** Mean bytes of one Pod inside the protobuf PodList, when the protobuf peer ran. */
  protobufBytesPerObject?: number;
  peers: IngestResult[];
  targets: Target[];
}

interface BytesServer {
  url: string;
  /** Why the server holds no protobuf form, when it was asked to and could not. */
  protobufUnavailable?: string;
  /** Bytes of the PodList in protobuf, when the server holds that form. */
  protobufListBytes?: number;
  stop(): void;
}

export function startBytesServer(
  s: IngestShape,
  managedFields: boolean,
  goBin: string | undefined,
): Promise<BytesServer> {
  const args = ['--import', 'tsx', 'bench/bytes-server.ts', String(s.pods), String(s.events)];
  if (!managedFields) args.push('--no-managed-fields');
  if (goBin) args.push('--go', goBin);
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`bytes-server exited with ${code} before listening`)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (http:\S+)/.exec(out);
      if (!m) return;
      const unavailable = /protobuf unavailable: (.*)/.exec(out)?.[1];
      const pbBytes = /protobuf (\d+) bytes/.exec(out)?.[1];
      resolve({
        url: m[1]!,
        ...(unavailable ? { protobufUnavailable: unavailable } : {}),
        ...(pbBytes ? { protobufListBytes: Number(pbBytes) } : {}),
        stop: () => void child.kill('SIGTERM'),
      });
    });
  });
}

function runJsonLine(cmd: string, args: string[]): Promise<IngestResult> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: ROOT, timeout: 180_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) return reject(new Error(`${cmd} printed no figure:\n${stdout}${stderr}`));
      resolve(JSON.parse(line) as IngestResult);
    });
  });
}

function runPeer(peer: string, url: string, s: IngestShape, goBin: string | undefined): Promise<IngestResult> {
  if (peer === 'client-go' || peer === 'client-go-protobuf') {
    return runJsonLine(goBin!, [
      ...(peer === 'client-go-protobuf' ? ['-protobuf'] : []),
      '-only',
      'ingest',
      '-sandbox',
      url,
      '-objects',
      String(s.pods),
      '-events',
      String(s.events),
    ]);
  }
  const args = ['--expose-gc', '--import', 'tsx', 'bench/ingest-peer.ts', peer, url, String(s.pods), String(s.events)];
  return runJsonLine(process.execPath, args);
}

function medianOf(runs: IngestResult[]): IngestResult {
  const pick = (f: (r: IngestResult) => number | undefined): number | undefined => {
    const xs = runs.map(f).filter((x): x is number => x !== undefined);
    return xs.length ? median(xs) : undefined;
  };
  const retained = pick((r) => r.retainedBytesPerObject);
  return {
    peer: runs[0]!.peer,
    events: runs[0]!.events,
    ms: pick((r) => r.ms)!,
    cpuMs: pick((r) => r.cpuMs)!,
    peakRssMB: pick((r) => r.peakRssMB)!,
    ...(retained !== undefined ? { retainedBytesPerObject: retained } : {}),
  };
}

export async function benchIngest(
  s: IngestShape,
  goBin: string | undefined,
  log: (msg: string) => void,
  notes: string[],
): Promise<IngestShapeResult[]> {
  const peers: string[] = [...NODE_PEERS, ...(goBin ? ['client-go', 'client-go-protobuf'] : [])];
  const out: IngestShapeResult[] = [];
  for (const managedFields of [true, false]) {
    log(`ingest from bytes: ${s.pods} pods + ${s.events} events, managedFields ${managedFields ? 'kept' : 'absent'}…`);
    const server = await startBytesServer(s, managedFields, goBin);
    const runs = new Map<string, IngestResult[]>();
    if (server.protobufUnavailable) notes.push(`ingest: no protobuf peer: ${server.protobufUnavailable}`);
    try {
      for (let rep = 0; rep < s.reps; rep++) {
        for (const peer of peers) {
          if (!managedFields && peer === 'ours-strip') continue;
          if (peer === 'client-go-protobuf' && server.protobufListBytes === undefined) continue;
          try {
            const r = await runPeer(peer, server.url, s, goBin);
            runs.set(peer, [...(runs.get(peer) ?? []), r]);
          } catch (e) {
            if (rep === 0) notes.push(`ingest peer ${peer} failed: ${(e as Error).message.split('\n')[0]}`);
          }
        }
      }
    } finally {
      server.stop();
    }
    const byPeer = new Map([...runs].map(([p, rs]) => [p, medianOf(rs)]));
    const noMF = meanPodJsonBytes(Math.min(s.pods, 1000), false);
    out.push({
      managedFields,
      jsonBytesPerObject: managedFields ? meanPodJsonBytes(Math.min(s.pods, 1000), true) : noMF,
      jsonBytesPerObjectNoManagedFields: noMF,
      ...(server.protobufListBytes !== undefined ? { protobufBytesPerObject: server.protobufListBytes / s.pods } : {}),
      peers: [...byPeer.values()],
      targets: ingestTargets(byPeer, noMF, managedFields ? 'with managedFields' : 'no managedFields'),
    });
  }
  return out;
}

const num = (n: number | undefined, digits = 0): string => (n === undefined ? '–' : n.toFixed(digits));
const LABELS: Record<string, string> = {
  floor: 'JSON.parse floor',
  'floor-lines': 'JSON.parse floor, WatchList lines',
  transport: 'ours, HTTP + decoding only (no informer)',
  ours: 'ours (WatchList)',
  'ours-list': 'ours (LIST + WATCH)',
  'ours-strip': 'ours (WatchList, strip managedFields)',
  'ours-compact': 'ours (WatchList, strip + intern strings)',
  'ours-lean': 'ours (WatchList, strip + intern strings + share subtrees)',
  'client-node': '@kubernetes/client-node informer',
  'client-go': 'client-go SharedIndexInformer (JSON)',
  'client-go-protobuf': 'client-go SharedIndexInformer (protobuf)',
};

/** The printed tables: every peer of a shape beside ours, then the targets with met / not met. */
export function ingestTables(results: IngestShapeResult[], s: IngestShape): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const ours = r.peers.find((p) => p.peer === 'ours');
    lines.push(
      `Ingest from bytes: ${s.pods} Pods (mean ${(r.jsonBytesPerObject / 1024).toFixed(1)} KB JSON` +
        (r.protobufBytesPerObject ? `, ${(r.protobufBytesPerObject / 1024).toFixed(1)} KB protobuf` : '') +
        `, ${r.managedFields ? 'with' : 'without'} managedFields) + ${s.events} MODIFIED events, each peer in its own process, median of ${s.reps}:`,
      '',
      render(
        ['peer', 'events/s', 'ms', 'CPU ms', 'ours speed ×', 'ours CPU ×', 'peak RSS MB', 'retained B/object'],
        r.peers.map((p) => [
          LABELS[p.peer] ?? p.peer,
          num(eventsPerSec(p)),
          num(p.ms),
          num(p.cpuMs),
          ours ? `${(p.ms / ours.ms).toFixed(2)}×` : '–',
          ours ? `${(p.cpuMs / ours.cpuMs).toFixed(2)}×` : '–',
          num(p.peakRssMB),
          num(p.retainedBytesPerObject),
        ]),
        new Set([1, 2, 3, 4, 5, 6, 7]),
      ),
      '',
    );
  }
  lines.push(
    'Ingest targets ("ours speed ×" = peer ms / ours ms, above 1 = we are faster):',
    '',
    render(
      ['target', 'measured', 'goal', 'verdict'],
      results.flatMap((r) =>
        r.targets.map((t) => [
          t.what,
          t.value === undefined ? '–' : t.goal.startsWith('≥') ? `${t.value.toFixed(2)}×` : `${t.value.toFixed(0)} B`,
          t.goal,
          t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT MET',
        ]),
      ),
      new Set([1]),
    ),
  );
  return lines;
}
