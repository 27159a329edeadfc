// The TypeScript controller as a user runs it: `controller-scope run` (this checkout's bin) with --watch,
// against the oracle's cluster, its dashboard read through a socket as a browser would. A restart is a
// reload: the module file changes, the running manager is stopped and a new generation starts.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCli, type CliProcess } from '../../run/support/cli-process';
import { newestGeneration, readTruthLog, sortRecords } from '../oracle/truth';
import { BEHAVIOUR } from '../oracle/behaviour';
import type { OracleTarget } from './target';

const MIRROR = resolve(import.meta.dirname, '..', 'controllers', 'mirror.ts');

export async function startTsTarget(kubeconfig: string, dir: string, extraArgs: string[] = []): Promise<OracleTarget> {
  const log = join(dir, 'ts-truth.log');
  // A file of the run's own that re-exports the controller: editing it is the reload, the checkout stays as it is.
  const entry = join(dir, 'controller.ts');
  writeFileSync(entry, `export { default } from ${JSON.stringify(MIRROR)};\n`);
  // An ES module, as the checkout's files are: without it the entry would load as CommonJS and could not
  // import them.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const cli: CliProcess = await startCli(
    ['run', entry, '--watch', '--kubeconfig', kubeconfig, '--allow-writes', '--port', '0', ...extraArgs],
    { env: { TRUTH_LOG: log } },
  );
  await cli.waitForView('the controller loaded', (v) => v.modules[0]?.phase === 'loaded', 120_000);
  return {
    language: 'ts',
    dashboardUrl: cli.url,
    view: () => cli.client.view,
    records: () => ({ ...sortRecords(readTruthLog(log, '')), elected: new Map() }),
    processes: () => undefined,
    async cacheKeys(informer) {
      const ack = await cli.client.inspect({ target: 'cache', informer, limit: 100_000 });
      return ack.ok && ack.result.target === 'cache' ? ack.result.keys : undefined;
    },
    async restart() {
      const generation = cli.client.view.modules[0]?.generation ?? 0;
      appendFileSync(entry, `// reload ${generation + 1}\n`);
      // Loaded, and its controller started (its caches synced): the new generation is the one running.
      await cli.waitForView(
        `generation ${generation + 1} running`,
        (v) => {
          const m = v.modules[0];
          const c = v.controllers[BEHAVIOUR.controller];
          return (
            m?.phase === 'loaded' && m.generation > generation && c?.phase === 'started' && c.phaseSince >= m.since
          );
        },
        120_000,
      );
    },
    generation: () => newestGeneration(readTruthLog(log, '')),
    stop: () => cli.stop(),
  };
}
