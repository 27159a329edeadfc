// The ground-truth oracle's fixed-seed subset, in npm test: a few seeded workloads in each configuration
// (TypeScript under run and Go replicas with attach, on the sandbox and on kube-apiserver), every claim the
// dashboard's view makes checked against what really happened. `npm run truth` runs 200 seeds of each.
import { describe, expect, it } from 'vitest';
import { envtestAvailability } from '../../server/cluster/envtest/testing';
import { goBinary } from '../go/support/go-tool';
import { configurationLabel, runConfiguration, type ConfigurationName } from './harness/configuration';
import type { SeedResult } from './harness/run-seed';

const SUBSET: { config: ConfigurationName; seeds: number[] }[] = [
  { config: { language: 'ts', cluster: 'sandbox' }, seeds: [1, 2, 3] },
  { config: { language: 'ts', cluster: 'apiserver' }, seeds: [4, 5] },
  { config: { language: 'go', cluster: 'sandbox' }, seeds: [6, 7] },
  { config: { language: 'go', cluster: 'apiserver' }, seeds: [8] },
];

function report(results: SeedResult[]): string {
  return results
    .flatMap((r) =>
      r.falseClaims.map(
        (f) => `seed ${r.seed} checkpoint ${f.checkpoint}: ${f.where}: claims "${f.claim}", truth: ${f.truth}`,
      ),
    )
    .join('\n');
}

const envtest = envtestAvailability();

describe('the dashboard makes no false claim (ground-truth oracle, fixed seeds)', () => {
  for (const { config, seeds } of SUBSET) {
    const label = configurationLabel(config);
    const missing =
      config.cluster === 'apiserver' && !envtest.available
        ? `no kube-apiserver binaries: ${envtest.reason}`
        : config.language === 'go' && !goBinary()
          ? 'no Go toolchain'
          : undefined;
    if (missing !== undefined && !(config.cluster === 'apiserver' && envtest.required)) {
      it.skip(`${label}: ${missing}`, () => {});
      continue;
    }
    it(`${label}, seeds ${seeds.join(', ')}`, { timeout: 1_200_000 }, async () => {
      const results = await runConfiguration(config, { seeds, steps: 24 });
      expect(results.map((r) => r.seed)).toEqual(seeds);
      // Every checkpoint looked at claims; a run that checked nothing would pass for the wrong reason.
      expect(results.filter((r) => r.error !== undefined).map((r) => `seed ${r.seed}: ${r.error}`)).toEqual([]);
      for (const r of results) expect(r.claims).toBeGreaterThan(0);
      expect(report(results)).toBe('');
    });
  }
});
