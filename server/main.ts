// The composition root: cluster → manager with the example controllers → recorder → dashboard. Nothing
// here but wiring; every part it joins lives, and is tested, in its own folder.
import { chmod, copyFile } from 'node:fs/promises';
import type { DashboardCommand } from './cli-options';
import type { ChurnProfile } from './cluster/sandbox/life';
import { startCluster, type RunningCluster } from './cluster/connect';
import { ClusterControlsImpl } from './cluster/controls';
import { checkWatchedAccess, watchedKinds } from './cluster/watch-access';
import { EventLoopWatchdog, watchdogMsFromEnv } from './run/event-loop-watchdog';
import {
  cacheComparerOver,
  managerNotReady,
  objectSourceOver,
  openReplay,
  Recorder,
  RecordingWriter,
  startDashboard,
  stepPort,
  type DashboardServer,
} from './dashboard';
import { startTraceExport } from './otel';
import { registerDemoControllers, WRITING_DEMOS, type DemoName } from './demo';
import { CachedClient, newManager, newRegistry, type Manager } from './runtime';
import { readOnlyClient } from './run/read-only-client';
import { UserModules } from './run/user-modules';
import { errorMessage } from './runtime/util/errors';

export interface RunningApp {
  url: string;
  dashboard: DashboardServer;
  /** The probe every block reports to; its view is what clients receive. */
  recorder: Recorder;
  cluster?: RunningCluster;
  manager?: Manager;
  stop(): Promise<void>;
}

/** The demo churn a started cluster runs: paused for none (the Faults panel can still start it). */
function demoWorkload(w: DashboardCommand['workload']): { profile?: ChurnProfile; paused?: boolean } {
  return w === 'none' ? { paused: true } : { profile: w ?? 'steady' };
}

/** The kubeconfig the user asked for, readable by them alone: it holds the cluster's credentials. */
async function copyKubeconfig(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  await chmod(to, 0o600);
}

export async function runApp(opts: DashboardCommand, log: (line: string) => void = console.log): Promise<RunningApp> {
  const auth = { host: opts.host, port: opts.port, ...(opts.authToken ? { token: opts.authToken } : {}), log };
  if (opts.cluster.mode === 'replay') {
    const r = await openReplay({ file: opts.cluster.file, speed: opts.cluster.speed });
    const dashboard = await startDashboard({
      ...auth,
      recorder: r.recorder,
      mode: 'replay',
      cluster: r.cluster,
      controllers: r.controllers,
      ports: { replay: r.source },
    });
    return { url: dashboard.url, dashboard, recorder: r.recorder, stop: () => dashboard.close() };
  }

  const cluster = await startCluster(
    opts.cluster.mode === 'kubeconfig'
      ? { ...opts.cluster, ...(opts.namespace ? { namespace: opts.namespace } : {}) }
      : { ...opts.cluster, workload: demoWorkload(opts.workload) },
  );
  // A start that fails after the cluster is up (a busy port, a bad module) stops what it started, so no
  // sandbox keeps running and no temp dir is left behind.
  const undo: (() => Promise<void>)[] = [() => cluster.stop()];
  const orUndo = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (err) {
      for (const u of undo.reverse()) await u().catch(() => {});
      throw err;
    }
  };
  const writable = cluster.kind !== 'kubeconfig' || opts.allowWrites;
  const controllers = opts.controllers.filter((c: DemoName) => writable || !WRITING_DEMOS.has(c));
  for (const c of opts.controllers.filter((n) => !controllers.includes(n))) {
    log(`not starting '${c}': it writes to the cluster, and ${cluster.name} is read-only without --allow-writes`);
  }

  // The object source reads the managers' caches lazily (a manager needs the recorder as its probe first).
  const recorder = new Recorder({
    objectSource: objectSourceOver(() => managers().map((m) => m.getCache())),
    // Only the managers' runtime emits into it (attached processes have a recorder of their own).
    trustedEmits: true,
    ...(opts.ringBytes !== undefined ? { ringBytes: opts.ringBytes } : {}),
  });
  const registry = newRegistry(true);
  // One manager for the examples, one per user module; all report to the recorder and share the registry.
  const clusterManager = (reload = false): Manager =>
    newManager(cluster.config, {
      probe: recorder,
      registry,
      // A reloaded module's controllers take over the names (and metrics) of the generation they replace.
      ...(reload ? { controller: { skipNameValidation: true } } : {}),
      ...(opts.namespace ? { cache: { namespace: opts.namespace } } : {}),
      ...(writable ? {} : { newClient: (o) => readOnlyClient(new CachedClient(o), cluster.name) }),
    });
  const manager = clusterManager();
  await orUndo(() => registerDemoControllers(manager, controllers, { namespace: 'demo' }));
  const files = opts.files ?? [];
  // A user's module may busy-loop (at its top level or in setup): only another thread can say so.
  const watchdog = files.length > 0 ? new EventLoopWatchdog({ stallMs: watchdogMsFromEnv() ?? 5000 }) : undefined;
  if (watchdog) undo.push(() => watchdog.stop());
  const user =
    files.length > 0
      ? new UserModules({
          files,
          watch: opts.watch ?? false,
          probe: recorder,
          newManager: clusterManager,
          log,
          ...(opts.setupTimeoutMs !== undefined ? { setupTimeoutMs: opts.setupTimeoutMs } : {}),
          doing: (what) => watchdog?.doing(what),
        })
      : undefined;
  if (user) undo.push(() => user.stop());
  await orUndo(async () => user?.start());
  const managers = (): Manager[] => [manager, ...(user?.managers() ?? [])];
  const controllerNames = (): string[] => managers().flatMap((m) => m.getControllers().map((c) => c.name));
  if (cluster.kind === 'kubeconfig') {
    // Every kind any controller watches, with the RBAC message, before anything waits for a cache to sync.
    const kinds = watchedKinds(managers());
    await orUndo(() => checkWatchedAccess(manager, kinds, opts.namespace ? { namespace: opts.namespace } : {}));
  }

  const controls = new ClusterControlsImpl(cluster, writable);
  const byName = (name: string) =>
    managers()
      .flatMap((m) => m.getControllers())
      .find((c) => c.name === name);
  const dashboard = await orUndo(() =>
    startDashboard({
      ...auth,
      recorder,
      registry,
      notReadyReason: () => managerNotReady(recorder.view),
      cluster: controls.info,
      controllers: controllerNames,
      ports: {
        steppers: (name) => {
          const c = byName(name);
          return c ? stepPort(c) : undefined;
        },
        requeuer: {
          requeue: (name, key) =>
            byName(name) ? (byName(name)?.requeue(key, 'requested from the dashboard'), true) : false,
        },
        cluster: controls,
        cacheComparer: cacheComparerOver({
          caches: () => managers().map((m) => m.getCache()),
          reader: () => manager.getAPIReader(),
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
        }),
      },
    }),
  );
  const writer = opts.record
    ? new RecordingWriter({
        recorder,
        file: opts.record,
        cluster: controls.info,
        controllers: controllerNames(),
      })
    : undefined;
  // Before the manager starts, so the first reconciles are traced too.
  const traces = startTraceExport(recorder, process.env, opts.otlpEndpoint);
  if (traces) log(`traces: OTLP to ${traces.url}`);

  const ac = new AbortController();
  const running = manager
    .start(ac.signal)
    .catch((err: unknown) => log(`manager stopped with an error: ${errorMessage(err)}`));
  log(`cluster: ${cluster.kind} ${cluster.server}`);
  const kubeconfig = opts.kubeconfigOut ?? cluster.kubeconfigPath;
  if (opts.kubeconfigOut && cluster.kubeconfigPath) await copyKubeconfig(cluster.kubeconfigPath, opts.kubeconfigOut);
  if (kubeconfig && cluster.kind !== 'kubeconfig') log(`kubectl and your clients: export KUBECONFIG=${kubeconfig}`);
  if (opts.workload === 'none' && cluster.kind !== 'kubeconfig')
    log('demo churn: off (--workload steady|bursty|storm, or the Faults panel, starts it)');
  if (controllers.length > 0 || files.length === 0) log(`example controllers: ${controllers.join(', ') || 'none'}`);
  return {
    url: dashboard.url,
    dashboard,
    recorder,
    cluster,
    manager,
    async stop() {
      await dashboard.close();
      ac.abort();
      await running;
      await user?.stop();
      await watchdog?.stop();
      await writer?.close();
      await traces?.stop();
      await cluster.stop();
    },
  };
}
