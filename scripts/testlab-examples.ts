// `npm run testlab:examples -- [--seeds N] [--first S] [--time DUR] [--runs N] [--only generate-name,…] [--twins buggy|correct]`: the test lab's
// long budget on every example in examples/buggy. Each buggy controller must yield a finding within the
// budget, each correct twin none, on every seed. Prints the time to the first finding and the runs it took,
// and exits 1 when a bug goes unfound or a twin has a finding.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration } from '../server/cli-options';
import { DEFAULT_SETTLE_TIMEOUT_MS, DEFAULT_TIME_MS, moduleTarget } from '../server/testlab/command';
import { runLab } from '../server/testlab/lab';
import { parseScenario } from '../server/testlab/scenario-file';
import { importGeneration } from '../server/run/module-importer';
import { setReallyCrash } from '../server/runtime';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1' },
    first: { type: 'string', default: '1' },
    time: { type: 'string' },
    only: { type: 'string' },
    runs: { type: 'string' },
    twins: { type: 'string' },
  },
});
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => Number(values.first) + i);
const timeMs = values.time ? parseDuration('--time', values.time) : DEFAULT_TIME_MS;
const root = resolve(import.meta.dirname, '..', 'examples', 'buggy');
const examples = readdirSync(root)
  .filter((d) => statSync(join(root, d)).isDirectory())
  .filter((d) => !values.only || values.only.split(',').includes(d));

setReallyCrash(false);
let failed = 0;
for (const ex of examples) {
  for (const twin of (['buggy', 'correct'] as const).filter((t) => !values.twins || values.twins === t)) {
    const file = join(root, ex, `${twin}.ts`);
    const exports = await importGeneration(file, 'scenario');
    for (const seed of seeds) {
      const r = await runLab({
        target: moduleTarget([file], [`examples/buggy/${ex}/${twin}.ts`]),
        scenario: parseScenario(exports['scenario'], ex),
        seed,
        timeMs,
        ...(values.runs !== undefined ? { runs: Number(values.runs) } : {}),
        settleTimeoutMs: DEFAULT_SETTLE_TIMEOUT_MS,
        quietMs: 150,
        command: `controller-scope test examples/buggy/${ex}/${twin}.ts`,
      });
      const runs = r.runs.filter((v) => v.index > 0).length;
      const first = r.findings[0];
      const ok = twin === 'buggy' ? first !== undefined : r.findings.length === 0;
      if (!ok) failed++;
      console.log(
        [
          `${ok ? 'ok  ' : 'FAIL'} ${ex}/${twin} seed ${seed}:`,
          `${runs}/${r.candidates} plans in ${(r.durationMs / 1000).toFixed(0)} s,`,
          `${r.findings.length} findings`,
          first ? `(first after ${first.foundAfterS.toFixed(1)} s, run ${first.run}: ${first.plan})` : '',
        ].join(' '),
      );
    }
  }
}
process.exit(failed > 0 ? 1 : 0);
