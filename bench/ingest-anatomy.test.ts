import { describe, expect, it } from 'vitest';
import { parseAnatomy } from './ingest-anatomy-parse';

const gc = (isolate: string, type: string, pause: number, promoted: number): string =>
  `[1:${isolate}]  12 ms: pause=${pause} mutator=1.0 gc=${type} scavenge=0.4 promoted=${promoted} new_space_survived=9`;

describe('parseAnatomy', () => {
  it("counts only the main isolate's scavenges inside the measured span", () => {
    const out = [
      'ANATOMY main isolate',
      gc('0xmain', 'mc', 5, 0),
      gc('0xloader', 's', 7, 1_000_000),
      gc('0xmain', 's', 1, 1_000_000),
      'ANATOMY begin',
      gc('0xmain', 's', 2.5, 2_000_000),
      gc('0xloader', 's', 9, 9_000_000),
      gc('0xmain', 'mc', 30, 0),
      gc('0xmain', 's', 1.5, 500_000),
      'ANATOMY end {"mainCpuMs":300,"mainWaitMs":20,"otherThreadsCpuMs":100,"otherThreadsWaitMs":5,"loopIdleMs":0.5}',
      gc('0xmain', 's', 4, 4_000_000),
      '{"peer":"ours","events":15000,"ms":380,"cpuMs":540,"peakRssMB":270}',
    ].join('\n');
    expect(parseAnatomy(out)).toEqual({
      ms: 380,
      cpuMs: 540,
      mainCpuMs: 300,
      mainWaitMs: 20,
      otherThreadsCpuMs: 100,
      loopIdleMs: 0.5,
      scavenges: 2,
      scavengePauseMs: 4,
      promotedMB: 2.5,
    });
  });

  it('says so when a peer printed no figures', () => {
    expect(() => parseAnatomy('Error: connect ECONNREFUSED')).toThrow(/printed no figures/);
  });
});
