// Regenerates web/fixtures/recorded/session.jsonl, the recording the panel tests render from: the real
// product (the composition root on the embedded sandbox with the four example controllers) recorded while
// it lives through steady churn, a 410 Expired on the Pod watches, a clean close of the ConfigMap watches,
// the flaky controller's errors and RequeueAfter and the hot loop. The recording is then cut after the last
// relist has settled, so the file stays small (a few thousand events) but holds every situation.
// Run: npx tsx scripts/record-ui-fixtures.ts (KEEP=1 keeps the uncut recording in its temp dir, to look into).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterControlsImpl } from '../server/cluster/controls';
import { readRecording } from '../server/dashboard';
import { runApp, type RunningApp } from '../server/main';
import type { StampedEvent } from '../shared/protocol/events';
import type { RuntimeView } from '../shared/protocol/view';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'fixtures', 'recorded', 'session.jsonl');
/** Upper bound on the events kept; the cut is made earlier when every situation is already in. */
const MAX_EVENTS = 4000;
/** Events kept after the last relist settled, so the panels show life after the faults. */
const TAIL_EVENTS = 300;
/** The file is committed and parsed by every panel test run: past this, shorten the script. */
const MAX_BYTES = 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the live view until `done` holds; fails with `what` after timeoutMs (the runtime is random). */
async function until(app: RunningApp, what: string, done: (v: RuntimeView) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done(app.recorder.view)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms; run again`);
    await sleep(50);
  }
}

async function record(file: string): Promise<void> {
  const app = await runApp(
    {
      command: 'dashboard',
      cluster: { mode: 'sandbox' },
      controllers: ['pod-counter', 'replicaset-owner', 'flaky', 'hot-loop'],
      port: 0,
      host: '127.0.0.1',
      allowWrites: false,
      record: file,
      open: false,
    },
    () => undefined,
  );
  try {
    if (!app.cluster) throw new Error('the composition root started without a cluster');
    // The same controls the dashboard's fault form uses.
    const controls = new ClusterControlsImpl(app.cluster, true);
    // Steady churn until the flaky controller has failed and asked for a RequeueAfter, and the hot loop is
    // flagged: both are random and paced by the workload, so the script waits for them rather than a time.
    await until(app, 'the flaky controller to fail and to RequeueAfter', (v) => {
      const r = v.controllers['flaky']?.reconciles;
      return (r?.error ?? 0) > 0 && (r?.requeueAfter ?? 0) > 0;
    });
    await until(app, 'the hot loop to be flagged', (v) => (v.controllers['hot-loop']?.hotLoops.length ?? 0) > 0);
    controls.injectFault({ kind: 'expireWatches', resource: 'pods' });
    // A Pod deleted while the reflector backs off is missed by every watch: the relist finds it gone and
    // delivers a Deleted tombstone. Deleted as kubectl would, over HTTP, so no controller is charged for it.
    await until(app, 'the Pod reflector to back off after the 410', (v) => v.informers['v1/Pod']?.state === 'backoff');
    await deleteOnePod(app.cluster.server);
    await until(app, 'the Pod reflector to relist after the 410', (v) => {
      const t = v.informers['v1/Pod']?.counters.transitions;
      return (t?.['relisting→watching'] ?? 0) > 0;
    });
    const watches = app.recorder.view.informers['v1/ConfigMap']?.counters.watches ?? 0;
    controls.injectFault({ kind: 'closeWatches', resource: 'configmaps' });
    await until(app, 'the ConfigMap reflector to watch again', (v) => {
      return (v.informers['v1/ConfigMap']?.counters.watches ?? 0) > watches;
    });
    await sleep(1000);
  } finally {
    await app.stop();
  }
}

async function deleteOnePod(server: string): Promise<void> {
  const list = (await (await fetch(`${server}/api/v1/pods`)).json()) as {
    items?: { metadata: { name: string; namespace: string } }[];
  };
  const pod = list.items?.[0];
  if (!pod) throw new Error('the sandbox has no Pod to delete; run again');
  const { namespace, name } = pod.metadata;
  const res = await fetch(`${server}/api/v1/namespaces/${namespace}/pods/${name}`, { method: 'DELETE' });
  if (!res.ok) throw new Error(`deleting pod ${namespace}/${name} failed: HTTP ${res.status}`);
}

/**
 * The last seq to keep: every situation has been seen (the 410 and the relist back to watching, the closed
 * watch and the new watch after it) and a tail of ordinary life follows; never the shutdown, so the panels
 * show a running manager. Undefined when a situation is missing.
 */
function cutAt(events: StampedEvent[]): number | undefined {
  let expired = false;
  let relisted = false;
  let closed: string | undefined;
  let rewatched = false;
  let seen: number | undefined;
  let stopping = Infinity;
  for (const e of events) {
    if (e.kind === 'manager.lifecycle' && e.phase === 'stopping') stopping = Math.min(stopping, e.seq);
    if (e.kind === 'reflector.watchEnd' && e.reason === 'expired') expired = true;
    if (expired && e.kind === 'reflector.state' && e.from === 'relisting' && e.to === 'watching') relisted = true;
    if (e.kind === 'reflector.watchEnd' && e.reason === 'closed') closed = e.informer;
    if (closed && e.kind === 'reflector.watchStart' && e.informer === closed) rewatched = true;
    if (seen === undefined && relisted && rewatched) seen = e.seq;
  }
  if (seen === undefined || seen >= stopping) return undefined;
  return Math.min(seen + TAIL_EVENTS, stopping - 1);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-ui-rec-'));
  const raw = join(dir, 'raw.jsonl');
  try {
    await record(raw);
    // The fixture is kept as plain JSON lines (a gunzipped recording reads the same) so a diff shows it.
    const { header, states, events, gaps } = await readRecording(raw);
    if (gaps.length > 0) throw new Error('the recording has a gap (the disk fell behind); run again');
    const cut = cutAt(events);
    if (cut === undefined) throw new Error('the recording misses the injected 410 or the closed watch; run again');
    const kept = events.filter((e) => e.seq <= cut);
    if (kept.length > MAX_EVENTS)
      throw new Error(`${kept.length} events until every situation was seen (limit ${MAX_EVENTS}): shorten the script`);
    const text = `${[header, ...states.slice(0, 1), ...kept].map((l) => JSON.stringify(l)).join('\n')}\n`;
    if (Buffer.byteLength(text) > MAX_BYTES)
      throw new Error(`the recording is ${Buffer.byteLength(text)} bytes (limit ${MAX_BYTES}): shorten the script`);
    writeFileSync(OUT, text);
    console.log(`${OUT}: ${kept.length} events, ${statSync(OUT).size} bytes`);
  } finally {
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
