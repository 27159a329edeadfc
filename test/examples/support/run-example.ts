// Runs an example controller file the way `controller-scope run FILE` does: a manager whose probe is the
// dashboard's recorder, the file's setup function called with it, and the dashboard serving the view. Tests
// read the dashboard's /api/view, the same view the browser renders.
import { pathToFileURL } from 'node:url';
import type { RunningCluster } from '../../../server/cluster/connect';
import { Recorder, startDashboard, type DashboardServer } from '../../../server/dashboard';
import { objectSourceOver } from '../../../server/dashboard-object-source';
import { newManager, newRegistry, type Manager } from '../../../server/runtime';
import type { RuntimeView } from '../../../shared/protocol/view';

export interface RunningExample {
  manager: Manager;
  dashboard: DashboardServer;
  view(): Promise<RuntimeView>;
  stop(): Promise<void>;
}

type Setup = (mgr: Manager) => Promise<void> | void;

export async function runExample(file: string, cluster: RunningCluster): Promise<RunningExample> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: Setup; setup?: Setup };
  const setup = mod.default ?? mod.setup;
  if (typeof setup !== 'function') throw new Error(`${file} exports no setup function`);

  const recorder = new Recorder({ objectSource: objectSourceOver(() => manager.getCache()) });
  const registry = newRegistry(true);
  const manager: Manager = newManager(cluster.config, { probe: recorder, registry });
  await setup(manager);
  const dashboard = await startDashboard({
    recorder,
    registry,
    host: '127.0.0.1',
    port: 0,
    controllers: manager.getControllers().map((c) => c.name),
    cluster: { kind: cluster.kind, name: cluster.name, server: cluster.server, writable: true },
    log: () => {},
  });
  const ac = new AbortController();
  const running = manager.start(ac.signal);
  return {
    manager,
    dashboard,
    async view() {
      const res = await fetch(`${dashboard.url}api/view`);
      if (!res.ok) throw new Error(`GET /api/view: ${res.status}`);
      return (await res.json()) as RuntimeView;
    },
    async stop() {
      await dashboard.close();
      ac.abort();
      await running;
    },
  };
}

export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 30_000,
): Promise<T> {
  const until = Date.now() + ms;
  let lastErr: unknown;
  while (Date.now() < until) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastErr = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}
