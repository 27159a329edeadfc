// A quick look at the Recorder's CPU per event on the informer→workqueue pipeline, for profiling one change at
// a time (`node --import tsx --expose-gc --cpu-prof --cpu-prof-interval 100 bench/recorder-profile.ts [reps]`):
// the same shape as the probe-cost row (5k pods + 25k updates), a probe that drops events and the Recorder as
// the composition root wires it, taking turns. The official figures are `bench/run.ts --only probe`.
import type { KubeObject } from '../shared/models/object';
import { Recorder } from '../server/dashboard';
import type { CacheStore } from '../server/runtime/cache';
import type { Probe } from '../server/runtime';
import { median, settle } from './harness';
import { runInformerOnce } from './informer';
import type { Shape } from './shapes';

const shape = { pods: 5000, updates: 25_000 } as Shape;
const reps = Number(process.argv[2] ?? 5);
const only = process.argv[3];

class DroppingProbe implements Probe {
  readonly enabled = true;
  events = 0;
  emit(): void {
    this.events++;
  }
}

async function once(kind: 'drop' | 'recorder'): Promise<{ cpuMs: number; events: number }> {
  await settle();
  if (kind === 'drop') {
    const probe = new DroppingProbe();
    const s = await runInformerOnce(shape, { withQueue: true, measureHeap: false, probe });
    return { cpuMs: s.cpuMs ?? s.ms, events: probe.events };
  }
  let store: CacheStore<KubeObject> | undefined;
  const recorder = new Recorder({
    objectSource: { get: (_g, ns, n) => store?.getByKey(ns ? `${ns}/${n}` : n) },
    trustedEmits: true,
  });
  const s = await runInformerOnce(shape, {
    withQueue: true,
    measureHeap: false,
    probe: recorder,
    onStore: (st) => (store = st),
  });
  recorder.close();
  return { cpuMs: s.cpuMs ?? s.ms, events: recorder.seq };
}

const drop: number[] = [];
const rec: number[] = [];
let events = 0;
for (let r = 0; r <= reps; r++) {
  const d = only === 'recorder' ? undefined : await once('drop');
  const x = await once('recorder');
  if (r === 0) continue; // warm-up
  if (d) drop.push(d.cpuMs);
  rec.push(x.cpuMs);
  events = x.events;
}
const dm = drop.length ? median(drop) : 0;
const rm = median(rec);
const min = (xs: number[]): number => Math.min(...xs);
console.log(
  `events ${events}; CPU ms median/min: dropping ${dm.toFixed(0)}/${drop.length ? min(drop).toFixed(0) : '-'}, ` +
    `recorder ${rm.toFixed(0)}/${min(rec).toFixed(0)}; recorder over dropping ${(((rm - dm) * 1000) / events).toFixed(2)} µs/event`,
);
