import { describe, expect, it } from 'vitest';
import { recordedView } from '../../fixtures/recorded-view';
import { latestJourney } from './learn-series';

describe('latestJourney', () => {
  const view = recordedView();

  it('follows one object from the watch event to the end of its reconcile, in order', () => {
    const j = latestJourney(view.log, 'pod-counter');
    expect(j).toBeDefined();
    const blocks = j?.steps.map((s) => s.block) ?? [];
    expect(blocks[0]).toBe('Reflector');
    const order = ['Reflector', 'DeltaFIFO', 'Indexer', 'Informer', 'Handler', 'Workqueue', 'Worker', 'Reconciler'];
    let last = -1;
    for (const b of order) {
      const i = blocks.indexOf(b as (typeof blocks)[number]);
      expect(i, b).toBeGreaterThan(last);
      last = i;
    }
    // In seq order, except the watch event and the handler's report, which the runtime emits after the
    // delta and the add they caused and the journey tells first.
    const rest = j?.steps.filter((s, i) => i > 0 && s.block !== 'Handler') ?? [];
    expect(rest.every((s, i, a) => i <= 1 || (a[i - 1]?.seq ?? 0) < s.seq)).toBe(true);
  });

  it('starts from the watch event when the reflector reports it after queueing its delta, as the runtime does', () => {
    // Move every watch event to just after the delta it caused, and drop the pops (RealFIFO reports none
    // per key in this order).
    const log = view.log.filter((e) => e.kind !== 'fifo.pop');
    for (let i = 0; i < log.length; i++) {
      const ev = log[i];
      if (ev?.kind !== 'reflector.event') continue;
      const j = log.findIndex((e, k) => k > i && e.kind === 'fifo.delta');
      if (j < 0) continue;
      log.splice(i, 1);
      log.splice(j, 0, ev);
    }
    const j = latestJourney(log, 'pod-counter');
    expect(j?.steps[0]?.block).toBe('Reflector');
    expect(j?.steps[1]?.block).toBe('DeltaFIFO');
  });

  it('only includes events of the chosen controller', () => {
    const j = latestJourney(view.log, 'pod-counter');
    for (const s of j?.steps ?? []) expect(s.text).not.toMatch(/^(flaky|hot-loop):/);
  });

  it('passes over skipped (hot-looping) keys', () => {
    const j = latestJourney(view.log, 'hot-loop', new Set(['default/web-001']));
    expect(j?.key).not.toBe('default/web-001');
  });

  it('is undefined before any reconcile ended', () => {
    expect(latestJourney([])).toBeUndefined();
  });
});
