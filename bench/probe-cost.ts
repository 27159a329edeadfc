// Workload 4: what the probe seam costs. The same workqueue and informer→workqueue pipeline run with
// NOOP_PROBE (nobody listens), with an enabled probe that drops every event (the cost of building events),
// and with the dashboard Recorder (stamping, ring, reducer, per-object versions, one batch listener).
import type { KubeObject } from '../shared/models/object';
import { Recorder } from '../server/dashboard/recorder/recorder';
import type { CacheStore } from '../server/runtime/cache';
import { NOOP_PROBE, type Probe } from '../server/runtime/instrumentation/probe';
import { measure, type Figure } from './harness';
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

interface Variant {
  name: string;
  /** A fresh probe per run; the store hook lets the recorder read cached objects as the dashboard does. */
  make: () => { probe: Probe; onStore?: (store: CacheStore<KubeObject>) => void; close?: () => void };
}

const VARIANTS: Variant[] = [
  { name: 'NOOP_PROBE', make: () => ({ probe: NOOP_PROBE }) },
  { name: 'enabled, drops events', make: () => ({ probe: new DroppingProbe() }) },
  {
    name: 'dashboard Recorder',
    make: () => {
      let store: CacheStore<KubeObject> | undefined;
      const recorder = new Recorder({
        objectSource: { get: (_gvk, ns, name) => store?.getByKey(ns ? `${ns}/${name}` : name) },
      });
      // One subscriber, as a connected browser would be; the transport's own cost is not measured here.
      recorder.onBatch(() => {});
      return {
        probe: recorder,
        onStore: (s) => (store = s),
        close: () => recorder.close(),
      };
    },
  },
];

export async function benchProbeCost(s: Shape): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const [workload, ops, once] of [
    [
      'workqueue add/get/done (dedup)',
      s.queueKeys * s.queueRounds * s.queueDup,
      (p: Probe, onStore?: (st: CacheStore<KubeObject>) => void) => {
        void onStore;
        return runQueueOnce(s, p);
      },
    ],
    [
      `informer→workqueue ${s.pods / 1000}k + ${s.updates / 1000}k updates`,
      s.pods + s.updates,
      (p: Probe, onStore?: (st: CacheStore<KubeObject>) => void) =>
        runInformerOnce(s, { probe: p, withQueue: true, ...(onStore ? { onStore } : {}) }),
    ],
  ] as const) {
    let baseline: number | undefined;
    for (const v of VARIANTS) {
      const f = await measure(`probe cost: ${workload} — ${v.name}`, ops, s.reps, async () => {
        const { probe, onStore, close } = v.make();
        try {
          return await once(probe, onStore);
        } finally {
          close?.();
        }
      });
      baseline ??= f.ms;
      if (f.ms !== baseline)
        f.note = `${f.ms >= baseline ? '+' : ''}${(((f.ms - baseline) / baseline) * 100).toFixed(0)}% time vs NOOP_PROBE`;
      out.push(f);
    }
  }
  return out;
}
