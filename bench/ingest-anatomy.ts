// Where an ingest peer's time goes, beyond the bench's wall and CPU figures: each peer of bench/ingest-peer.ts in
// a fresh process against one bytes-server, interleaved, with the main thread's CPU and its wait for a core, the
// other threads' CPU (V8's collector helpers and optimising compiler), and the young-generation collections
// (count, main-thread pause, bytes promoted) of the measured span only. Medians of the repetitions.
//   npx tsx bench/ingest-anatomy.ts [--reps 7] [--pods 5000] [--events 10000] [--managed-fields]
//     [--v8 "--single-threaded-gc"] [peer ...]        (default peers: floor-lines transport ours client-node)
// --v8 passes V8 flags to the peers, for diagnosis only (--single-threaded-gc leaves the optimising compiler as the
// only other thread; --single-threaded puts all work on one thread). Linux only (/proc/self/task/*/schedstat).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './harness';
import { startBytesServer } from './ingest';
import { parseAnatomy, type Anatomy } from './ingest-anatomy-parse';
import { render } from './table';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function runPeer(peer: string, url: string, pods: number, events: number, v8: string[]): Promise<Anatomy> {
  const args = [
    '--expose-gc',
    '--trace-gc-nvp',
    ...v8,
    '--import',
    'tsx',
    '--import',
    './bench/ingest-anatomy-preload.ts',
    'bench/ingest-peer.ts',
    peer,
    url,
    String(pods),
    String(events),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 180_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${peer}: ${err.message}\n${stderr}`));
      try {
        resolve(parseAnatomy(stdout));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

async function main(): Promise<void> {
  const reps = Number(arg('--reps') ?? 7);
  const pods = Number(arg('--pods') ?? 5000);
  const events = Number(arg('--events') ?? 10_000);
  const v8 = (arg('--v8') ?? '').split(' ').filter(Boolean);
  const valued = new Set(['--reps', '--pods', '--events', '--v8']);
  const peers = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !valued.has(all[i - 1] ?? ''));
  const chosen = peers.length > 0 ? peers : ['floor-lines', 'transport', 'ours', 'client-node'];
  const managedFields = process.argv.includes('--managed-fields');
  const server = await startBytesServer({ pods, events, reps }, managedFields, undefined);
  const runs = new Map<string, Anatomy[]>(chosen.map((p) => [p, []]));
  try {
    for (let r = 0; r < reps; r++) {
      for (const p of chosen) runs.get(p)!.push(await runPeer(p, server.url, pods, events, v8));
    }
  } finally {
    server.stop();
  }
  const med = (xs: Anatomy[], k: keyof Anatomy): string =>
    median(xs.map((x) => x[k])).toFixed(k === 'scavenges' ? 0 : 1);
  const keys: (keyof Anatomy)[] = [
    'ms',
    'cpuMs',
    'mainCpuMs',
    'mainWaitMs',
    'otherThreadsCpuMs',
    'loopIdleMs',
    'scavenges',
    'scavengePauseMs',
    'promotedMB',
  ];
  process.stdout.write(
    `${pods} Pods + ${events} events, ${managedFields ? 'with' : 'without'} managedFields, V8 flags: ` +
      `${v8.join(' ') || 'none'}; medians of ${reps}, each peer in its own process:\n\n`,
  );
  const headers = ['peer', 'wall ms', 'CPU ms', 'main CPU', 'main waits', 'other threads CPU', 'loop idle'];
  process.stdout.write(
    `${render(
      [...headers, 'scavenges', 'scavenge pause', 'promoted MB'],
      chosen.map((p) => [p, ...keys.map((k) => med(runs.get(p)!, k))]),
      new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]),
    )}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
