import { describe, expect, it } from 'vitest';
import type { InformerView } from '../../../shared/protocol/view';
import { newInformer } from '../../../shared/protocol/reduce-informer';
import { recordedView } from '../../fixtures/recorded-view';
import { deltaMix, fifoSeries, pendingRows, recentPops } from './delta-fifo-series';

describe('delta-fifo builders', () => {
  it('lists pending keys head of the queue first, with their age', () => {
    // Synthetic: pending deltas of chosen ages; the recorded FIFO drains within a millisecond of each delta.
    const inf: InformerView = newInformer('v1/Pod', 0);
    const ref = (name: string) => ({ gvk: 'v1/Pod', namespace: 'ns', name });
    inf.pending = {
      'ns/b': { key: 'ns/b', ref: ref('b'), count: 1, types: ['Added'], since: 2000 },
      'ns/a': { key: 'ns/a', ref: ref('a'), count: 3, types: ['Added', 'Updated', 'Updated'], since: 1000 },
    };
    const rows = pendingRows(inf, 5000);
    expect(rows.map((r) => [r.key, r.ageMs])).toEqual([
      ['ns/a', 4000],
      ['ns/b', 3000],
    ]);
  });

  it('counts every delta type, Replaced from lists included', () => {
    const pods = recordedView().informers['v1/Pod'] as InformerView;
    const mix = deltaMix(pods);
    expect(mix.map((m) => m.label)).toEqual(['Added', 'Updated', 'Deleted', 'Replaced', 'Sync']);
    expect(mix.find((m) => m.label === 'Replaced')?.value).toBeGreaterThan(0);
    expect(fifoSeries(pods).length).toBe(pods.series.length);
  });
});

describe('recentPops', () => {
  it('lists the newest pops of one informer first', () => {
    const view = recordedView();
    const pops = recentPops(view.log, 'v1/Pod', 10);
    expect(pops.length).toBeGreaterThan(0);
    expect(pops.every((p, i) => i === 0 || (pops[i - 1]?.seq ?? 0) > p.seq)).toBe(true);
    expect(recentPops(view.log, 'nope')).toEqual([]);
  });
});
