// Ports controller-runtime pkg/manager/manager.go + internal.go (controllerManager): owns the cluster
// (cache, clients, REST mapper), runs runnables in upstream's group order, gates leader-election
// runnables behind the elector, and shuts down in reverse within a grace period.
import type { Registry } from 'prom-client';
import type { GroupVersionKind } from '../../../shared/models/object';
import type { ManagerLifecycleEvent } from '../../../shared/protocol/events-controller';
import type { InformerCache } from '../cache/informer-cache';
import { newInformerCache } from '../cache/informer-cache';
import { CachedClient } from '../client/cached-client';
import type { RestConfig } from '../client/config';
import { HttpClient } from '../client/http';
import type { Client, Reader } from '../client/interfaces';
import { newAPIReader, RestClient } from '../client/rest-client';
import { DynamicRESTMapper } from '../client/rest-mapper';
import { Controller } from '../controller/controller';
import type { ControllerConfig } from '../controller/options';
import { wellKnownScope } from '../handler/enqueue-owner';
import { MultiProbe, type Probe } from '../instrumentation/probe';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  newResourceLock,
} from '../leaderelection/options';
import { LeaderElector } from '../leaderelection/leader-elector';
import type { ResourceLock } from '../leaderelection/resource-lock';
import { leaderElectionMetrics } from '../metrics/leaderelection-metrics';
import { restClientMetrics } from '../metrics/client-go-adapter';
import { registry as defaultRegistry } from '../metrics/registry';
import { NULL_LOGGER, type Logger } from '../reconcile/logger';
import { allowManyListeners, childContext, whenAborted } from '../util/context';
import { gvkId, toGVK, type KindDescriptor } from '../client/gvk';
import { newScheme, type Scheme } from '../client/scheme';
import { realClock, type Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import { newEventRecorder, type EventRecorder } from './event-recorder';
import { HealthProbeServer } from './health-server';
import { HealthzHandler, type Checker } from './healthz';
import { DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS, type ManagerOptions } from './options';
import { Runnables, type GroupName } from './runnable-group';
import type { CacheRunnable, Runnable } from './runnable';

export class Manager {
  readonly clock: Clock;
  /** What every block the manager builds reports to: the probe given in the options, plus any added later. */
  readonly probe: Probe;
  private readonly probes: MultiProbe;
  readonly registry: Registry;
  readonly log: Logger;
  private readonly config?: RestConfig;
  private readonly cache: InformerCache;
  private readonly client: Client;
  private readonly apiReader: Reader;
  private readonly mapper?: DynamicRESTMapper;
  private readonly scheme: Scheme;
  private readonly lock?: ResourceLock;
  private readonly runnables: Runnables;
  private readonly controllers = new Map<string, Controller>();
  private readonly healthChecks = new Map<string, Checker>();
  private readonly readyChecks = new Map<string, Checker>();
  private readonly healthServer?: HealthProbeServer;
  private gracefulShutdownTimeoutMs: number;
  private started = false;
  private stopping = false;
  private errors: unknown[] = [];
  private onRunError?: (err: unknown) => void;
  private electedResolve!: () => void;
  private readonly electedPromise: Promise<void>;
  private isElected = false;

  constructor(
    config: RestConfig | undefined,
    private readonly o: ManagerOptions = {},
  ) {
    if (!config && !(o.client && o.newCache)) throw new Error('must specify Config');
    this.config = config;
    this.clock = o.clock ?? realClock;
    this.probes = new MultiProbe(o.probe ? [o.probe] : []);
    this.probe = this.probes;
    this.registry = o.registry ?? defaultRegistry;
    this.log = o.log ?? NULL_LOGGER;
    this.gracefulShutdownTimeoutMs = o.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS;
    this.electedPromise = new Promise((r) => (this.electedResolve = r));
    this.scheme = o.scheme ?? newScheme();

    let rest: RestClient | undefined;
    if (config) {
      const http = new HttpClient({ config, clock: this.clock, metrics: restClientMetrics(this.registry) });
      this.mapper = o.mapper ?? new DynamicRESTMapper({ http });
      rest = new RestClient({ http, mapper: this.mapper, probe: this.probe, clock: this.clock });
      this.apiReader = o.apiReader ?? newAPIReader({ http, mapper: this.mapper, probe: this.probe, clock: this.clock });
      this.cache =
        o.newCache?.() ??
        newInformerCache({ http, mapper: this.mapper, clock: this.clock, probe: this.probe, ...o.cache });
    } else {
      this.mapper = o.mapper;
      this.cache = (o.newCache as () => InformerCache)();
      this.apiReader = o.apiReader ?? (o.client as Client);
    }
    const clientOptions = {
      client: rest as RestClient,
      cache: this.cache,
      probe: this.probe,
      clock: this.clock,
      ...(o.clientCache?.disableFor ? { disableFor: o.clientCache.disableFor } : {}),
      cacheUnstructured: o.clientCache?.unstructured ?? false,
      // Typed reads: the scheme's kinds, and kinds a controller watches (Go code must have added those
      // to the scheme to watch them).
      isTyped: (gvk: GroupVersionKind) => this.scheme.recognizes(gvk) || this.cache.kinds().includes(gvkId(gvk)),
    };
    this.client = o.client ?? (o.newClient ? o.newClient(clientOptions) : new CachedClient(clientOptions));

    const leaseClient = o.leaderElectionClient ?? rest ?? o.client;
    this.lock = leaseClient ? newResourceLock(leaseClient, o) : undefined;
    if (o.leaderElection && !this.lock) throw new Error('leader election needs a client for its Lease');

    this.runnables = new Runnables(this.clock, (err) => this.runnableFailed(err));
    const bind = o.healthProbeBindAddress ?? '';
    if (bind !== '' && bind !== '0') {
      this.healthServer = new HealthProbeServer({
        bindAddress: bind,
        readinessEndpointName: o.readinessEndpointName ?? '/readyz',
        livenessEndpointName: o.livenessEndpointName ?? '/healthz',
        readyz: this.getReadyzHandler(),
        healthz: this.getHealthzHandler(),
      });
    }
  }

  /**
   * Adds a probe after construction (a dashboard attached in the user's main). Every block the manager built
   * or builds reports to it from then on; the returned function detaches it.
   */
  addProbe(probe: Probe): () => void {
    return this.probes.add(probe);
  }

  /** Add: classifies r into its group (started at once if that group already runs). */
  add(r: Runnable): GroupName {
    const group = this.runnables.add(r);
    if (r instanceof Controller) this.controllers.set(r.name, r);
    return group;
  }

  /** Controllers added to this manager, by name (for the dashboard's steppers and requeue). */
  getController(name: string): Controller | undefined {
    return this.controllers.get(name);
  }

  getControllers(): Controller[] {
    return [...this.controllers.values()];
  }

  getClient(): Client {
    return this.client;
  }

  /**
   * GetEventRecorder: an events.k8s.io/v1 recorder whose events name `name` as their reportingController,
   * created through the manager's client.
   */
  getEventRecorder(name: string): EventRecorder {
    return newEventRecorder({ name, client: this.client, clock: this.clock, log: this.log });
  }

  /** GetEventRecorderFor: upstream's older name; here it records through events.k8s.io/v1 as well. */
  getEventRecorderFor(name: string): EventRecorder {
    return this.getEventRecorder(name);
  }

  /** The kinds read as typed objects: client-go's built-ins plus what options.scheme added. */
  getScheme(): Scheme {
    return this.scheme;
  }

  getCache(): InformerCache {
    return this.cache;
  }

  getFieldIndexer(): InformerCache {
    return this.cache;
  }

  /** Reads that always go to the API server. */
  getAPIReader(): Reader {
    return this.apiReader;
  }

  getRESTMapper(): DynamicRESTMapper | undefined {
    return this.mapper;
  }

  getConfig(): RestConfig | undefined {
    return this.config;
  }

  getControllerOptions(): ControllerConfig {
    return this.o.controller ?? {};
  }

  getLogger(): Logger {
    return this.log;
  }

  /** The scheme-less type lookup: a descriptor ("apps/v1/Deployment", "Pod", a GVK) to its GVK. */
  gvkFor(kind: KindDescriptor): GroupVersionKind {
    return toGVK(kind);
  }

  /** Whether a kind is namespaced, from the REST mapper (built-in table when there is none). */
  async isNamespaced(gvk: GroupVersionKind): Promise<boolean> {
    if (this.mapper) return this.mapper.isGVKNamespaced(gvk);
    return wellKnownScope(gvk);
  }

  /** Resolves once leadership is held (at once when leader election is off). */
  elected(): Promise<void> {
    return this.electedPromise;
  }

  isLeader(): boolean {
    return this.isElected;
  }

  addHealthzCheck(name: string, check: Checker): void {
    if (this.started) throw new Error('unable to add new checker because healthz endpoint has already been created');
    this.healthChecks.set(name, check);
  }

  addReadyzCheck(name: string, check: Checker): void {
    if (this.started) throw new Error('unable to add new checker because healthz endpoint has already been created');
    this.readyChecks.set(name, check);
  }

  getHealthzHandler(): HealthzHandler {
    return new HealthzHandler(this.healthChecks);
  }

  getReadyzHandler(): HealthzHandler {
    return new HealthzHandler(this.readyChecks);
  }

  getHealthProbeServer(): HealthProbeServer | undefined {
    return this.healthServer;
  }

  /** Runs until signal aborts (→ resolves) or a runnable fails (→ rejects with its error). */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('manager already started');
    this.started = true;
    allowManyListeners(signal);
    this.lifecycle('starting');
    const internal = childContext(signal, this.clock);
    const leCtx = childContext(undefined, this.clock);
    let leRun: Promise<void> | undefined;
    const failed = new Promise<void>((resolve) => {
      this.onRunError = () => resolve();
    });
    if (this.errors.length > 0) this.onRunError?.(this.errors[0]);

    let runError: unknown;
    try {
      const cacheRunnable: CacheRunnable = {
        start: (s) => this.cache.start(s),
        waitForCacheSync: (s) => this.cache.waitForCacheSync(s),
        getCache: () => this.cache,
      };
      this.runnables.add(cacheRunnable);
      if (this.healthServer) this.runnables.add(this.healthServer);

      for (const g of ['HTTPServers', 'Webhooks', 'Caches', 'Others', 'Warmup'] as const) {
        await Promise.race([this.runnables[g].start(internal.signal), failed]);
        if (this.errors.length > 0 || internal.signal.aborted) break;
        this.lifecycle('started', g === 'Warmup' ? 'WarmupRunnables' : g);
      }

      if (this.errors.length === 0 && !internal.signal.aborted) {
        if (this.lock) leRun = this.runLeaderElection(this.lock, internal.signal, leCtx.signal);
        else await this.startLeaderElectionRunnables(internal.signal);
        // Every group is up (leader-election runnables follow once elected): the manager as a whole runs.
        if (this.errors.length === 0 && !internal.signal.aborted) this.lifecycle('started');
      }
      await Promise.race([whenAborted(internal.signal), failed]);
      runError = this.errors[0];
    } catch (err) {
      // A cancellation while groups are starting is a normal stop, not a failure.
      if (!internal.signal.aborted || this.errors.length > 0) runError = this.errors[0] ?? err;
    }

    this.stopping = true;
    this.lifecycle('stopping');
    internal.cancel();
    const stopError = await this.engageStopProcedure();
    leCtx.cancel();
    await leRun;
    const errs = [runError, stopError].filter((e) => e !== undefined);
    if (errs.length === 0) {
      this.lifecycle('stopped');
      return;
    }
    const err = errs.length === 1 ? errs[0] : new Error(`[${errs.map(errorMessage).join(', ')}]`);
    this.lifecycle('error', undefined, errorMessage(err));
    throw err;
  }

  private async startLeaderElectionRunnables(signal: AbortSignal): Promise<void> {
    await this.runnables.LeaderElection.start(signal);
    this.isElected = true;
    this.electedResolve();
    this.lifecycle('started', 'LeaderElection');
  }

  private runLeaderElection(lock: ResourceLock, internal: AbortSignal, leSignal: AbortSignal): Promise<void> {
    const elector = new LeaderElector({
      lock,
      leaseDurationMs: this.o.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS,
      renewDeadlineMs: this.o.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS,
      retryPeriodMs: this.o.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS,
      releaseOnCancel: this.o.leaderElectionReleaseOnCancel ?? false,
      name: this.o.leaderElectionID,
      clock: this.clock,
      probe: this.probe,
      metrics: leaderElectionMetrics(this.registry),
      callbacks: {
        onStartedLeading: () => {
          // The elector runs until the stop procedure is over (the lease is held while runnables finish), so
          // a stopping manager can still win it: upstream refuses to start leader-election runnables then.
          if (this.stopping || internal.aborted) {
            this.log.info('elected while stopping: leader-election runnables are not started');
            return;
          }
          void this.startLeaderElectionRunnables(internal).catch((err: unknown) => this.runnableFailed(err));
        },
        onStoppedLeading: () => {
          if (this.stopping) return;
          // Losing the lease ends the process upstream; here it fails Start without a grace period.
          this.gracefulShutdownTimeoutMs = 0;
          this.runnableFailed(new Error('leader election lost'));
        },
      },
    });
    return elector.run(leSignal);
  }

  private runnableFailed(err: unknown): void {
    if (this.stopping) {
      this.log.error(err, 'error received after stop sequence was engaged');
      return;
    }
    this.errors.push(err);
    this.onRunError?.(err);
  }

  /** Stops groups in reverse start order within the grace period. */
  private async engageStopProcedure(): Promise<unknown> {
    const timeout = this.gracefulShutdownTimeoutMs;
    const deadline = timeout > 0 ? childContext(undefined, this.clock, timeout) : undefined;
    const stopAll = async (): Promise<void> => {
      await Promise.all([
        this.runnables.Others.stopAndWait(deadline?.signal),
        this.runnables.Warmup.stopAndWait(deadline?.signal),
      ]);
      await this.runnables.LeaderElection.stopAndWait(deadline?.signal);
      await this.runnables.Caches.stopAndWait(deadline?.signal);
      await this.runnables.Webhooks.stopAndWait(deadline?.signal);
      await this.runnables.HTTPServers.stopAndWait(deadline?.signal);
    };
    if (timeout === 0) {
      void stopAll();
      return undefined;
    }
    try {
      await stopAll();
      if (deadline?.signal.aborted) {
        return new Error(
          `failed waiting for all runnables to end within grace period of ${timeout / 1000}s: context deadline exceeded`,
        );
      }
      return undefined;
    } finally {
      deadline?.cancel();
    }
  }

  private lifecycle(
    phase: ManagerLifecycleEvent['phase'],
    group?: ManagerLifecycleEvent['group'],
    error?: string,
  ): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'manager.lifecycle',
      phase,
      ...(group ? { group } : {}),
      ...(error !== undefined ? { error } : {}),
    });
  }
}

/** manager.New */
export function newManager(config: RestConfig | undefined, options: ManagerOptions = {}): Manager {
  return new Manager(config, options);
}
