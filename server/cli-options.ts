// Command-line flags: parsing, validation and --help. No logic beyond turning argv into options.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHURN_PROFILES, type ChurnProfile } from './cluster/sandbox/life/workload-generator';
import { errorMessage } from './runtime/util/errors';
import { DEFAULT_SETTLE_TIMEOUT_MS, DEFAULT_TIME_MS, type TestCommand } from './testlab/command';

export const DEMO_CONTROLLERS = ['pod-counter', 'replicaset-owner', 'flaky', 'hot-loop'] as const;
export type DemoControllerName = (typeof DEMO_CONTROLLERS)[number];

export type ClusterChoice =
  | { mode: 'sandbox' }
  /** bare: the API server and etcd alone (--envtest=bare), without kube-controller-manager. */
  | { mode: 'envtest'; bare?: boolean }
  | { mode: 'kubeconfig'; kubeconfig?: string; context?: string }
  | { mode: 'replay'; file: string; speed: ReplaySpeed };

export type ReplaySpeed = 1 | 10 | 'max';

/** The parsed dashboard command (not the dashboard server's DashboardOptions). */
export interface DashboardCommand {
  command: 'dashboard';
  cluster: ClusterChoice;
  namespace?: string;
  controllers: DemoControllerName[];
  /** User controller modules (`controller-scope run FILE…`), in the order given. Default none. */
  files?: string[];
  /** Reload a module when it or a local file it imports changes. Default false. */
  watch?: boolean;
  /** With run: how long a module's setup may take before it is reported (--setup-timeout). Default 30 s. */
  setupTimeoutMs?: number;
  port: number;
  host: string;
  authToken?: string;
  allowWrites: boolean;
  record?: string;
  /** --otlp-endpoint: the OTLP/HTTP collector to send traces to (base URL; /v1/traces is appended). */
  otlpEndpoint?: string;
  /** --ring-bytes: the recorder's byte budget for past events. Default: the recorder's (64 MiB). */
  ringBytes?: number;
  /** The sandbox's or envtest's demo churn: a profile, or none (the default with run). Absent: steady. */
  workload?: ChurnProfile | 'none';
  /** --kubeconfig-out: where to write the kubeconfig of the sandbox or envtest cluster started. */
  kubeconfigOut?: string;
  open: boolean;
}

export interface SandboxOptions {
  command: 'sandbox';
  port: number;
  host: string;
  kubeconfigOut?: string;
  /** Only the API server: no simulated nodes or built-in controllers. */
  bare: boolean;
}

export interface AttachCliOptions {
  command: 'attach';
  /** host:port of each process's bridge (Go module). */
  addresses: string[];
  /** The bridges' token (CONTROLLER_SCOPE_TOKEN), when they have one. */
  bridgeToken?: string;
  port: number;
  host: string;
  authToken?: string;
  record?: string;
  /** --otlp-endpoint, as for the dashboard command. */
  otlpEndpoint?: string;
  /** --ring-bytes, as for the dashboard command. */
  ringBytes?: number;
  open: boolean;
}

export interface AdoptGoCliOptions {
  command: 'adopt-go';
  /** The Go module (the directory with go.mod) to rewrite. */
  dir: string;
  dryRun: boolean;
}

export type CliOptions =
  | DashboardCommand
  | SandboxOptions
  | AttachCliOptions
  | AdoptGoCliOptions
  | TestCommand
  | { command: 'help'; text: string };

export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export const HELP = `controller-scope: watch a Kubernetes controller work, live.

Usage:
  controller-scope [flags]                      the dashboard (embedded sandbox cluster unless told otherwise)
  controller-scope run FILE… [--watch] [flags]  your own controllers under the dashboard: each FILE is a
                                                TypeScript or JavaScript module exporting a setup function
                                                (export default async function setup(mgr: Manager), or a
                                                named setup / setupWithManager); no example controllers
                                                run unless --controllers names them
  controller-scope test FILE… [--scenario FILE] [--seed N] [--runs N] [--time DUR] [--json] [--junit FILE]
                                                perturbation testing of your controllers (the modules run
                                                takes): a fresh sandbox per run, a reference run, then one
                                                perturbation per run at a point of the reference trace
                                                (stale view, unobserved state, crash after a write, API
                                                faults on a chosen write); a finding is a run that ends in
                                                another state or breaks an invariant. Exit code 1 on a
                                                finding. See "Test flags" below
  controller-scope sandbox [--port P] [--kubeconfig-out FILE] [--bare]
                                                only the sandbox cluster, for your own operator, kubectl and
                                                other clients: simulated nodes and the built-in controllers
                                                run in it; --bare leaves the API server alone (like envtest)
  controller-scope attach ADDRESS[,ADDRESS…] [--token T] [flags]
                                                the dashboard for running Go controllers that use the
                                                controller-scope Go module (default address 127.0.0.1:7071);
                                                several addresses: one lane per process
  controller-scope adopt-go DIR [--dry-run]     rewrite the controller-runtime project in DIR to report to
                                                the dashboard (needs Go): the module's import, scope.Options
                                                at the NewManager call, scope.NewControllerManagedBy for each
                                                controller, then go mod tidy and go build; prints the diff,
                                                or refuses naming the file and line it cannot be sure of;
                                                --dry-run prints the diff and writes nothing

Cluster (pick one; default: the embedded sandbox, even when you have a kubeconfig):
      --sandbox               run against the embedded sandbox API server (zero set-up)
      --envtest               start a real control plane: kube-apiserver, etcd and kube-controller-manager
                              (garbage collector, namespace lifecycle, workload controllers), binaries from
                              scripts/setup-envtest.sh; --envtest=bare: the API server and etcd alone, as
                              controller-runtime's envtest runs them
      --kubeconfig FILE       connect to the cluster in FILE (read-only unless --allow-writes)
      --context NAME          the kubeconfig context to use (default: current-context); alone, it loads
                              the config as controller-runtime does: KUBECONFIG, in-cluster, ~/.kube/config
      --in-cluster            connect with the pod's service account (KUBECONFIG wins when set, as in
                              controller-runtime): for running the dashboard inside the cluster (deploy/)
      --replay FILE           serve a recording made with --record or Rec; no cluster needed
      --replay-speed S        1, 10 or max (default 1)

What to run:
  -n, --namespace NS          watch only namespace NS (default: all namespaces)
      --controllers LIST      comma-separated demo controllers to run: ${DEMO_CONTROLLERS.join(', ')},
                              or none (default: all on the sandbox and envtest, pod-counter on a real
                              cluster, none with run)
      --watch                 with run: reload a FILE when it, or a local file it imports, changes (the
                              dashboard, its history and the cluster stay)
      --workload PROFILE      the demo churn of ConfigMaps and Deployments in namespace demo on the sandbox
                              or envtest: steady, bursty, storm or none (default steady; none with run, so
                              only your controller's objects move; the Faults panel can start it later)
      --kubeconfig-out FILE   also write the started cluster's kubeconfig to FILE (for kubectl and your
                              other clients; the start-up lines print export KUBECONFIG=… either way)
      --setup-timeout SECONDS with run: report a setup that has not settled after this long, and serve the
                              dashboard meanwhile (default 30; env CONTROLLER_SCOPE_SETUP_TIMEOUT)

Test flags (controller-scope test):
      --scenario FILE         what the test does to the cluster: YAML, or a module exporting it (prepare:
                              objects created before the controller starts, e.g. its CRDs; steps: create,
                              update, patch, delete, burst). Default: the first FILE's \`scenario\` export,
                              else one derived from the For kind (create three, change two, delete one)
      --seed N                picks and orders the plans, seeds the sandbox (default 1)
      --runs N                at most N perturbed runs (default: every plan the reference offers)
      --time DUR              time budget for the perturbed runs, e.g. 90s or 5m (default 4m)
      --plan PLAN             run exactly this plan (repeatable), as a finding prints it, e.g.
                              crash@write:3, fault:409@write:2, stale:v1/ConfigMap+1@step:2
      --settle-timeout DUR    how long the controller may take to settle after a step (default 15s)
      --json                  print the report as JSON instead of the summary
      --junit FILE            also write JUnit XML (one test case per run) to FILE
      --record FILE           record the perturbed runs (with one --plan: that run) for --replay

Dashboard:
      --port N                port to listen on (default 7070; 0 picks a free one)
      --host ADDR             address to bind (default 127.0.0.1; anything else requires a token)
      --auth-token T          token browsers must present (generated and printed when --host is not loopback)
      --auth-token-file FILE  read that token from FILE (e.g. a mounted Secret), so it stays out of argv
      --allow-writes          allow commands that change a real cluster (faults, workload, requeue)
      --record FILE           write the state and the event stream to FILE, gzipped JSON lines (attach it
                              to a bug report; gunzip -c FILE | head reads it)
      --ring-bytes SIZE       memory for past events kept for reconnects, history and export, e.g. 16MiB
                              or 1GiB (default 64MiB); the oldest go first once it is full
      --otlp-endpoint URL     send traces (reconciles, queue waits, writes, their causes as links) to an
                              OpenTelemetry collector's OTLP/HTTP endpoint, e.g. http://localhost:4318;
                              OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER=otlp do the same
      --open                  open the dashboard in a browser
  -h, --help                  this text
`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  ki: 1024,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
};

/** A size such as 64MiB, 500MB, 1Gi or 1048576 (bytes), as a whole number of bytes. */
export function parseByteSize(flag: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = m ? BYTE_UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  const bytes = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!(bytes >= 1024 * 1024)) {
    throw new CliUsageError(
      `${flag} expects a size of at least 1MiB such as 64MiB, 500MB or 1GiB (units B, KiB, MiB, GiB, KB, MB, GB), got '${value}'`,
    );
  }
  return bytes;
}

/** Seconds (fractions allowed, as from CONTROLLER_SCOPE_SETUP_TIMEOUT) as ms. */
function parseSeconds(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new CliUsageError(
      `${flag} (or CONTROLLER_SCOPE_SETUP_TIMEOUT) expects a number of seconds above 0, got '${value}'`,
    );
  }
  return Math.round(n * 1000);
}

/**
 * `--envtest=bare` is `--envtest` without the controller manager. parseArgs gives a boolean no value, so the
 * one value it may carry is read here, and any other is refused by name.
 */
function envtestFlavour(argv: string[]): { args: string[]; envtestBare: boolean } {
  let envtestBare = false;
  const args = argv.map((a) => {
    if (!a.startsWith('--envtest=')) return a;
    if (a !== '--envtest=bare') {
      throw new CliUsageError(
        `${a}: --envtest takes no value (kube-apiserver, etcd and kube-controller-manager) or =bare (the API server and etcd alone)`,
      );
    }
    envtestBare = true;
    return '--envtest';
  });
  return { args, envtestBare };
}

function parsePort(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    throw new CliUsageError(`${flag} expects a port number from 0 to 65535, got '${value}'`);
  }
  return n;
}

function parseControllers(value: string | undefined, fallback: DemoControllerName[]): DemoControllerName[] {
  if (value === undefined) return fallback;
  if (value.trim() === 'none') return [];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = new Set<string>(DEMO_CONTROLLERS);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new CliUsageError(
      `--controllers expects none or a comma-separated list of ${DEMO_CONTROLLERS.join(', ')}; ` +
        (unknown.length ? `unknown: ${unknown.join(', ')}` : 'got an empty list'),
    );
  }
  return names as DemoControllerName[];
}

function parseSpeed(value: string | undefined): ReplaySpeed {
  if (value === undefined || value === '1') return 1;
  if (value === '10') return 10;
  if (value === 'max') return 'max';
  throw new CliUsageError(`--replay-speed expects 1, 10 or max, got '${value}'`);
}

/** The token in FILE, without the trailing newline a Secret or `echo` leaves. */
function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new CliUsageError(`--auth-token-file ${file}: cannot read it (${code}); mount the token Secret there`);
  }
  return text.trim();
}

/** Turns node's parseArgs errors into messages that say what was expected. */
function parse<R>(run: () => R): R {
  try {
    return run();
  } catch (err) {
    const msg = errorMessage(err);
    throw new CliUsageError(
      `${msg.replace(/\. To specify a positional argument.*$/s, '')}. Run with --help to see the flags.`,
    );
  }
}

export function parseCli(argv: string[]): CliOptions {
  if (argv[0] === 'sandbox') {
    const { values } = parse(() =>
      parseArgs({
        args: argv.slice(1),
        strict: true,
        allowPositionals: false,
        options: {
          port: { type: 'string' },
          host: { type: 'string' },
          'kubeconfig-out': { type: 'string' },
          bare: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help) return { command: 'help', text: HELP };
    const host = values.host ?? '127.0.0.1';
    return {
      command: 'sandbox',
      port: parsePort('--port', values.port, 6443),
      host,
      kubeconfigOut: values['kubeconfig-out'],
      bare: values.bare ?? false,
    };
  }

  if (argv[0] === 'attach') return parseAttach(argv.slice(1));
  if (argv[0] === 'test') return parseTest(argv.slice(1));
  if (argv[0] === 'adopt-go') return parseAdoptGo(argv.slice(1));
  const run = argv[0] === 'run';
  const { args, envtestBare } = envtestFlavour(run ? argv.slice(1) : argv);
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        sandbox: { type: 'boolean' },
        envtest: { type: 'boolean' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'in-cluster': { type: 'boolean' },
        replay: { type: 'string' },
        'replay-speed': { type: 'string' },
        namespace: { type: 'string', short: 'n' },
        controllers: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'auth-token': { type: 'string' },
        'auth-token-file': { type: 'string' },
        'allow-writes': { type: 'boolean' },
        record: { type: 'string' },
        'otlp-endpoint': { type: 'string' },
        'ring-bytes': { type: 'string' },
        open: { type: 'boolean' },
        watch: { type: 'boolean' },
        workload: { type: 'string' },
        'kubeconfig-out': { type: 'string' },
        'setup-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { command: 'help', text: HELP };
  if (!run && positionals.length > 0) {
    throw new CliUsageError(
      `unexpected argument '${positionals[0]}': the subcommands are 'run', 'sandbox', 'attach' and 'adopt-go'. Run with --help.`,
    );
  }
  if (run && positionals.length === 0) {
    throw new CliUsageError(
      'run expects one or more controller files, e.g. controller-scope run ./controller.ts. Run with --help.',
    );
  }
  if (values.watch && !run) throw new CliUsageError('--watch goes with run FILE: controller-scope run FILE --watch');
  if (values['setup-timeout'] !== undefined && !run) {
    throw new CliUsageError('--setup-timeout goes with run FILE: controller-scope run FILE --setup-timeout 60');
  }
  const setupTimeout = values['setup-timeout'] ?? (run ? process.env.CONTROLLER_SCOPE_SETUP_TIMEOUT : undefined);
  if (run && values.replay) throw new CliUsageError('run needs a cluster; --replay plays a recording instead');

  const chosen = [
    values.sandbox && '--sandbox',
    values.envtest && '--envtest',
    values.replay && '--replay',
    values.kubeconfig && '--kubeconfig',
    values['in-cluster'] && '--in-cluster',
  ].filter((x): x is string => typeof x === 'string');
  if (chosen.length > 1) throw new CliUsageError(`choose one cluster, got ${chosen.join(' and ')}`);
  if (values.context && (values.sandbox || values.envtest || values.replay)) {
    throw new CliUsageError('--context applies to a kubeconfig cluster, not to --sandbox, --envtest or --replay');
  }
  if (values['replay-speed'] && !values.replay) throw new CliUsageError('--replay-speed needs --replay FILE');
  if (values.record && values.replay) throw new CliUsageError('--record and --replay cannot be used together');
  if (values['ring-bytes'] && values.replay) {
    throw new CliUsageError('--ring-bytes applies to a live cluster; a replay keeps the whole recording it plays');
  }

  let cluster: ClusterChoice;
  if (values.replay) cluster = { mode: 'replay', file: values.replay, speed: parseSpeed(values['replay-speed']) };
  else if (values.envtest) cluster = envtestBare ? { mode: 'envtest', bare: true } : { mode: 'envtest' };
  else if (values.sandbox) cluster = { mode: 'sandbox' };
  else if (values.kubeconfig || values.context || values['in-cluster'])
    cluster = { mode: 'kubeconfig', kubeconfig: values.kubeconfig, context: values.context };
  else cluster = { mode: 'sandbox' };

  const startsCluster = cluster.mode === 'sandbox' || cluster.mode === 'envtest';
  for (const flag of ['workload', 'kubeconfig-out'] as const) {
    if (values[flag] !== undefined && !startsCluster)
      throw new CliUsageError(`--${flag} applies to a cluster controller-scope starts (the sandbox or --envtest)`);
  }
  const workload = parseWorkload(values.workload, run ? 'none' : 'steady');

  const host = values.host ?? '127.0.0.1';
  if (values['auth-token'] !== undefined && values['auth-token-file'] !== undefined) {
    throw new CliUsageError('give the token once: --auth-token or --auth-token-file, not both');
  }
  const tokenFile = values['auth-token-file'];
  const authToken = tokenFile !== undefined ? readTokenFile(tokenFile) : values['auth-token'];
  if (authToken !== undefined && authToken.length < 16) {
    throw new CliUsageError(
      `${tokenFile !== undefined ? `the token in ${tokenFile}` : '--auth-token'} must be at least 16 characters (or leave it out to have one generated)`,
    );
  }
  const realCluster = cluster.mode === 'kubeconfig';
  const defaultControllers: DemoControllerName[] = run ? [] : realCluster ? ['pod-counter'] : [...DEMO_CONTROLLERS];
  return {
    command: 'dashboard',
    cluster,
    namespace: values.namespace,
    controllers: parseControllers(values.controllers, defaultControllers),
    files: run ? positionals : [],
    watch: values.watch ?? false,
    ...(setupTimeout !== undefined ? { setupTimeoutMs: parseSeconds('--setup-timeout', setupTimeout) } : {}),
    port: parsePort('--port', values.port, 7070),
    host,
    authToken,
    allowWrites: values['allow-writes'] ?? false,
    record: values.record,
    ...otlpEndpoint(values['otlp-endpoint']),
    ...(values['ring-bytes'] !== undefined ? { ringBytes: parseByteSize('--ring-bytes', values['ring-bytes']) } : {}),
    workload,
    ...(values['kubeconfig-out'] !== undefined ? { kubeconfigOut: values['kubeconfig-out'] } : {}),
    open: values.open ?? false,
  };
}

function otlpEndpoint(given: string | undefined): { otlpEndpoint?: string } {
  if (given === undefined) return {};
  if (!/^https?:\/\/[^\s/]+/.test(given)) {
    throw new CliUsageError(
      `--otlp-endpoint takes the collector's OTLP/HTTP URL, e.g. http://localhost:4318, got '${given.slice(0, 80)}'`,
    );
  }
  return { otlpEndpoint: given };
}

function parseWorkload(given: string | undefined, fallback: ChurnProfile | 'none'): ChurnProfile | 'none' {
  if (given === undefined) return fallback;
  if (given === 'none') return 'none';
  const profile = CHURN_PROFILES.find((p) => p === given);
  if (profile) return profile;
  throw new CliUsageError(`--workload takes ${CHURN_PROFILES.join(', ')} or none, got '${given.slice(0, 40)}'`);
}

function parseAttach(args: string[]): CliOptions {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        token: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'auth-token': { type: 'string' },
        record: { type: 'string' },
        'otlp-endpoint': { type: 'string' },
        'ring-bytes': { type: 'string' },
        open: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { command: 'help', text: HELP };
  const addresses = (positionals.length ? positionals.join(',') : '127.0.0.1:7071')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  for (const a of addresses) {
    if (!/^(https?:\/\/)?[^\s/:]+:\d{1,5}\/?$/.test(a) && !/^https?:\/\/\[[0-9a-f:]+\]:\d{1,5}\/?$/i.test(a)) {
      throw new CliUsageError(`attach expects host:port addresses (e.g. 127.0.0.1:7071), got '${a}'`);
    }
  }
  const authToken = values['auth-token'];
  if (authToken !== undefined && authToken.length < 16) {
    throw new CliUsageError('--auth-token must be at least 16 characters (or leave it out to have one generated)');
  }
  return {
    command: 'attach',
    addresses,
    ...(values.token ? { bridgeToken: values.token } : {}),
    port: parsePort('--port', values.port, 7070),
    host: values.host ?? '127.0.0.1',
    ...(authToken ? { authToken } : {}),
    ...(values.record ? { record: values.record } : {}),
    ...otlpEndpoint(values['otlp-endpoint']),
    ...(values['ring-bytes'] !== undefined ? { ringBytes: parseByteSize('--ring-bytes', values['ring-bytes']) } : {}),
    open: values.open ?? false,
  };
}

function parseAdoptGo(args: string[]): CliOptions {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { command: 'help', text: HELP };
  if (positionals.length !== 1) {
    throw new CliUsageError(
      'adopt-go expects one directory, the root of a Go module (where go.mod is): controller-scope adopt-go ./my-operator',
    );
  }
  return { command: 'adopt-go', dir: positionals[0] as string, dryRun: values['dry-run'] ?? false };
}

/** A duration such as 90s, 5m, 1500ms or 30 (seconds), as ms. */
export function parseDuration(flag: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m?.[2] ?? 's'] ?? 1000;
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(ms > 0)) throw new CliUsageError(`${flag} expects a duration such as 90s, 5m or 1500ms, got '${value}'`);
  return ms;
}

function parseCount(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new CliUsageError(`${flag} expects a whole number of at least ${min}, got '${value}'`);
  return Number(value);
}

function parseTest(args: string[]): CliOptions {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        scenario: { type: 'string' },
        seed: { type: 'string' },
        runs: { type: 'string' },
        time: { type: 'string' },
        plan: { type: 'string', multiple: true },
        'settle-timeout': { type: 'string' },
        json: { type: 'boolean' },
        junit: { type: 'string' },
        record: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { command: 'help', text: HELP };
  if (positionals.length === 0) {
    throw new CliUsageError(
      'test expects one or more controller files, e.g. controller-scope test ./controller.ts. Run with --help.',
    );
  }
  return {
    command: 'test',
    files: positionals,
    ...(values.scenario !== undefined ? { scenario: values.scenario } : {}),
    seed: parseCount('--seed', values.seed, 0) ?? 1,
    ...(values.runs !== undefined ? { runs: parseCount('--runs', values.runs, 0) } : {}),
    timeMs: values.time !== undefined ? parseDuration('--time', values.time) : DEFAULT_TIME_MS,
    json: values.json ?? false,
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    plans: values.plan ?? [],
    ...(values.record !== undefined ? { record: values.record } : {}),
    settleTimeoutMs:
      values['settle-timeout'] !== undefined
        ? parseDuration('--settle-timeout', values['settle-timeout'])
        : DEFAULT_SETTLE_TIMEOUT_MS,
  };
}
