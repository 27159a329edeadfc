// The Go bridge module's overhead on a real controller-runtime controller: the same loop (events through
// EnqueueRequestForObject, the priority queue, one worker, a reconciler that does nothing) without and with
// the bridge's taps, from the module's Go benchmark (go/overhead_bench_test.go).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Figure } from './harness';

const MODULE = fileURLToPath(new URL('../go', import.meta.url));

function goBinary(): string {
  for (const c of [process.env.GO, '/usr/local/go/bin/go']) if (c && existsSync(c)) return c;
  return 'go';
}

/** Parses `go test -bench` lines: "BenchmarkControllerLoop/plain-2  20000  13926 ns/op  5370 cpu-ns/op  0 dropped". */
export function parseBridgeBench(out: string, reconciles: number): Figure[] {
  const figures: Figure[] = [];
  for (const m of out.matchAll(
    /^BenchmarkControllerLoop\/(plain|bridge)\S*\s+\d+\s+([\d.]+) ns\/op\s+([\d.]+) cpu-ns\/op\s+([\d.]+) dropped/gm,
  )) {
    const nsPerOp = Number(m[2]);
    const ms = (nsPerOp * reconciles) / 1e6;
    figures.push({
      bench: `Go controller, ${reconciles} reconciles, ${m[1] === 'plain' ? 'without' : 'with'} the bridge`,
      impl: 'ours',
      ops: reconciles,
      ms,
      cpuMs: (Number(m[3]) * reconciles) / 1e6,
      opsPerSec: 1e9 / nsPerOp,
      reps: 1,
      ...(m[1] === 'bridge' ? { note: `events encoded, no reader; ${m[4]} dropped` } : {}),
    });
  }
  return figures;
}

export function benchGoBridge(reconciles: number): Promise<Figure[]> {
  const args = ['test', '-run', '^$', '-bench', 'ControllerLoop', '-benchtime', `${reconciles}x`, '.'];
  return new Promise((resolve, reject) => {
    execFile(
      goBinary(),
      args,
      { cwd: MODULE, env: { ...process.env, GOTOOLCHAIN: 'local' }, timeout: 10 * 60_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`go ${args.join(' ')}: ${err.message}\n${stderr}`));
        const figures = parseBridgeBench(stdout, reconciles);
        if (figures.length !== 2) return reject(new Error(`unexpected go test -bench output:\n${stdout}`));
        resolve(figures);
      },
    );
  });
}
