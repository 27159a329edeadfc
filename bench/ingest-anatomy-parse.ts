// Reads one bench/ingest-peer.ts process's output when bench/ingest-anatomy.ts ran it: the peer's JSON line, the
// span figures bench/ingest-anatomy-preload.ts printed, and V8's --trace-gc-nvp lines of the main isolate that fall
// inside the measured span.
import type { IngestResult } from './ingest-peer-result';

export interface Anatomy {
  ms: number;
  cpuMs: number;
  mainCpuMs: number;
  mainWaitMs: number;
  otherThreadsCpuMs: number;
  loopIdleMs: number;
  scavenges: number;
  scavengePauseMs: number;
  promotedMB: number;
}

const field = (line: string, key: string): number => Number(new RegExp(`(?:^| )${key}=([0-9.]+)`).exec(line)?.[1] ?? 0);

/** The span's figures from one peer process's output (its JSON line, the preload's marks, V8's GC lines). */
export function parseAnatomy(stdout: string): Anatomy {
  const lines = stdout.split('\n');
  const result = JSON.parse(lines.find((l) => l.startsWith('{')) ?? 'null') as IngestResult | null;
  const endLine = lines.find((l) => l.startsWith('ANATOMY end '));
  if (!result || !endLine) throw new Error(`a peer printed no figures:\n${stdout.slice(-2000)}`);
  const span = JSON.parse(endLine.slice('ANATOMY end '.length)) as Omit<Anatomy, 'ms' | 'cpuMs' | 'scavenges'>;
  const isolateOf = (l: string): string => l.slice(0, l.indexOf(']'));
  const markAt = lines.indexOf('ANATOMY main isolate');
  const mainIsolate = isolateOf(lines.slice(markAt).find((l) => l.includes(' pause=')) ?? '');
  const begin = lines.indexOf('ANATOMY begin');
  const end = lines.indexOf(endLine);
  const scavenges = lines.slice(begin, end).filter((l) => l.includes(' gc=s ') && isolateOf(l) === mainIsolate);
  return {
    ms: result.ms,
    cpuMs: result.cpuMs,
    mainCpuMs: span.mainCpuMs,
    mainWaitMs: span.mainWaitMs,
    otherThreadsCpuMs: span.otherThreadsCpuMs,
    loopIdleMs: span.loopIdleMs,
    scavenges: scavenges.length,
    scavengePauseMs: scavenges.reduce((a, l) => a + field(l, 'pause'), 0),
    promotedMB: scavenges.reduce((a, l) => a + field(l, 'promoted'), 0) / 1e6,
  };
}
