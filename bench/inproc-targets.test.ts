import { describe, expect, it } from 'vitest';
import type { Figure } from './harness';
import { informerLabel } from './informer';
import { inProcessTargets } from './inproc-targets';
import { QUICK } from './shapes';
import { queueLabel } from './workqueue';

const fig = (bench: string, impl: Figure['impl'], opsPerSec: number, cpuMs: number): Figure => ({
  bench,
  impl,
  ops: 1000,
  ms: 1000 / opsPerSec,
  cpuMs,
  opsPerSec,
  reps: 1,
});

describe('inProcessTargets', () => {
  const inf = informerLabel(QUICK);

  it('judges the workqueue against client-go and the informer against client-go on one core', () => {
    const ours = [fig(queueLabel, 'ours', 30, 10), fig(inf, 'ours', 200, 50)];
    const go = [fig(queueLabel, 'client-go', 20, 12), fig(inf, 'client-go', 400, 60)];
    const oneCore = [fig(queueLabel, 'client-go', 40, 12), fig(inf, 'client-go', 250, 60)];
    const [queue, informer] = inProcessTargets(QUICK, ours, go, oneCore);
    expect(queue).toMatchObject({ value: 1.5, met: true });
    expect(queue?.cpuRatio).toBeCloseTo(1.2);
    expect(informer).toMatchObject({ value: 0.8, met: false });
    expect(informer?.cpuRatio).toBeCloseTo(1.2);
  });

  it('reports wall over CPU time on each side, so a run on busy cores can be told apart', () => {
    const slow = { ...fig(queueLabel, 'ours', 30, 10), ms: 25 };
    const [queue] = inProcessTargets(QUICK, [slow], [fig(queueLabel, 'client-go', 20, 50)], []);
    expect(queue?.wallOverCpu).toEqual([2.5, 1]);
  });

  it('is not measured when a peer did not run', () => {
    const ours = [fig(queueLabel, 'ours', 30, 10), fig(inf, 'ours', 200, 50)];
    for (const t of inProcessTargets(QUICK, ours, [], []))
      expect(t).toMatchObject({ value: undefined, met: undefined });
  });
});
