// Locates the control-plane binaries the way controller-runtime's envtest does
// (pkg/internal/testing/process/bin_path_finder.go): a per-binary env var wins, then KUBEBUILDER_ASSETS,
// then the caller's directory, then the cache that scripts/setup-envtest.sh fills.

import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface EnvtestAssets {
  kubeApiserver: string;
  etcd: string;
  /** Present only when a kubectl binary was found; nothing in the harness needs it. */
  kubectl?: string;
  /** Present when found; a control plane started with its controller manager needs it. */
  kubeControllerManager?: string;
  /** Where the binaries were looked up, for messages. */
  source: string;
}

export interface FindAssetsOptions {
  /** Used when KUBEBUILDER_ASSETS is unset. Default: the newest complete dir under defaultAssetsRoot(). */
  assetsDir?: string;
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
}

export class EnvtestAssetsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvtestAssetsError';
  }
}

const SETUP_HINT =
  'Build them with `scripts/setup-envtest.sh` (prints the directory) and export ' +
  'KUBEBUILDER_ASSETS="$(scripts/setup-envtest.sh | tail -n1)", or point TEST_ASSET_KUBE_APISERVER / ' +
  'TEST_ASSET_ETCD at existing binaries.';

/** The cache root shared with scripts/setup-envtest.sh; binaries live in <root>/k8s/<version>-<os>-<arch>/. */
export function defaultAssetsRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONTROLLER_SCOPE_ENVTEST_CACHE) return env.CONTROLLER_SCOPE_ENVTEST_CACHE;
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'controller-scope', 'envtest');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function compareVersionDirs(a: string, b: string): number {
  const parse = (s: string): number[] => (s.split('-')[0] ?? '').split('.').map((n) => Number(n) || 0);
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

/** The newest <version>-<platform> directory in the cache holding both required binaries, if any. */
export function newestCachedAssetsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = join(defaultAssetsRoot(env), 'k8s');
  const platform = `-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return undefined;
  }
  const complete = entries
    .filter((e) => e.endsWith(platform))
    .filter((e) => isExecutable(join(root, e, 'kube-apiserver')) && isExecutable(join(root, e, 'etcd')))
    .sort(compareVersionDirs);
  const newest = complete.at(-1);
  return newest === undefined ? undefined : join(root, newest);
}

/**
 * What an incomplete cache holds, version by version: a cache with etcd but no kube-apiserver yet is
 * usually a build still running, and "empty" would send the user to start a second one.
 */
function incompleteCache(env: NodeJS.ProcessEnv): string {
  const root = join(defaultAssetsRoot(env), 'k8s');
  let entries: string[];
  try {
    entries = readdirSync(root).sort(compareVersionDirs);
  } catch {
    return 'empty';
  }
  const parts = entries.slice(-3).map((e) => {
    const has = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl'].filter((b) =>
      isExecutable(join(root, e, b)),
    );
    const lacks = ['etcd', 'kube-apiserver'].filter((b) => !has.includes(b));
    return `${e} has ${has.join(', ') || 'nothing'}${lacks.length ? `, lacks ${lacks.join(', ')}` : ''}`;
  });
  if (parts.length === 0) return 'empty';
  return `${parts.join('; ')} — if scripts/setup-envtest.sh is still building, wait for it to finish`;
}

/**
 * Resolves kube-apiserver, etcd and (optionally) kube-controller-manager and kubectl. Throws EnvtestAssetsError naming every path tried
 * and how to build the binaries when a required one is missing.
 */
export function findAssets(options: FindAssetsOptions = {}): EnvtestAssets {
  const env = options.env ?? process.env;
  const dir = env.KUBEBUILDER_ASSETS || options.assetsDir || newestCachedAssetsDir(env);
  const source = env.KUBEBUILDER_ASSETS
    ? `KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS}`
    : options.assetsDir
      ? `assetsDir=${options.assetsDir}`
      : dir
        ? `cache ${dir}`
        : `cache ${join(defaultAssetsRoot(env), 'k8s')} (${incompleteCache(env)})`;

  const pick = (envName: string, binary: string): { path?: string; tried: string } => {
    const explicit = env[envName];
    if (explicit) return { path: isExecutable(explicit) ? explicit : undefined, tried: `${envName}=${explicit}` };
    if (!dir) return { tried: source };
    const candidate = join(dir, binary);
    return { path: isExecutable(candidate) ? candidate : undefined, tried: candidate };
  };

  const apiserver = pick('TEST_ASSET_KUBE_APISERVER', 'kube-apiserver');
  const etcd = pick('TEST_ASSET_ETCD', 'etcd');
  const kubectl = pick('TEST_ASSET_KUBECTL', 'kubectl');
  const kcm = pick('TEST_ASSET_KUBE_CONTROLLER_MANAGER', 'kube-controller-manager');

  const missing: string[] = [];
  if (!apiserver.path) missing.push(`kube-apiserver (looked at ${apiserver.tried})`);
  if (!etcd.path) missing.push(`etcd (looked at ${etcd.tried})`);
  if (missing.length > 0 || !apiserver.path || !etcd.path) {
    throw new EnvtestAssetsError(`envtest binaries not found: ${missing.join('; ')}. ${SETUP_HINT}`);
  }
  return {
    kubeApiserver: apiserver.path,
    etcd: etcd.path,
    kubectl: kubectl.path,
    kubeControllerManager: kcm.path,
    source,
  };
}
