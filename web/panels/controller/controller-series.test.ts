import { describe, expect, it } from 'vitest';
import { emptyHistogram } from '../../../shared/protocol/view';
import type { ControllerView } from '../../../shared/protocol/view';
import { recordedView } from '../../fixtures/recorded-view';
import {
  handlerRows,
  histogramBars,
  histogramQuantile,
  outcomeRows,
  throughputSeries,
  workerRows,
} from './controller-series';

function histogramOf(seconds: number[]) {
  const h = emptyHistogram();
  for (const s of seconds) {
    let i = h.buckets.findIndex((b) => s <= b);
    if (i < 0) i = h.buckets.length;
    h.counts[i] = (h.counts[i] ?? 0) + 1;
    h.sum += s;
    h.count++;
  }
  return h;
}

describe('histogramQuantile', () => {
  it('is undefined with no observations', () => {
    expect(histogramQuantile(emptyHistogram(), 0.5)).toBeUndefined();
  });

  it('interpolates inside the bucket holding the rank, as Prometheus does', () => {
    // 10 observations, all in (0.01, 0.025]: the median sits halfway through that bucket.
    const h = histogramOf(new Array(10).fill(0.02));
    expect(histogramQuantile(h, 0.5)).toBeCloseTo(0.0175, 6);
    expect(histogramQuantile(h, 1)).toBeCloseTo(0.025, 6);
  });

  it('reports the highest finite bound for observations beyond it', () => {
    expect(histogramQuantile(histogramOf([120]), 0.99)).toBe(60);
  });
});

describe('histogramBars', () => {
  it('labels buckets in controller-runtime bounds and trims the empty tail', () => {
    const bars = histogramBars(histogramOf([0.003, 0.2, 0.2]));
    expect(bars[0]).toMatchObject({ label: '5ms', count: 1 });
    expect(bars.find((b) => b.label === '200ms')?.count).toBe(2);
    expect(bars.length).toBe(12);
  });
});

describe('controller builders over a recorded session', () => {
  const view = recordedView();
  const flaky = view.controllers['flaky'] as ControllerView;

  it('breaks reconciles down by every outcome, errors included', () => {
    const rows = outcomeRows(flaky);
    expect(rows.map((r) => r.label)).toEqual(['success', 'requeue', 'requeueAfter', 'error', 'terminalError', 'panic']);
    expect(rows.find((r) => r.label === 'error')?.value).toBeGreaterThan(0);
    expect(rows.reduce((s, r) => s + r.value, 0)).toBe(flaky.totalReconciles);
  });

  it('lists every worker, busy or idle, by number', () => {
    const rows = workerRows(flaky, view.lastTs);
    expect(rows.map((r) => r.worker)).toEqual([...Array(flaky.workers).keys()]);
  });

  it('turns the series into chart points with mean durations', () => {
    const pts = throughputSeries(flaky);
    expect(pts.length).toBe(flaky.series.length);
    expect(pts.some((p) => (p.meanMs ?? 0) > 0)).toBe(true);
  });

  it('summarises handlers', () => {
    expect(handlerRows(flaky)[0]).toMatchObject({ handler: 'EnqueueRequestForObject' });
  });
});
