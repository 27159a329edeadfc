import { describe, expect, it } from 'vitest';
import { latencyStats, latencyVerdict, percentile, type LatencySample } from './latency-stats';

const sample = (sent: number, latency: number, waited = 0): LatencySample => ({
  sent,
  reconciled: sent + latency,
  waited,
});

describe('write → reconcile row figures', () => {
  it('the p99 of 1,000 samples is the tenth slowest, not the slowest', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => sample(i * 10, i + 1));
    const s = latencyStats(samples, []);
    expect(s.p50).toBe(501);
    expect(s.p99).toBe(991);
    expect(s.max).toBe(1000);
    expect(percentile([], 99)).toBeNaN();
  });

  it('takes each sample less the CPU wait it went through, never below zero', () => {
    const samples = [...Array.from({ length: 99 }, (_, i) => sample(i * 10, 1)), sample(2000, 40, 38)];
    const s = latencyStats(samples, []);
    expect(s.max).toBe(40);
    expect(s.p99LessWait).toBe(2);
    expect(latencyStats([sample(0, 3, 10)], []).p99LessWait).toBe(0);
  });

  it('counts the slow samples a GC pause overlapped', () => {
    const samples = [sample(0, 10), sample(100, 10), sample(200, 1)];
    const s = latencyStats(samples, [
      { start: 105, end: 107 },
      { start: 200, end: 201 },
    ]);
    expect(s.slow).toBe(2);
    expect(s.slowDuringGc).toBe(1);
  });

  it('judges only the sandbox rows at 100 writes/s, against 5 ms', () => {
    expect(latencyVerdict('sandbox-in-process', 100, 5)).toBe(true);
    expect(latencyVerdict('sandbox-own-process', 100, 5.01)).toBe(false);
    expect(latencyVerdict('sandbox-in-process', 1000, 1)).toBeUndefined();
    expect(latencyVerdict('kube-apiserver', 100, 1)).toBeUndefined();
  });
});
