// One oracle configuration: a language (TypeScript under run, Go replicas with attach) on a server (the
// sandbox, kube-apiserver), started once and driven through many seeds, each in its own namespace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerWatch } from '../oracle/server-watch';
import { startCluster, type ClusterKind } from './cluster';
import { buildGoController, startGoTarget } from './go-target';
import { runSeed, type SeedResult } from './run-seed';
import { startTsTarget } from './ts-target';

export type Language = 'ts' | 'go';

export interface ConfigurationName {
  language: Language;
  cluster: ClusterKind;
}

export const CONFIGURATIONS: readonly ConfigurationName[] = [
  { language: 'ts', cluster: 'sandbox' },
  { language: 'ts', cluster: 'apiserver' },
  { language: 'go', cluster: 'sandbox' },
  { language: 'go', cluster: 'apiserver' },
];

export const configurationLabel = (c: ConfigurationName): string => `${c.language}-${c.cluster}`;

export interface RunOptions {
  seeds: readonly number[];
  steps: number;
  /** Called after each seed, for progress. */
  onSeed?: (r: SeedResult) => void;
}

export async function runConfiguration(c: ConfigurationName, o: RunOptions): Promise<SeedResult[]> {
  const dir = mkdtempSync(join(tmpdir(), `truth-${configurationLabel(c)}-`));
  const cluster = await startCluster(c.cluster, dir);
  const server = await ServerWatch.start(cluster.kubeconfig);
  const target =
    c.language === 'ts'
      ? await startTsTarget(cluster.kubeconfig, dir)
      : await startGoTarget(await buildGoController(dir), cluster.kubeconfig, dir);
  const results: SeedResult[] = [];
  try {
    for (const seed of o.seeds) {
      // A seed whose run fails is reported and the next one goes on: one stuck seed must not hide the rest.
      const r = await runSeed(seed, { kubeconfig: cluster.kubeconfig, target, server, steps: o.steps, dir }).catch(
        (err: unknown): SeedResult => ({
          seed,
          steps: 0,
          checkpoints: 0,
          claims: 0,
          falseClaims: [],
          error: err instanceof Error ? err.message : String(err),
        }),
      );
      results.push(r);
      o.onSeed?.(r);
    }
  } finally {
    await target.stop();
    server.stop();
    await cluster.stop();
    // TRUTH_KEEP=1 keeps the run's logs (the controllers' truth logs, kubeconfig) to look at afterwards; a
    // run with a false claim or a failed seed keeps them anyway, since that is when they are needed.
    const failed = results.some((r) => r.error !== undefined || r.falseClaims.length > 0);
    if (process.env['TRUTH_KEEP'] === '1' || failed) console.log(`truth: kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
