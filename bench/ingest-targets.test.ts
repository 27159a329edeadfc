import { describe, expect, it } from 'vitest';
import type { IngestResult } from './ingest-peer-result';
import { ingestTargets, meanPodJsonBytes } from './ingest-targets';
import { realisticPod, realisticWidget } from './realistic-objects';

const fig = (peer: string, ms: number, retained?: number): IngestResult => ({
  peer,
  events: 100,
  ms,
  cpuMs: ms,
  peakRssMB: 1,
  ...(retained !== undefined ? { retainedBytesPerObject: retained } : {}),
});

describe('realistic objects', () => {
  it('the same index and seed give the same bytes; another seed gives others', () => {
    expect(JSON.stringify(realisticPod(7, 1))).toBe(JSON.stringify(realisticPod(7, 1)));
    expect(JSON.stringify(realisticWidget(7, 1))).toBe(JSON.stringify(realisticWidget(7, 1)));
    expect(JSON.stringify(realisticPod(7, 1, true, 2))).not.toBe(JSON.stringify(realisticPod(7, 1)));
  });

  it('Pods are 3–8 KB of JSON with managedFields, and dropping them leaves everything else', () => {
    for (let i = 0; i < 300; i++) {
      const bytes = Buffer.byteLength(JSON.stringify(realisticPod(i, i + 1)));
      expect(bytes).toBeGreaterThanOrEqual(3 * 1024);
      expect(bytes).toBeLessThanOrEqual(8 * 1024);
      const without = realisticPod(i, i + 1, false) as { metadata: Record<string, unknown> };
      expect(without.metadata['managedFields']).toBeUndefined();
      const withMF = realisticPod(i, i + 1) as { metadata: Record<string, unknown> };
      delete withMF.metadata['managedFields'];
      expect(withMF).toEqual(without);
    }
    expect(meanPodJsonBytes(50, true)).toBeGreaterThan(meanPodJsonBytes(50, false));
  });
});

describe('ingestTargets', () => {
  it('judges speed as peer time over ours and retained heap against the JSON size', () => {
    const peers = new Map(
      [fig('ours', 100, 900), fig('client-node', 200), fig('client-go', 120), fig('floor', 40)].map((f) => [f.peer, f]),
    );
    const t = ingestTargets(peers, 1000, 'x');
    expect(t.map((x) => [x.value, x.met])).toEqual([
      [2, true],
      [1.2, false],
      [0.4, false],
      [900, true],
    ]);
  });

  it('prefers the strip-transform figure for retained heap, and leaves absent peers unjudged', () => {
    const peers = new Map([fig('ours', 100, 2000), fig('ours-strip', 100, 800)].map((f) => [f.peer, f]));
    const t = ingestTargets(peers, 1000, 'x');
    expect(t[0]!.met).toBeUndefined();
    expect(t[1]).toMatchObject({ what: 'x, strip transform: ours vs client-node (events/s)', met: undefined });
    expect(t[4]).toMatchObject({ value: 800, met: true });
  });

  it('judges the strip transform against client-node beside the default path, each on its own figure', () => {
    const peers = new Map([fig('ours', 100), fig('ours-strip', 60), fig('client-node', 120)].map((f) => [f.peer, f]));
    const t = ingestTargets(peers, 1000, 'with managedFields');
    expect(t.slice(0, 2)).toEqual([
      { what: 'with managedFields: ours vs client-node (events/s)', value: 1.2, goal: '≥ 1.5×', met: false },
      {
        what: 'with managedFields, strip transform: ours vs client-node (events/s)',
        value: 2,
        goal: '≥ 1.5×',
        met: true,
      },
    ]);
  });

  it('judges retained heap on the compact cache (strip and intern) when it ran', () => {
    const peers = new Map(
      [fig('ours', 100, 2000), fig('ours-strip', 100, 1200), fig('ours-compact', 100, 900)].map((f) => [f.peer, f]),
    );
    expect(ingestTargets(peers, 1000, 'x')[4]).toMatchObject({
      what: 'x: retained heap per object (ours-compact)',
      value: 900,
      met: true,
    });
  });

  it('judges retained heap on the lean cache (strip, intern and share subtrees) when it ran', () => {
    const peers = new Map(
      [fig('ours', 100, 2000), fig('ours-compact', 100, 1100), fig('ours-lean', 100, 800)].map((f) => [f.peer, f]),
    );
    expect(ingestTargets(peers, 1000, 'x').find((t) => t.what.includes('retained'))).toMatchObject({
      what: 'x: retained heap per object (ours-lean)',
      value: 800,
      met: true,
    });
  });
});
