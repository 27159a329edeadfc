// `controller-scope attach ADDRESS[,ADDRESS…]`: the dashboard fed by running processes (Go controllers with
// the bridge module) instead of our own runtime. The same recorder, transport and panels; each process is
// one more source of protocol events, in a lane of its own when there are several.
import {
  BridgeConnection,
  KeyMirror,
  Recorder,
  RecordingWriter,
  remoteCacheComparer,
  remoteRequeuer,
  remoteSteppers,
  startDashboard,
  type DashboardServer,
} from './dashboard';
import type { AttachCliOptions } from './cli-options';
import { startTraceExport } from './otel';

/** What `attach` needs of its parsed flags (cli-options.ts documents each). */
export type AttachOptions = Omit<AttachCliOptions, 'command' | 'open'>;

export interface RunningAttach {
  url: string;
  dashboard: DashboardServer;
  recorder: Recorder;
  connections: BridgeConnection[];
  stop(): Promise<void>;
}

export async function runAttach(
  opts: AttachOptions,
  log: (line: string) => void = console.log,
): Promise<RunningAttach> {
  // Each process's mirror sits in front of the recorder and answers its cache-browser questions (read only
  // once both exist).
  const recorder: Recorder = new Recorder({
    ...(opts.ringBytes !== undefined ? { ringBytes: opts.ringBytes } : {}),
    objectSource: {
      get: (gvk, ns, name) => mirrors.map((m) => m.get(gvk, ns, name)).find((o) => o !== undefined),
      keys: (informer): string[] => mirrors.flatMap((m) => m.keys(informer)),
    },
  });
  const lanes = opts.addresses.length > 1;
  const mirrors: KeyMirror[] = [];
  const connections = opts.addresses.map((address) => {
    // The fetcher runs only after the connection has streamed an event, so conn exists by then.
    const mirror: KeyMirror = new KeyMirror(recorder, (informer, key) => conn.fetchObject(informer, key));
    mirrors.push(mirror);
    const conn: BridgeConnection = new BridgeConnection({
      address,
      probe: mirror,
      lanes,
      log,
      ...(opts.bridgeToken ? { token: opts.bridgeToken } : {}),
    });
    return conn;
  });
  for (const c of connections) c.start();
  // Controller names come with each hello: give the processes a moment before the first client connects.
  await Promise.all(connections.map((c) => c.ready(3000)));
  const controllers = (): string[] => connections.flatMap((c) => c.controllers());
  const cluster = {
    kind: 'none' as const,
    name: `attached: ${opts.addresses.join(', ')}`,
    writable: false,
  };
  const dashboard = await startDashboard({
    host: opts.host,
    port: opts.port,
    ...(opts.authToken ? { token: opts.authToken } : {}),
    log,
    recorder,
    cluster,
    controllers,
    ports: {
      steppers: remoteSteppers(connections),
      requeuer: remoteRequeuer(connections),
      cacheComparer: remoteCacheComparer(connections),
    },
  });
  const writer = opts.record
    ? new RecordingWriter({ recorder, file: opts.record, cluster, controllers: controllers() })
    : undefined;
  const traces = startTraceExport(recorder, process.env, opts.otlpEndpoint);
  if (traces) log(`traces: OTLP to ${traces.url}`);
  return {
    url: dashboard.url,
    dashboard,
    recorder,
    connections,
    async stop() {
      await dashboard.close();
      await Promise.all(connections.map((c) => c.close()));
      for (const m of mirrors) m.flushDrops();
      await writer?.close();
      await traces?.stop();
    },
  };
}
