// Workload 4: what the probe seam costs. The same workqueue and informer→workqueue pipeline run with
// NOOP_PROBE (nobody listens), with a disabled probe that counts emit calls (must stay 0), with an enabled probe
// that drops every event (the cost of building events), and with the dashboard Recorder (stamping, ring,
// reducer, per-object versions), both with no browser connected and with one.
// Variants take turns within each repetition so a change in machine load hits all of them alike.
import type { KubeObject } from '../shared/models/object';
import { Recorder } from '../server/dashboard/recorder/recorder';
import type { CacheStore } from '../server/runtime/cache';
import { NOOP_PROBE, type Probe } from '../server/runtime/instrumentation/probe';
import { median, settle, type Figure, type Sample } from './harness';
import { runInformerOnce } from './informer';
import type { Shape } from './shapes';
import { runQueueOnce } from './workqueue';

/** Enabled, so every guarded emit site builds its event, which is then dropped. */
class DroppingProbe implements Probe {
  readonly enabled = true;
  events = 0;
  emit(): void {
    this.events++;
  }
}

/**
 * Disabled, yet counts emit calls: every emit site is meant to be guarded by `if (probe.enabled)`, so this
 * must stay at zero. A non-zero count names an unguarded site that builds events nobody asked for.
 */
class DisabledCountingProbe implements Probe {
  readonly enabled = false;
  events = 0;
  emit(): void {
    this.events++;
  }
}

interface Harness {
  probe: Probe;
  /** Lets the recorder read the informer's cached objects, as the composition root wires it. */
  onStore?: (store: CacheStore<KubeObject>) => void;
  /** Events the probe received, when it counts them. */
  events?: () => number;
  close?: () => void;
}

interface Variant {
  name: string;
  /** Whether the probe is enabled, i.e. events are built. */
  listens: boolean;
  make: () => Harness;
}

const VARIANTS: Variant[] = [
  { name: 'NOOP_PROBE', listens: false, make: () => ({ probe: NOOP_PROBE }) },
  {
    name: 'disabled, counts emit calls',
    listens: false,
    make: () => {
      const probe = new DisabledCountingProbe();
      return { probe, events: () => probe.events };
    },
  },
  {
    name: 'enabled, drops events',
    listens: true,
    make: () => {
      const probe = new DroppingProbe();
      return { probe, events: () => probe.events };
    },
  },
  {
    name: 'Recorder, no browser connected',
    listens: true,
    make: () => recorderHarness(0),
  },
  {
    name: 'Recorder, one browser connected',
    listens: true,
    make: () => recorderHarness(1),
  },
  {
    name: 'Recorder, ten browsers connected',
    listens: true,
    make: () => recorderHarness(10),
  },
];

/**
 * The dashboard Recorder wired as the composition root does (reading the informer's cache for object
 * versions). Each of `browsers` batch listeners stands in for a connected browser; the transport's own cost
 * is not measured here.
 */
function recorderHarness(browsers: number): Harness {
  let store: CacheStore<KubeObject> | undefined;
  const recorder = new Recorder({
    objectSource: { get: (_gvk, ns, name) => store?.getByKey(ns ? `${ns}/${name}` : name) },
  });
  for (let i = 0; i < browsers; i++) recorder.onBatch(() => {});
  return {
    probe: recorder,
    onStore: (s) => (store = s),
    events: () => recorder.seq,
    close: () => recorder.close(),
  };
}

interface Workload {
  label: string;
  ops: number;
  once: (h: Harness) => Promise<Sample>;
}

async function runVariant(w: Workload, v: Variant): Promise<Sample & { events?: number }> {
  await settle();
  const h = v.make();
  try {
    const s = await w.once(h);
    return { ...s, ...(h.events ? { events: h.events() } : {}) };
  } finally {
    h.close?.();
  }
}

export async function benchProbeCost(s: Shape): Promise<Figure[]> {
  const queueShape: Shape = { ...s, queueRounds: s.probeQueueRounds };
  const informerShape: Shape = { ...s, pods: s.probePods, updates: s.probeUpdates };
  const workloads: Workload[] = [
    {
      label: 'workqueue add/get/done (dedup)',
      ops: s.queueKeys * s.probeQueueRounds * s.queueDup,
      once: (h) => runQueueOnce(queueShape, h.probe),
    },
    {
      label: `informer→workqueue ${s.probePods / 1000}k + ${s.probeUpdates / 1000}k updates`,
      ops: s.probePods + s.probeUpdates,
      once: (h) =>
        runInformerOnce(informerShape, {
          probe: h.probe,
          withQueue: true,
          ...(h.onStore ? { onStore: h.onStore } : {}),
        }),
    },
  ];
  const out: Figure[] = [];
  for (const w of workloads) {
    for (const v of VARIANTS) await runVariant(w, v); // warm-up
    const samples = VARIANTS.map(() => [] as (Sample & { events?: number })[]);
    for (let r = 0; r < s.probeReps; r++) {
      for (const [i, v] of VARIANTS.entries()) samples[i]!.push(await runVariant(w, v));
    }
    const medians = samples.map((list) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!);
    const cpuMedians = samples.map((list) => median(list.map((x) => x.cpuMs ?? x.ms)));
    // Compared on CPU time: on a shared machine it moves far less than wall time.
    const baseline = cpuMedians[0]!;
    for (const [i, v] of VARIANTS.entries()) {
      const m = medians[i]!;
      const cpu = cpuMedians[i]!;
      const last = samples[i]!.at(-1)!;
      const notes: string[] = [];
      if (i > 0) {
        const pct = ((cpu - baseline) / baseline) * 100;
        notes.push(`${pct >= 0 ? '+' : ''}${pct.toFixed(0)}% CPU vs NOOP_PROBE`);
      }
      if (m.events !== undefined && !v.listens) notes.push(`${m.events} emit calls (must be 0)`);
      if (m.events !== undefined && v.listens) {
        notes.push(`${m.events} events`);
        if (m.events > 0) notes.push(`${(((cpu - baseline) * 1000) / m.events).toFixed(2)} µs CPU/event`);
        // What the Recorder's ring (and version history) holds per event, over the NOOP_PROBE heap.
        const base = samples[0]!.at(-1)!.heapMB;
        if (m.events > 0 && v.name.startsWith('Recorder') && last.heapMB !== undefined && base !== undefined)
          notes.push(`${(((last.heapMB - base) * (1 << 20)) / m.events).toFixed(0)} B held per event`);
      }
      out.push({
        bench: `probe cost: ${w.label} — ${v.name}`,
        impl: 'ours',
        ops: w.ops,
        ms: m.ms,
        cpuMs: cpu,
        opsPerSec: w.ops / (m.ms / 1000),
        ...(last.heapMB !== undefined ? { heapMB: last.heapMB } : {}),
        reps: s.probeReps,
        note: notes.join(', '),
      });
    }
  }
  return out;
}
