// Bytes per event of a recording on the hot-loop workload: the demo's hot-loop controller with no pause
// (its own patch wakes it at once, as fast as the sandbox answers) next to a Secret informer holding a cache,
// the embedded sandbox in this process, the Recorder as serveDashboard wires it over a ring small enough to
// wrap. --record is started after the ring wrapped (the case that used to replay a wrong state), runs for
// `events` events and is closed; then the span is also downloaded as Rec does. Each file is read back and
// checked: it starts with the state, and its events are the span's.
// Part of `npm run bench` (--only recording); alone: npx tsx bench/recording-bytes.ts [events] [--json]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { SandboxServer } from '../server/cluster/sandbox';
import { exportRecording, objectSourceOver, readRecording, Recorder, RecordingWriter } from '../server/dashboard';
import { HotLoopReconciler } from '../server/demo/hot-loop';
import { newControllerManagedBy, newManager, RestConfig } from '../server/runtime';

const execFileAsync = promisify(execFile);

/** The issue's budget. */
export const RECORDING_TARGET_BYTES_PER_EVENT = 60;
const NAMESPACE = 'demo';
const SECRETS = 200;

export interface RecordingFile {
  what: 'record' | 'rec';
  bytes: number;
  events: number;
  /** State records in it: the snapshot and the keyframes. */
  states: number;
  /** The same events as plain JSON lines, one per event (what a version 1 file held per event). */
  jsonBytes: number;
}

export interface RecordingBytesResult {
  /** Events the recorder had stamped when --record started, and the oldest its ring still held then. */
  startedAtSeq: number;
  ringFirstSeqAtStart: number;
  files: RecordingFile[];
  eventsPerSecond: number;
}

async function waitFor(what: string, ok: () => boolean, timeoutMs: number, state?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) {
      throw new Error(`recording bench: gave up waiting for ${what}${state ? ` (${state()})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function describeFile(what: RecordingFile['what'], file: string): Promise<RecordingFile> {
  const rec = await readRecording(file);
  const first = rec.states[0];
  if (!first || first.type !== 'snapshot') throw new Error(`recording bench: ${file} does not start with the state`);
  if (Object.keys(first.view.informers).length < 2)
    throw new Error(`recording bench: ${file}'s snapshot misses informers`);
  const jsonBytes = rec.events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0);
  return { what, bytes: statSync(file).size, events: rec.events.length, states: rec.states.length, jsonBytes };
}

export async function benchRecordingBytes(events: number): Promise<RecordingBytesResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-rec-'));
  const sandbox = new SandboxServer({ port: 0 });
  const { url } = await sandbox.start();
  const recorder = new Recorder({
    objectSource: objectSourceOver(() => mgr.getCache()),
    trustedEmits: true,
    ringBytes: 4 * 1024 * 1024,
  });
  const mgr = newManager(RestConfig.forServer(url), { probe: recorder });
  const ac = new AbortController();
  try {
    const client = mgr.getClient();
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    for (let i = 0; i < SECRETS; i++) {
      await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${i}`, namespace: NAMESPACE } });
    }
    await newControllerManagedBy(mgr)
      .named('secret-reader')
      .for({ apiVersion: 'v1', kind: 'Secret' })
      .complete({ reconcile: async () => ({}) });
    await new HotLoopReconciler(client, 0).setupWithManager(mgr, NAMESPACE);
    void mgr.start(ac.signal).catch(() => undefined);
    // A viewer is connected, as when someone presses Rec: batches flush every 75 ms.
    const unsubscribe = recorder.onBatch(() => undefined);
    await waitFor('the ring to wrap', () => recorder.ringBounds().evicted > 0, 120_000);
    const startedAtSeq = recorder.seq;
    const ringFirstSeqAtStart = recorder.ringBounds().firstSeq;
    const recordFile = join(dir, 'record.csrec');
    const source = {
      cluster: { kind: 'sandbox' as const, writable: true },
      controllers: ['secret-reader', 'hot-loop'],
    };
    const began = performance.now();
    const writer = new RecordingWriter({ recorder, file: recordFile, ...source });
    await waitFor(
      `${events} events`,
      () => recorder.seq - startedAtSeq >= events,
      300_000,
      () => {
        return `${recorder.seq - startedAtSeq} so far`;
      },
    );
    await writer.close();
    const seconds = (performance.now() - began) / 1000;
    // Rec over the last part of the span the ring still holds.
    const bounds = recorder.ringBounds();
    const recFile = join(dir, 'rec.csrec');
    const fromSeq = Math.max(bounds.firstSeq, bounds.lastSeq - Math.floor(events / 2));
    writeFileSync(recFile, (await exportRecording(recorder, source, { fromSeq }, Date.now())).body);
    unsubscribe();
    const files = [await describeFile('record', recordFile), await describeFile('rec', recFile)];
    return { startedAtSeq, ringFirstSeqAtStart, files, eventsPerSecond: (recorder.seq - startedAtSeq) / seconds };
  } finally {
    ac.abort();
    recorder.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function recordingLines(r: RecordingBytesResult): string[] {
  const rows = r.files.map((f) => {
    const perEvent = f.bytes / f.events;
    const verdict = perEvent <= RECORDING_TARGET_BYTES_PER_EVENT ? 'met' : 'NOT met';
    return (
      `  ${f.what === 'record' ? '--record' : 'Rec    '}  ${f.events} events, ${f.states} state records, ` +
      `${(f.bytes / 1024).toFixed(0)} KiB: ${perEvent.toFixed(1)} B/event (target ≤ ${RECORDING_TARGET_BYTES_PER_EVENT}: ${verdict}); ` +
      `the events as plain JSON lines ${(f.jsonBytes / f.events).toFixed(0)} B/event`
    );
  });
  return [
    `Recording size on the hot-loop workload (${r.eventsPerSecond.toFixed(0)} events/s; started at seq ${r.startedAtSeq}, ` +
      `after the ring wrapped: it held seq ${r.ringFirstSeqAtStart} on):`,
    ...rows,
  ];
}

/**
 * Runs the workload in a process of its own (node --import tsx, without the bench's --expose-gc: under that
 * flag the hot loop here slowed to about 100 events/s, against 1,900 alone) and reads its figures back.
 */
export async function benchRecordingBytesApart(events: number): Promise<RecordingBytesResult> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'bench/recording-bytes.ts', String(events), '--json'],
    { cwd: root, timeout: 600_000, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout) as RecordingBytesResult;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 30_000);
  const r = await benchRecordingBytes(n);
  process.stdout.write(
    process.argv.includes('--json') ? `${JSON.stringify(r)}\n` : `${recordingLines(r).join('\n')}\n`,
  );
  // The manager's last timers and sockets wind down on their own; the figures are out.
  process.exit(0);
}
