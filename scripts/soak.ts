// `npm run soak -- --minutes N [--every S]`: the whole product under steady churn (sandbox with its workload,
// the four example controllers, the recorder, the dashboard) with one socket client reducing the stream as
// the browser does. Prints, every S seconds, RSS, heap used after a GC and the heap V8 holds, external and
// ArrayBuffer memory (so heap, Buffer and native growth can be told apart), event-loop delay (p50/p99/max),
// the recorder's ring (events held, and their JSON size) and the client's view size; memory must level off
// once the bounded rings are full. Ends with the first and last readings and the growth between the second half's first and last.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runApp } from '../server/main';
import { LoopbackClient } from '../test/loopback/loopback-client';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, every: { type: 'string', default: '30' } },
});
const minutes = Number(values.minutes);
const every = Number(values.every);
if (!(minutes > 0) || !(every > 0)) throw new Error('--minutes and --every take positive numbers');

const gc = (globalThis as { gc?: () => void }).gc;
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
const client = new LoopbackClient(app.url);
await client.connect();
await client.hello();
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();

interface Reading {
  t: number;
  rssMb: number;
  heapMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  p50: number;
  p99: number;
  max: number;
  ring: number;
  ringMb: number;
  events: number;
  viewKb: number;
}
const readings: Reading[] = [];
const mb = (n: number): number => Math.round((n / 1024 / 1024) * 10) / 10;
const started = Date.now();
// The ring holds live objects, not bytes; its size is estimated from the JSON of the newest events (a lower
// bound on their heap footprint, good enough to tell whether the ring is what grows).
const ringMbEstimate = (size: number): number => {
  const sample = app.recorder.recentEvents(() => true, 500);
  if (sample.length === 0) return 0;
  const chars = sample.reduce((n, ev) => n + JSON.stringify(ev).length, 0);
  return mb((chars / sample.length) * size);
};
console.log(
  't(s)\trss MB\theap MB\theap total MB\texternal MB\tarrayBuffers MB\tELD p50/p99/max ms\tring events\tring MB (JSON est.)\tevents seen\tclient view KB',
);
for (;;) {
  await new Promise((r) => setTimeout(r, every * 1000));
  gc?.();
  const mem = process.memoryUsage();
  const r: Reading = {
    t: Math.round((Date.now() - started) / 1000),
    rssMb: mb(mem.rss),
    heapMb: mb(mem.heapUsed),
    heapTotalMb: mb(mem.heapTotal),
    externalMb: mb(mem.external),
    arrayBuffersMb: mb(mem.arrayBuffers),
    p50: Math.round(eld.percentile(50) / 1e5) / 10,
    p99: Math.round(eld.percentile(99) / 1e5) / 10,
    max: Math.round(eld.max / 1e5) / 10,
    ring: app.recorder.ringBounds().size,
    ringMb: 0,
    events: app.recorder.seq,
    viewKb: Math.round(JSON.stringify(client.view).length / 1024),
  };
  r.ringMb = ringMbEstimate(r.ring);
  eld.reset();
  readings.push(r);
  console.log(
    `${r.t}\t${r.rssMb}\t${r.heapMb}\t${r.heapTotalMb}\t${r.externalMb}\t${r.arrayBuffersMb}\t${r.p50}/${r.p99}/${r.max}\t${r.ring}\t${r.ringMb}\t${r.events}\t${r.viewKb}`,
  );
  if (Date.now() - started >= minutes * 60_000) break;
}
const half = readings.slice(Math.floor(readings.length / 2));
const a = half[0];
const b = half[half.length - 1];
if (a && b) {
  console.log(
    `second half: heap ${a.heapMb} → ${b.heapMb} MB, external ${a.externalMb} → ${b.externalMb} MB, ` +
      `rss ${a.rssMb} → ${b.rssMb} MB over ${b.t - a.t} s` +
      (gc ? '' : ' (no --expose-gc: heap figures include garbage)'),
  );
}
client.close();
await app.stop();
process.exit(0);
