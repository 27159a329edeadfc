// Starts the dashboard: one HTTP server carrying the express app and socket.io, bound to loopback unless told
// otherwise (then with a token). The composition root calls startDashboard and closes it on shutdown.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { Recorder } from '../recorder/recorder';
import type { Clock } from '../../runtime/util/clock';
import type { AuthOptions } from './auth';
import { isLoopback, resolveAuth } from './auth';
import { createHttpApp } from './http';
import type { DashboardPorts } from './ports';
import { DashboardSocketServer } from './socket-server';
import type { SocketServerOptions } from './socket-server';

export interface DashboardOptions extends AuthOptions {
  recorder: Recorder;
  /** Default 7070; 0 picks a free port. */
  port?: number;
  ports?: DashboardPorts;
  registry?: Registry;
  /** Default dist/web. */
  staticDir?: string;
  mode?: 'live' | 'replay';
  /** Default {kind:'none', writable:false}. */
  cluster?: ClusterInfo;
  /** The controllers' names, or a function giving them now (they change when a user module reloads). */
  controllers?: string[] | (() => string[]);
  notReadyReason?: () => string | undefined;
  clock?: Clock;
  /** Slow-client and replay limits, list caps and process-wide budgets, see SocketServerOptions. */
  limits?: Pick<
    SocketServerOptions,
    | 'maxBufferedPackets'
    | 'maxBufferedBytes'
    | 'maxReplayEvents'
    | 'lagCheckIntervalMs'
    | 'overflowSnapshotBackoffMs'
    | 'inspectLimits'
    | 'budgets'
  >;
  /** Where the URL (and a generated token) is printed. Default console.log. */
  log?: (line: string) => void;
}

export interface DashboardServer {
  url: string;
  host: string;
  port: number;
  token: string | undefined;
  sockets: DashboardSocketServer;
  close(): Promise<void>;
}

export async function startDashboard(opts: DashboardOptions): Promise<DashboardServer> {
  const auth = resolveAuth(opts);
  const log = opts.log ?? ((line: string) => console.log(line));
  const app = createHttpApp({
    recorder: opts.recorder,
    auth,
    ...(opts.registry ? { registry: opts.registry } : {}),
    ...(opts.staticDir ? { staticDir: opts.staticDir } : {}),
    ...(opts.notReadyReason ? { notReadyReason: opts.notReadyReason } : {}),
    recordingSource: () => ({
      cluster: opts.cluster ?? { kind: 'none', writable: false },
      controllers: typeof opts.controllers === 'function' ? opts.controllers() : (opts.controllers ?? []),
    }),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const http = createServer(app);
  const sockets = new DashboardSocketServer(http, {
    recorder: opts.recorder,
    auth,
    ...(opts.ports ? { ports: opts.ports } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...opts.limits,
    info: {
      mode: opts.mode ?? 'live',
      cluster: opts.cluster ?? { kind: 'none', writable: false },
      controllers: opts.controllers ?? [],
    },
  });
  const wanted = opts.port ?? 7070;
  try {
    await new Promise<void>((resolveListen, reject) => {
      http.once('error', reject);
      http.listen(wanted, auth.host, () => {
        http.off('error', reject);
        resolveListen();
      });
    });
  } catch (err) {
    await sockets.close().catch(() => {});
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`dashboard: ${auth.host}:${wanted} is already in use; choose another --port`);
    if (code === 'EADDRNOTAVAIL') throw new Error(`dashboard: cannot bind ${auth.host}: no such local address`);
    throw err;
  }
  const port = (http.address() as AddressInfo).port;
  auth.hosts.port = port;
  const hostForUrl = auth.host.includes(':') && !auth.host.startsWith('[') ? `[${auth.host}]` : auth.host;
  const url = `http://${hostForUrl}:${port}/`;
  if (auth.generated) {
    log(`dashboard: ${url}?token=${auth.token} (listening on ${auth.host}; the token is required off loopback)`);
  } else log(`dashboard: ${url}${auth.token && !isLoopback(auth.host) ? '?token=<your token>' : ''}`);
  return {
    url,
    host: auth.host,
    port,
    token: auth.token,
    sockets,
    async close() {
      await sockets.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
