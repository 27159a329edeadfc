// `controller-scope/dashboard`: the dashboard around a manager the user built in their own main, in one call,
// the way controller-runtime serves metrics from Options.Metrics.BindAddress:
//
//   const mgr = newManager(getConfigOrDie(), {});
//   await serveDashboard(mgr);                       // the one added line: http://127.0.0.1:7070
//
// The recorder joins the manager as a probe, the registry is the manager's, step mode and requeue act on the
// manager's controllers, "compare with the API server" reads through the manager's API reader, /readyz tells
// the manager's readiness, and the dashboard closes when the manager stops.
import type { ClusterInfo } from '../../shared/protocol/socket';
import type { Manager, ServerRunnable } from '../runtime';
import { stepPort } from './step-port';
import { objectSourceOver } from './cache-object-source';
import { cacheComparerOver } from './cache-drift';
import { managerNotReady } from './transport/readiness';
import { Recorder } from './recorder/recorder';
import { RecordingWriter } from './replay/recording-writer';
import { startDashboard } from './transport/dashboard-server';

/** Where serveDashboard listens when the caller does not say. */
export const DASHBOARD_ADDRESS_ENV = 'CONTROLLER_SCOPE_DASHBOARD_ADDRESS';
const DEFAULT_DASHBOARD_ADDRESS = '127.0.0.1:7070';

export interface ServeDashboardOptions {
  /**
   * "host:port" to listen on, like controller-runtime's Metrics.BindAddress. Default: the environment's
   * CONTROLLER_SCOPE_DASHBOARD_ADDRESS, else "127.0.0.1:7070" (so a port can change without editing main);
   * port 0 picks a free one; a host other than loopback requires a token (generated and logged when not given).
   */
  bindAddress?: string;
  /** The token browsers must present. */
  authToken?: string;
  /** Write the event stream to this file as JSON lines, as --record does. */
  record?: string;
  /**
   * Bytes the recorder may hold in past events (for reconnects, history and export), as --ring-bytes sets;
   * the oldest go first once it is full. Default 64 MiB.
   */
  ringBytes?: number;
  /** The cluster as the header shows it. Default: the manager's API server, read-only. */
  cluster?: Partial<ClusterInfo>;
  /** Where the URL (and a generated token) is printed. Default console.log. */
  log?: (line: string) => void;
}

export interface ServedDashboard {
  url: string;
  /** The probe the manager now reports to, with the derived view. */
  recorder: Recorder;
  /** Closes the dashboard (it also closes by itself when the manager stops). */
  close(): Promise<void>;
}

export function parseDashboardBindAddress(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(address.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) {
    throw new Error(`dashboard bindAddress must be "host:port" (e.g. "127.0.0.1:7070" or ":0"), got "${address}"`);
  }
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

function dashboardAddress(given: string | undefined): { host: string; port: number } {
  if (given !== undefined) return parseDashboardBindAddress(given);
  const fromEnv = process.env[DASHBOARD_ADDRESS_ENV];
  if (!fromEnv) return parseDashboardBindAddress(DEFAULT_DASHBOARD_ADDRESS);
  try {
    return parseDashboardBindAddress(fromEnv);
  } catch (err) {
    throw new Error(`${DASHBOARD_ADDRESS_ENV}: ${(err as Error).message}`);
  }
}

export async function serveDashboard(mgr: Manager, opts: ServeDashboardOptions = {}): Promise<ServedDashboard> {
  const { host, port } = dashboardAddress(opts.bindAddress);
  const recorder = new Recorder({
    objectSource: objectSourceOver(() => mgr.getCache()),
    // Only the manager's runtime emits into it.
    trustedEmits: true,
    ...(opts.ringBytes !== undefined ? { ringBytes: opts.ringBytes } : {}),
  });
  const detach = mgr.addProbe(recorder);
  const controllers = (): string[] => mgr.getControllers().map((c) => c.name);
  const config = mgr.getConfig();
  const cluster: ClusterInfo = {
    kind: 'kubeconfig',
    writable: false,
    ...(config ? { name: config.contextName, server: config.host } : {}),
    ...opts.cluster,
  };
  const log = opts.log ?? ((line: string) => console.log(line));
  const dashboard = await startDashboard({
    recorder,
    host,
    port,
    ...(opts.authToken ? { token: opts.authToken } : {}),
    registry: mgr.registry,
    notReadyReason: () => managerNotReady(recorder.view),
    cluster,
    controllers,
    log,
    ports: {
      cacheComparer: cacheComparerOver({ caches: () => [mgr.getCache()], reader: () => mgr.getAPIReader() }),
      steppers: (name) => {
        const c = mgr.getController(name);
        return c ? stepPort(c) : undefined;
      },
      requeuer: {
        requeue: (name, key) => {
          const c = mgr.getController(name);
          c?.requeue(key, 'requested from the dashboard');
          return c !== undefined;
        },
      },
    },
  });
  const writer = opts.record
    ? new RecordingWriter({ recorder, file: opts.record, cluster, controllers: controllers() })
    : undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await dashboard.close();
      await writer?.close();
      detach();
    })());
  // Served with the manager's other HTTP servers: stopped last, after the controllers it shows.
  const server: ServerRunnable = {
    kind: 'server',
    needLeaderElection: () => false,
    start: (signal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      }).then(close),
  };
  mgr.add(server);
  return { url: dashboard.url, recorder, close };
}
