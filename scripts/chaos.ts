// npm run chaos -- --runs N --seed S [--target sandbox|envtest] [--steps K]
// Runs N seeded chaos runs (seeds S, S+1, …) against one server and prints, per run and in total, the faults
// injected and any divergence, with the seed that replays a failing run. Exit code 1 on any divergence.
import { prng } from '../shared/prng';
import { chaosRun, installWidgetCrd } from '../test/chaos/support/chaos-run';
import type { Fault, RunResult } from '../test/chaos/support/chaos-run';
import { startEnvtestTarget, startSandboxTarget } from '../test/chaos/support/chaos-targets';
import type { TargetName } from '../test/chaos/support/chaos-targets';

function parse(argv: string[]): { runs: number; seed: number; target: TargetName; steps: number } {
  const out = { runs: 10, seed: 1, target: 'sandbox' as TargetName, steps: 30 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const num = () => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`${flag} wants a non-negative integer, got ${value ?? 'nothing'}`);
      i++;
      return n;
    };
    if (flag === '--runs') out.runs = num();
    else if (flag === '--seed') out.seed = num();
    else if (flag === '--steps') out.steps = num();
    else if (flag === '--target') {
      if (value !== 'sandbox' && value !== 'envtest')
        throw new Error(`--target is sandbox or envtest, got ${value ?? 'nothing'}`);
      out.target = value;
      i++;
    } else
      throw new Error(
        `unknown flag ${flag}; usage: npm run chaos -- --runs N --seed S [--target sandbox|envtest] [--steps K]`,
      );
  }
  return out;
}

async function main(): Promise<number> {
  const o = parse(process.argv.slice(2));
  const t0 = Date.now();
  const target = o.target === 'envtest' ? await startEnvtestTarget() : await startSandboxTarget(prng(o.seed));
  const totals: Record<Fault, number> = { stall: 0, reset: 0, slow: 0, cut: 0, compact: 0, 'apiserver-kill': 0 };
  const failed: RunResult[] = [];
  let writes = 0;
  try {
    await installWidgetCrd(target.direct);
    for (let r = 0; r < o.runs; r++) {
      const res = await chaosRun({ target, seed: o.seed + r, steps: o.steps, restarts: o.target === 'envtest' });
      writes += res.writes;
      for (const [f, n] of Object.entries(res.faults) as [Fault, number][]) totals[f] += n;
      const faults = Object.entries(res.faults)
        .filter(([, n]) => n > 0)
        .map(([f, n]) => `${f}=${n}`)
        .join(' ');
      console.log(
        `run ${r + 1}/${o.runs} seed ${res.seed}: ${res.divergences.length === 0 ? 'ok' : 'DIVERGED'} ` +
          `(${res.writes} writes, ${res.failedWrites} failed; ${faults}; ${res.ms} ms)`,
      );
      if (res.divergences.length > 0) {
        failed.push(res);
        for (const d of res.divergences.slice(0, 20)) console.log(`    ${d}`);
      }
    }
  } finally {
    await target.stop();
  }
  const faultTotal = Object.values(totals).reduce((a, b) => a + b, 0);
  console.log(
    `\n${o.runs} runs on ${o.target}, ${writes} writes, ${faultTotal} faults (` +
      Object.entries(totals)
        .map(([f, n]) => `${f} ${n}`)
        .join(', ') +
      `), ${failed.length} divergent runs, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (const f of failed)
    console.log(`replay: npm run chaos -- --runs 1 --seed ${f.seed} --target ${o.target} --steps ${o.steps}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
