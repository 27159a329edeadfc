// Ports controller-runtime pkg/client/config (GetConfig, GetConfigWithContext, loadConfig) together with the
// parts of client-go's clientcmd loading rules it relies on (KUBECONFIG list merging, first file wins).
// Parsing, auth plugins and TLS material stay with @kubernetes/client-node's KubeConfig.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../util/errors';

/** Why a configuration could not be produced; `message` always says what to do next. */
export type ConfigErrorReason =
  'NoConfig' | 'Unreadable' | 'Malformed' | 'ContextNotFound' | 'NoCurrentContext' | 'Invalid';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly reason: ConfigErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface RestConfigOptions {
  kubeConfig: KubeConfig;
  /**
   * Client-side rate limit in requests per second. Default -1: disabled, as controller-runtime sets it when
   * QPS is 0 (API Priority and Fairness on the server does the throttling).
   */
  qps?: number;
  /** Burst for the client-side limiter; default 10 (client-go's DefaultBurst). Ignored when qps <= 0. */
  burst?: number;
  /** User-Agent header; default "controller-scope/<version> (node)". */
  userAgent?: string;
  /** Where the configuration came from, for messages ("--kubeconfig /x", "in-cluster", …). Default "in-memory". */
  source?: string;
}

export const DEFAULT_USER_AGENT = 'controller-scope/0.1.0 (node)';

/** rest.Config: a client-node KubeConfig (server, credentials, TLS) plus the client's own knobs. */
export class RestConfig {
  readonly kubeConfig: KubeConfig;
  readonly qps: number;
  readonly burst: number;
  readonly userAgent: string;
  readonly source: string;

  constructor(opts: RestConfigOptions) {
    this.kubeConfig = opts.kubeConfig;
    this.qps = opts.qps === undefined || opts.qps === 0 ? -1 : opts.qps;
    this.burst = opts.burst ?? 10;
    this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    this.source = opts.source ?? 'in-memory';
  }

  /** The API server URL of the current context, without a trailing slash. */
  get host(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new ConfigError('Invalid', `context "${this.contextName}" names no known cluster`);
    return cluster.server;
  }

  get contextName(): string {
    return this.kubeConfig.getCurrentContext();
  }

  /** The current context's namespace, "default" when unset. */
  get namespace(): string {
    return this.kubeConfig.getContextObject(this.contextName)?.namespace ?? 'default';
  }

  /**
   * A config for one server URL, e.g. the embedded sandbox. client-node refuses plain http unless TLS
   * verification is skipped, so http:// servers get insecure-skip-tls-verify (there is no TLS to verify).
   */
  static forServer(
    server: string,
    opts: { token?: string; caData?: string; insecureSkipTLSVerify?: boolean } & Omit<
      RestConfigOptions,
      'kubeConfig'
    > = {},
  ): RestConfig {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      {
        name: 'cluster',
        server: server.replace(/\/$/, ''),
        skipTLSVerify: opts.insecureSkipTLSVerify ?? server.startsWith('http:'),
        caData: opts.caData,
      },
      { name: 'user', token: opts.token },
    );
    return new RestConfig({ ...opts, kubeConfig: kc, source: opts.source ?? server });
  }
}

export interface GetConfigOptions {
  /** Explicit kubeconfig path (the --kubeconfig flag). Wins over everything else. */
  kubeconfig?: string;
  /** Context to use instead of the file's current-context (the --context flag). */
  context?: string;
  /** Command-line arguments scanned for --kubeconfig and --context when those fields are not given. */
  argv?: readonly string[];
  /** Environment; default process.env. Reads KUBECONFIG, KUBERNETES_SERVICE_HOST/PORT, HOME. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home directory for ~/.kube/config; default env.HOME, then os.homedir(). */
  homeDir?: string;
  /** Prefix of the service-account directory (tests point it at a tmp dir); default "" (the real root). */
  inClusterRoot?: string;
  qps?: number;
  burst?: number;
  userAgent?: string;
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Reads `--name value` or `--name=value` from argv. */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === `--${name}` || a === `-${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
    if (a.startsWith(`-${name}=`)) return a.slice(name.length + 2);
  }
  return undefined;
}

/** Loads one kubeconfig file, turning read and parse failures into ConfigErrors that name the file. */
export function loadKubeConfigFile(file: string, origin: string): KubeConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf-8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : String(err);
    throw new ConfigError(
      'Unreadable',
      `cannot read kubeconfig ${file} (from ${origin}): ${why}. Check the path and its permissions.`,
    );
  }
  const kc = new KubeConfig();
  try {
    const trimmed = text.trim();
    if (trimmed === '') throw new Error('the file is empty');
    kc.loadFromString(text);
    if (kc.clusters.length === 0 && kc.contexts.length === 0 && kc.users.length === 0) {
      throw new Error('it defines no clusters, users or contexts');
    }
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ConfigError(
      'Malformed',
      `kubeconfig ${file} (from ${origin}) is not a valid kubeconfig: ${detail}. Fix the YAML or point --kubeconfig at another file.`,
    );
  }
  kc.makePathsAbsolute(path.dirname(file));
  return kc;
}

/** clientcmd's merge: files in order, the first definition of a name wins, the first current-context wins. */
export function mergeKubeConfigs(configs: readonly KubeConfig[]): KubeConfig {
  const merged = new KubeConfig();
  merged.loadFromOptions({ clusters: [], users: [], contexts: [], currentContext: '' });
  for (const kc of configs) {
    if (!merged.currentContext && kc.currentContext) merged.currentContext = kc.currentContext;
    for (const c of kc.clusters) if (!merged.getCluster(c.name)) merged.clusters.push(c);
    for (const u of kc.users) if (!merged.getUser(u.name)) merged.users.push(u);
    for (const c of kc.contexts) if (!merged.getContextObject(c.name)) merged.contexts.push(c);
  }
  return merged;
}

/** Applies a context override and checks the context, its cluster and its user exist. */
function selectContext(kc: KubeConfig, context: string | undefined, origin: string): void {
  const names = kc.contexts.map((c) => c.name);
  const known = names.length > 0 ? names.map((n) => `"${n}"`).join(', ') : '(none)';
  if (context) {
    if (!kc.getContextObject(context)) {
      throw new ConfigError(
        'ContextNotFound',
        `context "${context}" does not exist in ${origin}; contexts that exist: ${known}. Pass one of them with --context.`,
      );
    }
    kc.setCurrentContext(context);
  } else if (!kc.currentContext) {
    throw new ConfigError(
      'NoCurrentContext',
      `${origin} sets no current-context; contexts that exist: ${known}. Pass one with --context or run "kubectl config use-context <name>".`,
    );
  } else if (!kc.getContextObject(kc.currentContext)) {
    throw new ConfigError(
      'ContextNotFound',
      `current-context "${kc.currentContext}" in ${origin} does not exist; contexts that exist: ${known}. Pass one with --context.`,
    );
  }
  const ctx = kc.getContextObject(kc.currentContext);
  if (ctx && !kc.getCluster(ctx.cluster)) {
    throw new ConfigError(
      'Invalid',
      `context "${ctx.name}" in ${origin} names cluster "${ctx.cluster}", which is not defined.`,
    );
  }
  if (ctx && ctx.user && !kc.getUser(ctx.user)) {
    throw new ConfigError(
      'Invalid',
      `context "${ctx.name}" in ${origin} names user "${ctx.user}", which is not defined.`,
    );
  }
}

/**
 * GetConfigWithContext: the kubeconfig flag, then KUBECONFIG (colon-separated, merged), then the in-cluster
 * service account (only when KUBECONFIG is unset), then ~/.kube/config. Throws ConfigError.
 */
export function getConfig(opts: GetConfigOptions = {}): RestConfig {
  const env = opts.env ?? process.env;
  const argv = opts.argv ?? [];
  const flagPath = opts.kubeconfig ?? flagValue(argv, 'kubeconfig');
  const context = opts.context ?? flagValue(argv, 'context');
  const home = opts.homeDir ?? (env.HOME || os.homedir());
  const homeFile = path.join(home, '.kube', 'config');
  const knobs = { qps: opts.qps, burst: opts.burst, userAgent: opts.userAgent };

  if (flagPath) {
    const origin = `--kubeconfig ${flagPath}`;
    const kc = loadKubeConfigFile(flagPath, '--kubeconfig');
    selectContext(kc, context, origin);
    return new RestConfig({ ...knobs, kubeConfig: kc, source: origin });
  }

  const envList = env.KUBECONFIG;
  if (envList) {
    // With KUBECONFIG set, clientcmd reads only the listed files (the home file joins them only when HOME
    // itself is unset). Listed files that do not exist are skipped; ones that exist but do not parse are errors.
    const files = envList.split(path.delimiter).filter((f) => f !== '');
    if (env.HOME === undefined && opts.homeDir === undefined) files.push(homeFile);
    const present = files.filter((f) => fs.existsSync(f));
    if (present.length > 0) {
      const origin = `KUBECONFIG=${envList}`;
      const kc = mergeKubeConfigs(present.map((f) => loadKubeConfigFile(f, 'KUBECONFIG')));
      selectContext(kc, context, origin);
      return new RestConfig({ ...knobs, kubeConfig: kc, source: origin });
    }
  } else {
    const root = opts.inClusterRoot ?? '';
    const host = env.KUBERNETES_SERVICE_HOST;
    const port = env.KUBERNETES_SERVICE_PORT;
    if (host && port && fs.existsSync(`${root}${SERVICE_ACCOUNT_DIR}/token`)) {
      const kc = new KubeConfig();
      kc.loadFromCluster(root);
      // loadFromCluster reads host/port from process.env; honour the injected env instead.
      const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
      const hostPart = host.includes(':') ? `[${host}]` : host;
      kc.clusters = kc.clusters.map((c) => ({ ...c, server: `${scheme}://${hostPart}:${port}` }));
      if (context && context !== kc.currentContext) selectContext(kc, context, 'the in-cluster config');
      return new RestConfig({ ...knobs, kubeConfig: kc, source: 'in-cluster service account' });
    }
  }

  if (!envList && fs.existsSync(homeFile)) {
    const origin = homeFile;
    const kc = loadKubeConfigFile(homeFile, '~/.kube/config');
    selectContext(kc, context, origin);
    return new RestConfig({ ...knobs, kubeConfig: kc, source: origin });
  }

  throw new ConfigError(
    'NoConfig',
    [
      'no Kubernetes configuration found. Looked at:',
      '  1. the --kubeconfig flag: not given',
      `  2. the KUBECONFIG environment variable: ${envList ? `${envList} (none of the listed files exists)` : 'not set'}`,
      `  3. the in-cluster service account: ${envList ? 'skipped because KUBECONFIG is set' : 'KUBERNETES_SERVICE_HOST/PORT or the token file missing'}`,
      `  4. ${homeFile}: ${envList ? 'not read because KUBECONFIG is set' : 'does not exist'}`,
      envList
        ? 'Fix KUBECONFIG to list an existing file, unset it, or pass --kubeconfig <file>.'
        : 'Pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config (e.g. with "kind create cluster").',
    ].join('\n'),
  );
}

/** GetConfigOrDie: prints "unable to get kubeconfig" with the reason and exits with status 1. */
export function getConfigOrDie(opts: GetConfigOptions = {}): RestConfig {
  try {
    return getConfig(opts);
  } catch (err) {
    process.stderr.write(`unable to get kubeconfig: ${errorMessage(err)}\n`);
    process.exit(1);
  }
}
