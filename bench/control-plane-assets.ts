// The kube-apiserver rows of `npm run bench` (write → reconcile latency, watch delivery) need the envtest
// binaries. A fresh machine has none, and the bench promises every figure from one command, so it finds
// them where the tests do (KUBEBUILDER_ASSETS, then the cache scripts/setup-envtest.sh fills) and builds
// them from Go modules when they are missing, as `.ci/run` does. The parts read KUBEBUILDER_ASSETS.
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvtestAssetsError, findAssets } from '../server/cluster/envtest';

const SETUP = fileURLToPath(new URL('../scripts/setup-envtest.sh', import.meta.url));

/** The assets directory, exported as KUBEBUILDER_ASSETS; a sentence saying why not when it can't be had. */
export async function ensureControlPlaneAssets(
  build: boolean,
  log: (msg: string) => void,
): Promise<{ dir: string } | { why: string }> {
  try {
    const a = findAssets();
    process.env['KUBEBUILDER_ASSETS'] ??= dirname(a.kubeApiserver);
    return { dir: process.env['KUBEBUILDER_ASSETS'] };
  } catch (e) {
    if (!(e instanceof EnvtestAssetsError)) throw e;
    if (!build) return { why: `kube-apiserver rows not run (--no-envtest): ${e.message}` };
  }
  log('building kube-apiserver + etcd from Go modules for the kube-apiserver rows (about 10 minutes, once)…');
  const out: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('bash', [SETUP], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ENVTEST_SKIP_KUBECTL: '1' },
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.once('error', () => resolve(null));
    child.once('exit', resolve);
  });
  const dir = out.join('').trim().split('\n').at(-1);
  if (code !== 0 || !dir) return { why: `kube-apiserver rows not run: scripts/setup-envtest.sh failed (exit ${code})` };
  process.env['KUBEBUILDER_ASSETS'] = dir;
  return { dir };
}
