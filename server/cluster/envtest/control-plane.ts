// Ports controller-runtime pkg/internal/testing/controlplane/plane.go (+ etcd.go, apiserver.go): etcd and
// kube-apiserver on free loopback ports, a throwaway CA with an admin client certificate, readiness waits,
// an admin kubeconfig, and a stop() that always takes both process groups and the temp dir down.
//
// Flags follow envtest's defaults plus two fixes for route-less hosts (see README.md beside this file).
// Unlike envtest it can also start kube-controller-manager, so owner references are collected, namespaces
// are finalized and the workload controllers run as on a cluster.

import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAssets } from './assets';
import type { EnvtestAssets } from './assets';
import { renderKubeconfig } from './kubeconfig-file';
import { generatePki } from './pki';
import { freePort } from './ports';
import { ManagedProcess } from './process';
import type { ManagedProcessOptions } from './process';
import { httpCall, pollUntilReady } from './readiness';
import { errorMessage } from '../../runtime';

/** Flag overrides: a string sets `--name=value`, null drops a default flag. */
export type FlagOverrides = Record<string, string | null>;

export interface ControlPlaneOptions {
  /** Binaries to run. Default: findAssets({ assetsDir, env }). */
  assets?: EnvtestAssets;
  /** Passed to findAssets when assets is not given; KUBEBUILDER_ASSETS and TEST_ASSET_* still win. */
  assetsDir?: string;
  /** Environment for asset lookup and the children. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Parent of the per-run temp dir. Default os.tmpdir(). */
  tmpRoot?: string;
  /** Per readiness wait. Default KUBEBUILDER_CONTROLPLANE_START_TIMEOUT or 60 s (2-core machines are slow). */
  startTimeoutMs?: number;
  /** SIGTERM grace before SIGKILL, per process. Default KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT or 20 s. */
  stopTimeoutMs?: number;
  /** Whole start-ups tried when a port was taken in between. Default 3. */
  startAttempts?: number;
  /** Extra or replaced kube-apiserver flags (name without dashes). */
  apiServerFlags?: FlagOverrides;
  /** Extra or replaced etcd flags (name without dashes). */
  etcdFlags?: FlagOverrides;
  /**
   * Also start kube-controller-manager (garbage collector, namespace lifecycle, workload controllers,
   * service accounts). Default false: envtest's plane, an API server that nothing but its clients acts on.
   */
  controllerManager?: boolean;
  /** Extra or replaced kube-controller-manager flags (name without dashes). */
  controllerManagerFlags?: FlagOverrides;
  /** Keep the temp dir (logs, certs, etcd data) after stop for debugging. Default CONTROLLER_SCOPE_ENVTEST_KEEP=1. */
  keepTmpDir?: boolean;
}

export interface ControlPlaneInfo {
  apiServerUrl: string;
  etcdUrl: string;
  kubeconfigPath: string;
  kubeconfig: string;
  /** PEM strings for clients that don't read kubeconfig files. */
  tls: { ca: string; cert: string; key: string };
  tmpDir: string;
  pids: { etcd: number; kubeApiserver: number; kubeControllerManager?: number };
  /** Wall time of the successful start(), certificates included. */
  startupMs: number;
  /**
   * Where the start-up time went, in ms: certificates, etcd healthy, apiserver ready, "default" namespace
   * seen, and the controller manager healthy when it runs.
   */
  phases: { pkiMs: number; etcdMs: number; apiServerMs: number; namespaceMs: number; controllerManagerMs?: number };
  /** Start-up attempts used (more than one only after a port clash). */
  attempts: number;
}

export class ControlPlaneStartError extends Error {
  /** Process group ids that were started for the failed attempt; all of them were stopped before throwing. */
  readonly pids: number[];
  constructor(message: string, options: { cause?: unknown; pids: number[] }) {
    super(message, { cause: options.cause });
    this.name = 'ControlPlaneStartError';
    this.pids = options.pids;
  }
}

function parseDurationMs(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1_000;
}

function toArgs(defaults: Record<string, string>, overrides: FlagOverrides = {}): string[] {
  const merged: FlagOverrides = { ...defaults, ...overrides };
  return Object.entries(merged)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => `--${k}=${v}`);
}

const PORT_CLASH = /address already in use|bind: address/i;

export class ControlPlane {
  private readonly options: ControlPlaneOptions;
  private readonly env: NodeJS.ProcessEnv;
  private readonly startTimeoutMs: number;
  private readonly stopTimeoutMs: number;
  private procs: { etcd?: ManagedProcess; apiserver?: ManagedProcess; controllerManager?: ManagedProcess } = {};
  private tmpDir: string | undefined;
  private current: ControlPlaneInfo | undefined;
  private stopping: Promise<void> | undefined;
  /** How the running kube-apiserver was launched, so it can be started again alone on the same etcd. */
  private apiLaunch: { options: ManagedProcessOptions; ready: () => Promise<boolean> } | undefined;

  constructor(options: ControlPlaneOptions = {}) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.startTimeoutMs =
      options.startTimeoutMs ?? parseDurationMs(this.env.KUBEBUILDER_CONTROLPLANE_START_TIMEOUT) ?? 60_000;
    this.stopTimeoutMs =
      options.stopTimeoutMs ?? parseDurationMs(this.env.KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT) ?? 20_000;
  }

  /** Connection details; throws before start() resolved. */
  get info(): ControlPlaneInfo {
    if (!this.current) throw new Error('ControlPlane is not started');
    return this.current;
  }

  get started(): boolean {
    return this.current !== undefined;
  }

  /** The live process group ids (equal to the leaders' pids); empty when stopped. */
  pids(): number[] {
    const { etcd, apiserver, controllerManager } = this.procs;
    return [etcd?.pid, apiserver?.pid, controllerManager?.pid].filter((p): p is number => p !== undefined && p > 0);
  }

  /**
   * Starts etcd then kube-apiserver and waits until the apiserver is ready and the "default" namespace exists.
   * On any failure both processes are stopped, the temp dir removed, and the error carries their log tails.
   */
  async start(signal?: AbortSignal): Promise<ControlPlaneInfo> {
    if (this.current) return this.current;
    if (this.stopping) await this.stopping;
    const t0 = Date.now();
    const assets = this.options.assets ?? findAssets({ assetsDir: this.options.assetsDir, env: this.env });
    const tmpDir = await mkdtemp(join(this.options.tmpRoot ?? tmpdir(), 'controller-scope-envtest-'));
    this.tmpDir = tmpDir;
    try {
      const pkiDir = join(tmpDir, 'pki');
      await mkdir(pkiDir, { mode: 0o700 });
      const pki = await generatePki({ dir: pkiDir });
      const pkiMs = Date.now() - t0;
      const tls = {
        ca: await readFile(pki.caCert, 'utf8'),
        cert: await readFile(pki.adminCert, 'utf8'),
        key: await readFile(pki.adminKey, 'utf8'),
      };
      const attemptsAllowed = Math.max(1, this.options.startAttempts ?? 3);
      for (let attempt = 1; ; attempt++) {
        try {
          const urls = await this.startOnce(assets, tmpDir, pki, tls, attempt, signal);
          const { kubeconfig, kubeconfigPath } = urls;
          this.current = {
            apiServerUrl: urls.apiServerUrl,
            etcdUrl: urls.etcdUrl,
            kubeconfigPath,
            kubeconfig,
            tls,
            tmpDir,
            pids: {
              etcd: this.procs.etcd?.pid ?? -1,
              kubeApiserver: this.procs.apiserver?.pid ?? -1,
              ...(this.procs.controllerManager ? { kubeControllerManager: this.procs.controllerManager.pid } : {}),
            },
            startupMs: Date.now() - t0,
            phases: { pkiMs, ...urls.phases },
            attempts: attempt,
          };
          return this.current;
        } catch (err) {
          const tails = this.logTails();
          const pids = this.pids();
          await this.stopProcesses();
          const clash = PORT_CLASH.test(tails);
          if (clash && attempt < attemptsAllowed && !signal?.aborted) continue;
          const msg = errorMessage(err);
          throw new ControlPlaneStartError(
            `control plane failed to start (attempt ${attempt}/${attemptsAllowed}, binaries from ${assets.source}): ${msg}\n${tails}`,
            { cause: err, pids },
          );
        }
      }
    } catch (err) {
      await this.removeTmpDir();
      throw err;
    }
  }

  private async startOnce(
    assets: EnvtestAssets,
    tmpDir: string,
    pki: Awaited<ReturnType<typeof generatePki>>,
    tls: { ca: string; cert: string; key: string },
    attempt: number,
    signal?: AbortSignal,
  ): Promise<{
    apiServerUrl: string;
    etcdUrl: string;
    kubeconfig: string;
    kubeconfigPath: string;
    phases: { etcdMs: number; apiServerMs: number; namespaceMs: number; controllerManagerMs?: number };
  }> {
    const host = '127.0.0.1';
    let mark = Date.now();
    const lap = (): number => {
      const now = Date.now();
      const d = now - mark;
      mark = now;
      return d;
    };
    const etcdPort = await freePort(host);
    const peerPort = await freePort(host);
    const apiPort = await freePort(host);
    const etcdUrl = `http://${host}:${etcdPort}`;
    const peerUrl = `http://${host}:${peerPort}`;
    const apiServerUrl = `https://${host}:${apiPort}`;
    const dataDir = join(tmpDir, `etcd-data-${attempt}`);
    const certDir = join(tmpDir, `apiserver-certs-${attempt}`);
    await mkdir(certDir, { recursive: true });

    const etcdArgs = toArgs(
      {
        name: 'envtest',
        'data-dir': dataDir,
        'listen-client-urls': etcdUrl,
        'advertise-client-urls': etcdUrl,
        'listen-peer-urls': peerUrl,
        'initial-advertise-peer-urls': peerUrl,
        'initial-cluster': `envtest=${peerUrl}`,
        // Throwaway data: skipping fsync is the biggest start-up and write-latency win.
        'unsafe-no-fsync': 'true',
        'log-level': 'warn',
      },
      this.options.etcdFlags,
    );
    this.procs.etcd = new ManagedProcess({
      name: 'etcd',
      command: assets.etcd,
      args: etcdArgs,
      logFile: join(tmpDir, 'etcd.log'),
      env: this.env,
    });
    await pollUntilReady({
      describe: `etcd ${etcdUrl}/health`,
      probe: async () => {
        const r = await httpCall(`${etcdUrl}/health`, { timeoutMs: 2_000 });
        if (r.status !== 200 || !r.body.includes('"health":"true"')) throw new Error(`status ${r.status}: ${r.body}`);
        return true;
      },
      watch: [this.procs.etcd],
      timeoutMs: this.startTimeoutMs,
      intervalMs: 100,
      signal,
    });

    const apiArgs = toArgs(
      {
        'etcd-servers': etcdUrl,
        'bind-address': host,
        // Without it the apiserver looks for a default route to pick an address and exits on hosts that have none.
        'advertise-address': host,
        'secure-port': String(apiPort),
        'cert-dir': certDir,
        'tls-cert-file': pki.servingCert,
        'tls-private-key-file': pki.servingKey,
        'client-ca-file': pki.caCert,
        'service-account-issuer': `${apiServerUrl}/`,
        'service-account-key-file': pki.saPublicKey,
        'service-account-signing-key-file': pki.saPrivateKey,
        'service-cluster-ip-range': '10.0.0.0/24',
        'authorization-mode': 'RBAC',
        'allow-privileged': 'true',
        // A loopback advertise address is invalid in Endpoints; with no reconciler nothing tries to write it.
        'endpoint-reconciler-type': 'none',
        // No controller-manager creates the "default" ServiceAccount, so the admission plugin would reject pods.
        'disable-admission-plugins': 'ServiceAccount',
      },
      this.options.apiServerFlags,
    );
    const etcdMs = lap();
    const options: ManagedProcessOptions = {
      name: 'kube-apiserver',
      command: assets.kubeApiserver,
      args: apiArgs,
      logFile: join(tmpDir, 'kube-apiserver.log'),
      env: this.env,
    };
    const ready = async () => {
      // Anonymous, verified against our CA: /readyz is open to system:public-info-viewer.
      const r = await httpCall(`${apiServerUrl}/readyz`, { tls: { ca: tls.ca }, timeoutMs: 5_000 });
      if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body.slice(0, 300)}`);
      return true;
    };
    this.apiLaunch = { options, ready };
    this.procs.apiserver = new ManagedProcess(options);
    const watch = [this.procs.etcd, this.procs.apiserver];
    await pollUntilReady({
      describe: `kube-apiserver ${apiServerUrl}/readyz`,
      probe: ready,
      watch,
      timeoutMs: this.startTimeoutMs,
      intervalMs: 100,
      signal,
    });
    const apiServerMs = lap();
    await pollUntilReady({
      describe: 'namespace "default"',
      probe: async () => {
        const r = await httpCall(`${apiServerUrl}/api/v1/namespaces/default`, { tls, timeoutMs: 5_000 });
        if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body.slice(0, 300)}`);
        return true;
      },
      watch,
      timeoutMs: this.startTimeoutMs,
      intervalMs: 50,
      signal,
    });
    const namespaceMs = lap();
    // The admin kubeconfig, written once: the caller hands it out, and the controller manager runs with it.
    const kubeconfig = renderKubeconfig({ server: apiServerUrl, caPem: tls.ca, certPem: tls.cert, keyPem: tls.key });
    const kubeconfigPath = join(tmpDir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const up = { apiServerUrl, etcdUrl, kubeconfig, kubeconfigPath };
    if (!this.options.controllerManager) return { ...up, phases: { etcdMs, apiServerMs, namespaceMs } };
    await this.startControllerManager({ assets, tmpDir, pki, kubeconfig: kubeconfigPath, ca: tls.ca, signal });
    return { ...up, phases: { etcdMs, apiServerMs, namespaceMs, controllerManagerMs: lap() } };
  }

  /**
   * kube-controller-manager with the admin credentials (one identity for every controller, as
   * --use-service-account-credentials=false does), serving /healthz on a free port with the API server's
   * certificate so readiness is checked against our CA, and no leader election: it is the only one.
   */
  private async startControllerManager(at: {
    assets: EnvtestAssets;
    tmpDir: string;
    pki: Awaited<ReturnType<typeof generatePki>>;
    /** Path of the admin kubeconfig. */
    kubeconfig: string;
    /** The plane's CA, PEM: the /healthz answer is verified against it. */
    ca: string;
    signal?: AbortSignal;
  }): Promise<void> {
    const { assets, pki, kubeconfig, ca } = at;
    if (!assets.kubeControllerManager) {
      throw new Error(
        `kube-controller-manager not found beside kube-apiserver (binaries from ${assets.source}): ` +
          'rebuild the cache with scripts/setup-envtest.sh, set TEST_ASSET_KUBE_CONTROLLER_MANAGER, ' +
          'or start the API server alone (run --envtest=bare)',
      );
    }
    const host = '127.0.0.1';
    const port = await freePort(host);
    const args = toArgs(
      {
        kubeconfig,
        'authentication-kubeconfig': kubeconfig,
        'authorization-kubeconfig': kubeconfig,
        'bind-address': host,
        'secure-port': String(port),
        'tls-cert-file': pki.servingCert,
        'tls-private-key-file': pki.servingKey,
        'leader-elect': 'false',
        // The token and root-CA publishers need the keys the API server verifies service accounts with.
        'service-account-private-key-file': pki.saPrivateKey,
        'root-ca-file': pki.caCert,
      },
      this.options.controllerManagerFlags,
    );
    const proc = new ManagedProcess({
      name: 'kube-controller-manager',
      command: assets.kubeControllerManager,
      args,
      logFile: join(at.tmpDir, 'kube-controller-manager.log'),
      env: this.env,
    });
    this.procs.controllerManager = proc;
    await pollUntilReady({
      describe: `kube-controller-manager https://${host}:${port}/healthz`,
      probe: async () => {
        const r = await httpCall(`https://${host}:${port}/healthz`, { tls: { ca }, timeoutMs: 5_000 });
        if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body.slice(0, 300)}`);
        return true;
      },
      watch: [this.procs.etcd, this.procs.apiserver, proc].filter((p): p is ManagedProcess => p !== undefined),
      timeoutMs: this.startTimeoutMs,
      intervalMs: 100,
      signal: at.signal,
    });
  }

  /**
   * Kills kube-apiserver with SIGKILL (no shutdown, in-flight requests and watches just die) and leaves
   * etcd running; startApiServer() brings it back. For chaos tests.
   */
  async killApiServer(): Promise<void> {
    if (!this.current) throw new Error('ControlPlane is not started');
    await this.procs.apiserver?.kill();
    this.procs.apiserver = undefined;
  }

  /**
   * Starts kube-apiserver again with the same flags, port, certificates and etcd data, and waits for
   * /readyz. Its pid replaces the old one in info.pids.
   */
  async startApiServer(signal?: AbortSignal): Promise<void> {
    const launch = this.apiLaunch;
    if (!this.current || !launch || !this.procs.etcd) throw new Error('ControlPlane is not started');
    if (this.procs.apiserver) throw new Error('kube-apiserver is already running: killApiServer() first');
    const proc = new ManagedProcess(launch.options);
    this.procs.apiserver = proc;
    await pollUntilReady({
      describe: `restarted kube-apiserver /readyz`,
      probe: launch.ready,
      watch: [this.procs.etcd, proc],
      timeoutMs: this.startTimeoutMs,
      intervalMs: 100,
      signal,
    });
    this.current = { ...this.current, pids: { ...this.current.pids, kubeApiserver: proc.pid } };
  }

  /** killApiServer() then startApiServer(). */
  async restartApiServer(signal?: AbortSignal): Promise<void> {
    await this.killApiServer();
    await this.startApiServer(signal);
  }

  private logTails(): string {
    return [this.procs.etcd, this.procs.apiserver, this.procs.controllerManager]
      .filter((p): p is ManagedProcess => p !== undefined)
      .map((p) => `--- ${p.name} log (${p.logFile}), last lines ---\n${p.logTail(30) || '(empty)'}`)
      .join('\n');
  }

  private async stopProcesses(): Promise<void> {
    const { etcd, apiserver, controllerManager } = this.procs;
    this.procs = {};
    // Clients before servers: each would log a storm of connection errors while the one it talks to stops.
    if (controllerManager) await controllerManager.stop(this.stopTimeoutMs);
    if (apiserver) await apiserver.stop(this.stopTimeoutMs);
    if (etcd) await etcd.stop(this.stopTimeoutMs);
  }

  private async removeTmpDir(): Promise<void> {
    const dir = this.tmpDir;
    this.tmpDir = undefined;
    const keep = this.options.keepTmpDir ?? this.env.CONTROLLER_SCOPE_ENVTEST_KEEP === '1';
    if (dir && !keep) await rm(dir, { recursive: true, force: true });
  }

  /** Stops every process group (SIGTERM, then SIGKILL) and removes the temp dir. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      try {
        await this.stopProcesses();
        await this.removeTmpDir();
      } finally {
        this.current = undefined;
        this.stopping = undefined;
      }
    })();
    return this.stopping;
  }
}
