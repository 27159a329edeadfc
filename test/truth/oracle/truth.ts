// Ground truth for one oracle run, gathered outside the probe stream: each controller process's own log of
// its writes and reconciles, the workload's log of its writes, the API server's watch, and what the
// harness itself did to the processes (started, killed, which one was elected).
import { existsSync, readFileSync } from 'node:fs';
import type { TruthRecord } from './behaviour';
import type { ExternalWrite } from '../workload/driver';
import type { ServerWatch } from './server-watch';

export type TruthWrite = Extract<TruthRecord, { kind: 'write' }> & { process: string };
export type TruthReconcile = Extract<TruthRecord, { kind: 'reconcile' }> & { process: string };

export interface ProcessTruth {
  identity: string;
  alive: boolean;
  /** When it last logged that it was elected leader (ms), if it was. */
  electedAt?: number;
}

export interface Truth {
  controller: string;
  /** The namespaces this run's objects live in: only their keys are checked. */
  namespaces: ReadonlySet<string>;
  writes: TruthWrite[];
  reconciles: TruthReconcile[];
  external: ExternalWrite[];
  server: ServerWatch;
  /** Attached processes (Go), as the harness knows them; absent for the in-process TypeScript run. */
  processes?: ProcessTruth[];
}

/** Reads a controller process's truth log (JSON lines), tagging each record with the process. */
export function readTruthLog(file: string, process: string): TruthRecord[] {
  if (!existsSync(file)) return [];
  const out: TruthRecord[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    // A process killed mid-line leaves a torn last line: it recorded nothing the oracle can use.
    try {
      out.push({ ...(JSON.parse(line) as TruthRecord), process } as TruthRecord);
    } catch {
      continue;
    }
  }
  return out;
}

/** The generation of the newest setup record (the controller run that is current), if any. */
export function newestGeneration(records: readonly TruthRecord[]): string | undefined {
  let newest: { generation: string; ts: number } | undefined;
  for (const r of records) if (r.kind === 'setup' && (!newest || r.ts >= newest.ts)) newest = r;
  return newest?.generation;
}

/** Splits records into writes and reconciles, each tagged with its process. */
export function sortRecords(records: readonly (TruthRecord & { process?: string })[]): {
  writes: TruthWrite[];
  reconciles: TruthReconcile[];
} {
  const writes: TruthWrite[] = [];
  const reconciles: TruthReconcile[] = [];
  for (const r of records) {
    const process = r.process ?? '';
    if (r.kind === 'write') writes.push({ ...r, process });
    else if (r.kind === 'reconcile') reconciles.push({ ...r, process });
  }
  return { writes, reconciles };
}

/** The processes whose writes are this dashboard controller's own: its lane's, or every one without lanes. */
export function ownProcess(lane: string | undefined): (process: string) => boolean {
  return (p) => lane === undefined || p === lane;
}
