// `npm run truth -- [--seeds N] [--first S] [--steps K] [--only ts-sandbox,go-apiserver,…]`: the
// ground-truth oracle for the dashboard's claims over seeded workloads, in every configuration (TypeScript
// under run and Go replicas with attach, on the sandbox and on kube-apiserver). Prints every false claim with
// its seed and exits 1 if there is any; zero is the only passing result.
import { parseArgs } from 'node:util';
import { CONFIGURATIONS, configurationLabel, runConfiguration } from '../test/truth/harness/configuration';
import { envtestAvailable } from '../server/cluster/envtest/testing';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '200' },
    first: { type: 'string', default: '1' },
    steps: { type: 'string', default: '24' },
    only: { type: 'string' },
  },
});
const count = Number(values.seeds);
const first = Number(values.first);
const steps = Number(values.steps);
if (![count, first, steps].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('truth: --seeds, --first and --steps take whole numbers above 0');
  process.exit(2);
}
const only = values.only?.split(',').map((s) => s.trim());
const known = CONFIGURATIONS.map(configurationLabel);
for (const o of only ?? []) {
  if (!known.includes(o)) {
    console.error(`truth: unknown configuration '${o}'; the configurations are ${known.join(', ')}`);
    process.exit(2);
  }
}

const seeds = Array.from({ length: count }, (_, i) => first + i);
let falseClaims = 0;
let failedSeeds = 0;
let claims = 0;
for (const c of CONFIGURATIONS) {
  const label = configurationLabel(c);
  if (only && !only.includes(label)) continue;
  if (c.cluster === 'apiserver' && !envtestAvailable()) {
    console.log(`${label}: skipped, no kube-apiserver binaries (scripts/setup-envtest.sh builds them)`);
    continue;
  }
  const started = Date.now();
  const results = await runConfiguration(c, {
    seeds,
    steps,
    onSeed: (r) => {
      claims += r.claims;
      falseClaims += r.falseClaims.length;
      if (r.error !== undefined) failedSeeds++;
      const mark =
        r.error !== undefined
          ? `RUN FAILED: ${r.error}`
          : r.falseClaims.length === 0
            ? 'ok'
            : `${r.falseClaims.length} FALSE`;
      console.log(
        `${label} seed ${r.seed}: ${r.steps} steps, ${r.checkpoints} checkpoints, ${r.claims} claims: ${mark}`,
      );
      for (const f of r.falseClaims)
        console.log(`  checkpoint ${f.checkpoint}: ${f.where}\n    claims: ${f.claim}\n    truth:  ${f.truth}`);
    },
  });
  const bad = results.reduce((s, r) => s + r.falseClaims.length, 0);
  console.log(
    `${label}: ${results.length} seeds in ${Math.round((Date.now() - started) / 1000)} s, ${bad} false claims`,
  );
}
console.log(
  `truth: ${claims} claims checked, ${falseClaims} false${failedSeeds ? `; ${failedSeeds} seeds failed to run` : ''}`,
);
process.exit(falseClaims === 0 && failedSeeds === 0 ? 0 : 1);
