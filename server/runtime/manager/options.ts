// Ports controller-runtime pkg/manager/manager.go (Options and setOptionsDefaults): defaults in one place.
import type { Registry } from 'prom-client';
import type { CacheOptions, InformerCache } from '../cache/informer-cache';
import type { CachedClientOptions } from '../client/cached-client';
import type { Client, ObjectType, Reader } from '../client/interfaces';
import type { Scheme } from '../client/scheme';
import type { DynamicRESTMapper } from '../client/rest-mapper';
import type { ControllerConfig } from '../controller/options';
import type { Probe } from '../instrumentation/probe';
import type { LeaderElectionOptions } from '../leaderelection/options';
import type { LeaseClient } from '../leaderelection/lease-lock';
import type { Logger } from '../reconcile/logger';
import type { Clock } from '../util/clock';

export type { CacheOptions } from '../cache/informer-cache';

export const DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS = 30_000;

/** client.CacheOptions: which reads the manager's client serves from the cache. */
export interface ClientCacheOptions {
  /** Kinds always read from the API server. */
  disableFor?: ObjectType[];
  /** Serve unstructured reads (kinds not in the scheme) from the cache too. Default false, as upstream. */
  unstructured?: boolean;
}

export interface ManagerOptions extends LeaderElectionOptions {
  /** Default realClock. */
  clock?: Clock;
  /** Default NOOP_PROBE; handed to the cache, clients, controllers and the elector. */
  probe?: Probe;
  /** controller-runtime's metrics.Registry by default. */
  registry?: Registry;
  /** Default NULL_LOGGER. */
  log?: Logger;
  /** Manager-wide controller defaults. */
  controller?: ControllerConfig;
  cache?: CacheOptions;
  /** Kinds read as typed objects (runtime.Scheme); default client-go's built-in groups. */
  scheme?: Scheme;
  /** client.Options.Cache for the manager's client. */
  clientCache?: ClientCacheOptions;
  /** Default 30s; 0 = don't wait for runnables; negative = wait without limit. */
  gracefulShutdownTimeoutMs?: number;
  /** "" or "0" = off (default). "host:port" serves the readiness/liveness endpoints. */
  healthProbeBindAddress?: string;
  /** Default "/readyz". */
  readinessEndpointName?: string;
  /** Default "/healthz". */
  livenessEndpointName?: string;
  /** Replace the built pieces (tests, or embedding without a kubeconfig). */
  newCache?: () => InformerCache;
  client?: Client;
  /**
   * Builds the manager's client from the uncached REST client and the cache (controller-runtime's
   * Options.NewClient). Default: the cache-backed client. Used to wrap the client, e.g. to refuse writes.
   */
  newClient?: (o: CachedClientOptions) => Client;
  apiReader?: Reader;
  mapper?: DynamicRESTMapper;
  /** The client the Lease lock uses (default the uncached REST client). */
  leaderElectionClient?: LeaseClient;
}
