// The embedded Kubernetes API server: wires storage, the type registry, the watch hub, built-in
// controllers and fault injection behind node:http on 127.0.0.1. Upstream counterpart: the
// kube-apiserver + kube-controller-manager pair an envtest or kind cluster would run.
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realClock, type Clock } from '../../runtime';
import { createBootstrapObjects, createKubernetesService, createSystemNamespaces } from './bootstrap';
import { builtinTypes } from './builtins';
import { BuiltinControllers } from './controllers';
import { defaultUid, type SandboxContext } from './context';
import { admit, sandboxAccess, type SandboxAccess } from './access';
import { FaultInjector } from './faults';
import { ResourceRegistry } from './resources';
import { DEFAULT_KUBERNETES_VERSION, route } from './router';
import { ObjectStorage } from './storage';
import { SandboxStore } from './store-api';
import { WatchHub } from './watch-hub';
import { kubeconfigYaml } from '../kubeconfig-yaml';

export interface SandboxServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1. Off loopback a bearer token is required (see access.ts). */
  host?: string;
  /** Bearer token every request must carry. Default: none on loopback, generated on any other address. */
  token?: string;
  /** Extra names accepted in the Host header besides loopback names and `host`. Default none. */
  allowedHosts?: string[];
  /** How long (ms) change history is kept before compaction; default 5 minutes (etcd's default interval). */
  compactionWindow?: number;
  /** Default realClock. */
  clock?: Clock;
  /** Most change events kept for watches, whatever their age; default 100 000. */
  historyLimit?: number;
  /** Period (ms) of BOOKMARK events for watches that allow them; default 60 000. */
  bookmarkIntervalMs?: number;
  /** Run the ownerReference garbage collector; default true. */
  garbageCollector?: boolean;
  /** Randomness for generateName and failure injection; default Math.random. */
  random?: () => number;
  /** gitVersion reported at /version; default v1.32.0 (semver, e.g. 'v1.36.3'). */
  kubernetesVersion?: string;
}

export class SandboxServer {
  readonly faults: FaultInjector;
  /** Typed in-process access with server semantics; objects are copied in and out. */
  readonly store: SandboxStore;
  readonly registry = new ResourceRegistry();
  private readonly ctx: SandboxContext;
  private readonly hub: WatchHub;
  private readonly controllers: BuiltinControllers;
  private readonly host: string;
  private readonly port: number;
  /** Host allow-list and token; see access.ts. */
  readonly access: SandboxAccess;
  private readonly version: string;
  private http?: Server;
  private ready = false;
  private address = '';

  constructor(opts: SandboxServerOptions = {}) {
    const clock = opts.clock ?? realClock;
    const random = opts.random ?? Math.random;
    this.host = opts.host ?? '127.0.0.1';
    this.port = opts.port ?? 0;
    this.access = sandboxAccess(this.host, {
      ...(opts.token !== undefined ? { token: opts.token } : {}),
      ...(opts.allowedHosts ? { allowedHosts: opts.allowedHosts } : {}),
    });
    this.version = opts.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
    const storage = new ObjectStorage({
      clock,
      compactionWindowMs: opts.compactionWindow ?? 5 * 60_000,
      ...(opts.historyLimit !== undefined ? { historyLimit: opts.historyLimit } : {}),
    });
    this.ctx = {
      storage,
      registry: this.registry,
      clock,
      random,
      newUid: defaultUid,
      // Late-bound: the controllers need the context they are kicked through.
      kickControllers: () => this.controllers?.kick(),
    };
    this.hub = new WatchHub(this.ctx, { bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000 });
    this.controllers = new BuiltinControllers(this.ctx, this.hub, { garbageCollector: opts.garbageCollector ?? true });
    this.faults = new FaultInjector({ clock, storage, hub: this.hub, random });
    this.store = new SandboxStore(this.ctx, this.hub);
    for (const t of builtinTypes(clock)) this.registry.add(t);
    createSystemNamespaces(this.ctx);
    createBootstrapObjects(this.ctx);
  }

  /** Base URL once started, e.g. http://127.0.0.1:41234. */
  get url(): string {
    return this.address ? `http://${this.address}` : '';
  }

  /** Open watch streams (HTTP and in-process). */
  get openWatches(): number {
    return this.hub.size;
  }

  async start(): Promise<{ url: string }> {
    if (this.http) return { url: this.url };
    const server = createServer((req, res) => {
      if (!admit(this.access, req, res)) return;
      void route(
        {
          ctx: this.ctx,
          hub: this.hub,
          faults: this.faults,
          isReady: () => this.ready,
          hostPort: () => this.address,
          version: this.version,
        },
        req,
        res,
      ).catch((e: unknown) => {
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end(String(e));
        }
      });
    });
    server.keepAliveTimeout = 65_000;
    this.http = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    this.access.hosts.port = addr.port;
    this.address = `${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
    createKubernetesService(this.ctx, addr.port);
    this.ready = true;
    return { url: this.url };
  }

  async stop(): Promise<void> {
    this.ready = false;
    this.controllers.stop();
    this.hub.closeAll();
    const server = this.http;
    this.http = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** A kubeconfig whose current context points at this server (plain http; the bearer token when required). */
  kubeconfig(opts: { name?: string; namespace?: string } = {}): string {
    if (!this.url) throw new Error('SandboxServer: start() before asking for a kubeconfig');
    const name = opts.name ?? 'controller-scope-sandbox';
    return kubeconfigYaml({
      name,
      server: this.url,
      // client-node refuses plain http unless TLS verification is marked as skipped.
      cluster: { 'insecure-skip-tls-verify': true },
      ...(this.access.token ? { user: { token: this.access.token } } : {}),
      namespace: opts.namespace ?? 'default',
    });
  }

  async writeKubeconfig(file: string, opts: { name?: string; namespace?: string } = {}): Promise<void> {
    await writeFile(file, this.kubeconfig(opts), { mode: 0o600 });
  }
}
