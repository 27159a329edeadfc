// Workload 4: what the probe seam costs. The same workqueue and informer→workqueue pipeline run with
// NOOP_PROBE (nobody listens), with a disabled probe that counts emit calls (must stay 0), with an enabled probe
// that drops every event (the cost of building events), and with the dashboard Recorder (stamping, ring,
// reducer, per-object versions), with no browser connected, one and ten. Three more variants take the
// Recorder apart (a probe that only stamps seq and time; the Recorder with a ring of one event and no object
// versions; the same with versions), so the run also prints where its CPU per event goes.
// Variants take turns within each repetition so a change in machine load hits all of them alike.
// The target (recorder ≤ 1 µs CPU per event on the informer path, memory bounded by a byte budget)
// is printed as met / not met from the same run.
import type { KubeObject } from '../shared/models/object';
import { Recorder, type RecorderOptions } from '../server/dashboard';
import type { CacheStore } from '../server/runtime/cache';
import { NOOP_PROBE, type Probe } from '../server/runtime';
import type { RuntimeEvent, StampedEvent } from '../shared/protocol/events';
import { median, settle, type Figure, type Sample } from './harness';
import type { Target } from './ingest-targets';
import { render } from './table';
import { runInformerOnce } from './informer';
import type { Shape } from './shapes';
import { runQueueOnce } from './workqueue';
import { measureRecorderParts, type RecorderParts } from './recorder-parts';

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

/** Stamps each event in place as the Recorder does (seq, wall-clock time), then drops it. */
class StampingProbe implements Probe {
  readonly enabled = true;
  events = 0;
  emit(event: RuntimeEvent): void {
    const e = event as StampedEvent;
    e.seq = ++this.events;
    e.ts = Date.now();
  }
}

const DROPS = 'enabled, drops events';
const STAMPS = 'enabled, stamps seq and time, drops';
const REDUCES = 'Recorder with a ring of one event, no object versions';
const VERSIONS = 'Recorder with a ring of one event';
const FULL_RECORDER = 'Recorder, no browser connected';

interface Harness {
  probe: Probe;
  /** Lets the recorder read the informer's cached objects, as the composition root wires it. */
  onStore?: (store: CacheStore<KubeObject>) => void;
  /** Events the probe received, when it counts them. */
  events?: () => number;
  /** What the Recorder's ring holds at the end of the run, and its budget. */
  ring?: () => { size: number; bytes: number; maxBytes: number };
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
    name: DROPS,
    listens: true,
    make: () => {
      const probe = new DroppingProbe();
      return { probe, events: () => probe.events };
    },
  },
  {
    name: STAMPS,
    listens: true,
    make: () => {
      const probe = new StampingProbe();
      return { probe, events: () => probe.events };
    },
  },
  { name: REDUCES, listens: true, make: () => recorderHarness(0, { capacity: 1, objectVersions: false }) },
  { name: VERSIONS, listens: true, make: () => recorderHarness(0, { capacity: 1 }) },
  {
    name: FULL_RECORDER,
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
function recorderHarness(browsers: number, opts: RecorderOptions = {}): Harness {
  let store: CacheStore<KubeObject> | undefined;
  const recorder = new Recorder({
    objectSource: { get: (_gvk, ns, name) => store?.getByKey(ns ? `${ns}/${name}` : name) },
    trustedEmits: true,
    ...opts,
  });
  for (let i = 0; i < browsers; i++) recorder.onBatch(() => {});
  return {
    probe: recorder,
    onStore: (s) => (store = s),
    events: () => recorder.seq,
    ring: () => recorder.ringBounds(),
    close: () => recorder.close(),
  };
}

interface Workload {
  label: string;
  ops: number;
  once: (h: Harness) => Promise<Sample>;
  /** Whether the reducer and the ring are also timed alone over this workload's events. */
  parts?: boolean;
}

type ProbeSample = Sample & { events?: number; ring?: { size: number; bytes: number; maxBytes: number } };

async function runVariant(w: Workload, v: Variant): Promise<ProbeSample> {
  await settle();
  const h = v.make();
  try {
    const s = await w.once(h);
    return { ...s, ...(h.events ? { events: h.events() } : {}), ...(h.ring ? { ring: h.ring() } : {}) };
  } finally {
    h.close?.();
  }
}

/** Per-event figures of one Recorder variant, for the target table. */
export interface RecorderCost {
  workload: string;
  variant: string;
  /** CPU per event over NOOP_PROBE: what the process pays with the dashboard up (building events included). */
  usPerEvent: number;
  /** Of which the runtime spends building the events (the probe that drops them). */
  buildUsPerEvent: number;
  /** Bytes per event the ring accounts against its budget, and the heap measured held per event. */
  ringBytesPerEvent?: number;
  heldBytesPerEvent?: number;
  /** The ring's accounted bytes and budget at the end of the run. */
  ringBytes?: number;
  ringBudget?: number;
}

/** Where the Recorder's CPU per event goes on one workload, from the part variants of the same run (µs). */
export interface RecorderBreakdown {
  workload: string;
  building: number;
  stamping: number;
  reducer: number;
  versions: number;
  ring: number;
  total: number;
  /** The reducer and the ring each timed alone over the same events (recorder-parts.ts), when measured. */
  alone?: RecorderParts;
}

export const RECORDER_TARGET_US = 1;
const MiB = 1 << 20;

/** The recorder targets from one run's figures: CPU on the informer path, and the ring's budget. */
export function recorderTargets(costs: readonly RecorderCost[]): Target[] {
  const informer = costs.filter((c) => c.workload.startsWith('informer'));
  const worst = informer.reduce<RecorderCost | undefined>(
    (a, c) => (a && a.usPerEvent >= c.usPerEvent ? a : c),
    undefined,
  );
  const bounded = costs.filter((c) => c.ringBytes !== undefined && c.ringBudget !== undefined);
  return [
    {
      what: 'recorder CPU per event, informer→workqueue (0/1/10 browsers, worst; building events included)',
      value: worst?.usPerEvent,
      goal: `≤ ${RECORDER_TARGET_US} µs`,
      met: worst === undefined ? undefined : worst.usPerEvent <= RECORDER_TARGET_US,
    },
    {
      what: 'recorder memory: ring bytes within its budget at the end of every run',
      value: bounded.length ? Math.max(...bounded.map((c) => c.ringBytes as number)) : undefined,
      goal: bounded[0]?.ringBudget !== undefined ? `≤ ${(bounded[0].ringBudget / MiB).toFixed(0)} MiB` : 'a budget',
      met: bounded.length ? bounded.every((c) => (c.ringBytes as number) <= (c.ringBudget as number)) : undefined,
    },
  ];
}

export function recorderTargetTable(
  costs: readonly RecorderCost[],
  breakdown: readonly RecorderBreakdown[] = [],
): string {
  const rows = recorderTargets(costs).map((t) => [
    t.what,
    t.value === undefined
      ? '–'
      : t.goal.endsWith('µs')
        ? `${t.value.toFixed(2)} µs`
        : `${(t.value / MiB).toFixed(1)} MiB`,
    t.goal,
    t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT MET',
  ]);
  const detail = costs.map((c) => [
    `${c.workload} — ${c.variant}`,
    `${c.usPerEvent.toFixed(2)} µs`,
    `${c.buildUsPerEvent.toFixed(2)} µs`,
    `${(c.usPerEvent - c.buildUsPerEvent).toFixed(2)} µs`,
    c.ringBytesPerEvent === undefined ? '–' : `${c.ringBytesPerEvent.toFixed(0)} B`,
    c.heldBytesPerEvent === undefined ? '–' : `${c.heldBytesPerEvent.toFixed(0)} B`,
  ]);
  const us = (x: number): string => `${x.toFixed(2)} µs`;
  const parts = breakdown.map((b) => [
    b.workload,
    us(b.building),
    us(b.stamping),
    us(b.reducer),
    us(b.versions),
    us(b.ring),
    us(b.total),
  ]);
  const alone = breakdown.flatMap((b) =>
    b.alone
      ? [
          [
            b.workload,
            b.alone.events.toLocaleString('en-US'),
            us(b.building),
            us(b.alone.reducer),
            us(b.alone.reducerAfterGc),
            us(b.alone.ring),
            us(b.building + b.alone.reducer + b.alone.ring),
            us(b.total),
          ],
        ]
      : [],
  );
  return [
    render(['recorder target', 'measured', 'goal', 'verdict'], rows, new Set([1])),
    '',
    render(
      ['recorder per event', 'CPU', 'building events', 'recorder itself', 'ring (budgeted)', 'heap held'],
      detail,
      new Set([1, 2, 3, 4, 5]),
    ),
    ...(parts.length
      ? [
          '',
          render(
            [
              'where a Recorder event goes (no browser)',
              'building',
              'stamping',
              'reducer, batching',
              'object versions',
              'ring',
              'sum',
            ],
            parts,
            new Set([1, 2, 3, 4, 5, 6]),
          ),
        ]
      : []),
    ...(alone.length
      ? [
          '',
          render(
            [
              'each part alone, same events',
              'events',
              'building (above)',
              'shared reducer alone',
              'the same after a full GC',
              'ring alone',
              'sum (warm heap)',
              'the Recorder in the live process (above)',
            ],
            alone,
            new Set([1, 2, 3, 4, 5, 6, 7]),
          ),
        ]
      : []),
  ].join('\n');
}

export async function benchProbeCost(
  s: Shape,
): Promise<{ figures: Figure[]; costs: RecorderCost[]; breakdown: RecorderBreakdown[] }> {
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
      parts: true,
    },
  ];
  const out: Figure[] = [];
  const costs: RecorderCost[] = [];
  const breakdown: RecorderBreakdown[] = [];
  for (const w of workloads) {
    for (const v of VARIANTS) await runVariant(w, v); // warm-up
    const samples = VARIANTS.map(() => [] as ProbeSample[]);
    for (let r = 0; r < s.probeReps; r++) {
      for (const [i, v] of VARIANTS.entries()) samples[i]!.push(await runVariant(w, v));
    }
    const medians = samples.map((list) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!);
    const cpuMedians = samples.map((list) => median(list.map((x) => x.cpuMs ?? x.ms)));
    // Compared on CPU time: on a shared machine it moves far less than wall time.
    const baseline = cpuMedians[0]!;
    const dropping = VARIANTS.findIndex((v) => v.name === DROPS);
    const events = samples[dropping]!.at(-1)!.events ?? 0;
    const cpuOf = (name: string): number => cpuMedians[VARIANTS.findIndex((v) => v.name === name)]!;
    if (events > 0) {
      const per = (a: number, b: number): number => ((a - b) * 1000) / events;
      const alone = w.parts
        ? await measureRecorderParts((probe) => w.once({ probe }), Math.max(3, s.probeReps))
        : undefined;
      breakdown.push({
        workload: w.label,
        building: per(cpuOf(DROPS), baseline),
        stamping: per(cpuOf(STAMPS), cpuOf(DROPS)),
        reducer: per(cpuOf(REDUCES), cpuOf(STAMPS)),
        versions: per(cpuOf(VERSIONS), cpuOf(REDUCES)),
        ring: per(cpuOf(FULL_RECORDER), cpuOf(VERSIONS)),
        total: per(cpuOf(FULL_RECORDER), baseline),
        ...(alone ? { alone } : {}),
      });
    }
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
        const usPerEvent = ((cpu - baseline) * 1000) / m.events;
        if (m.events > 0) notes.push(`${usPerEvent.toFixed(2)} µs CPU/event (target ≤ ${RECORDER_TARGET_US} µs)`);
        // What the Recorder's ring (and version history) holds per event, over the NOOP_PROBE heap.
        const base = samples[0]!.at(-1)!.heapMB;
        const held =
          m.events > 0 && v.name.startsWith('Recorder') && last.heapMB !== undefined && base !== undefined
            ? ((last.heapMB - base) * MiB) / m.events
            : undefined;
        if (held !== undefined) notes.push(`${held.toFixed(0)} B held per event`);
        const ring = last.ring;
        if (ring && ring.size > 0) notes.push(`ring ${(ring.bytes / ring.size).toFixed(0)} B/event (budgeted)`);
        if (v.name.startsWith('Recorder,') && m.events > 0) {
          const build = ((cpuMedians[dropping]! - baseline) * 1000) / (events || m.events);
          costs.push({
            workload: w.label,
            variant: v.name.replace(/^Recorder, /, ''),
            usPerEvent,
            buildUsPerEvent: build,
            ...(ring && ring.size > 0 ? { ringBytesPerEvent: ring.bytes / ring.size } : {}),
            ...(held !== undefined ? { heldBytesPerEvent: held } : {}),
            ...(ring ? { ringBytes: ring.bytes, ringBudget: ring.maxBytes } : {}),
          });
        }
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
  return { figures: out, costs, breakdown };
}
