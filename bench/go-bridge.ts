// The Go bridge module's overhead on a real controller-runtime controller: the same loop (events through
// EnqueueRequestForObject, the priority queue, one worker, a reconciler that does nothing) without and with
// the bridge's taps, and with the taps and trace export to Jaeger (when scripts/setup-jaeger.sh built it; else to
// a local endpoint that discards), from the module's Go benchmark (go/overhead_bench_test.go).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jaegerBinary, startJaeger, type RunningJaeger } from '../test/otel/support/jaeger';
import type { Figure } from './harness';

const MODULE = fileURLToPath(new URL('../go', import.meta.url));

function goBinary(): string {
  for (const c of [process.env.GO, '/usr/local/go/bin/go']) if (c && existsSync(c)) return c;
  return 'go';
}

const LABELS = { plain: 'without the bridge', bridge: 'with the bridge', traced: 'with the bridge and traces' };

/** Parses `go test -bench` lines: "BenchmarkControllerLoop/plain-2  20000  13926 ns/op  5370 cpu-ns/op  0 dropped". */
export function parseBridgeBench(out: string, reconciles: number): Figure[] {
  const figures: Figure[] = [];
  for (const m of out.matchAll(
    /^BenchmarkControllerLoop\/(plain|bridge|traced)\S*\s+\d+\s+([\d.]+) ns\/op\s+([\d.]+) cpu-ns\/op\s+([\d.]+) dropped/gm,
  )) {
    const nsPerOp = Number(m[2]);
    const ms = (nsPerOp * reconciles) / 1e6;
    figures.push({
      bench: `Go controller, ${reconciles} reconciles, ${LABELS[m[1] as keyof typeof LABELS]}`,
      impl: 'ours',
      ops: reconciles,
      ms,
      cpuMs: (Number(m[3]) * reconciles) / 1e6,
      opsPerSec: 1e9 / nsPerOp,
      reps: 1,
      ...(m[1] !== 'plain' ? { note: `events encoded, no reader; ${m[4]} dropped` } : {}),
    });
  }
  return figures;
}

export async function benchGoBridge(reconciles: number): Promise<Figure[]> {
  const bin = jaegerBinary();
  const jaeger: RunningJaeger | undefined = bin ? await startJaeger(bin) : undefined;
  try {
    return await runBench(reconciles, jaeger ? { CONTROLLER_SCOPE_BENCH_OTLP: jaeger.otlp } : {});
  } finally {
    await jaeger?.stop();
  }
}

function runBench(reconciles: number, env: Record<string, string>): Promise<Figure[]> {
  const args = ['test', '-run', '^$', '-bench', 'ControllerLoop', '-benchtime', `${reconciles}x`, '.'];
  return new Promise((resolve, reject) => {
    execFile(
      goBinary(),
      args,
      { cwd: MODULE, env: { ...process.env, ...env, GOTOOLCHAIN: 'local' }, timeout: 10 * 60_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`go ${args.join(' ')}: ${err.message}\n${stderr}`));
        const figures = parseBridgeBench(stdout, reconciles);
        if (figures.length !== 3) return reject(new Error(`unexpected go test -bench output:\n${stdout}`));
        resolve(figures);
      },
    );
  });
}
