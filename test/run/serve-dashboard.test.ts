// serveDashboard(mgr): the library's one call around a manager built in the user's own main, against the
// embedded sandbox over HTTP — the manager's controllers on the socket, /readyz telling the manager's state,
// /metrics serving its registry, and the dashboard closing when the manager stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import {
  DASHBOARD_ADDRESS_ENV,
  parseDashboardBindAddress,
  serveDashboard,
  type ServedDashboard,
} from '../../server/dashboard';
import {
  getConfig,
  newControllerManagedBy,
  newManager,
  newRegistry,
  reconcileFunc,
  type Manager,
} from '../../server/runtime';
import { LoopbackClient } from '../loopback/loopback-client';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('serveDashboard', () => {
  let sandbox: SandboxServer;
  let sandboxUrl: string;
  let dir: string;
  let mgr: Manager;
  let served: ServedDashboard;
  const ac = new AbortController();
  let running: Promise<void> | undefined;

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    sandboxUrl = (await sandbox.start()).url;
    dir = mkdtempSync(join(tmpdir(), 'serve-dashboard-'));
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    mgr = newManager(getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [], env: {} }), {
      registry: newRegistry(false),
      gracefulShutdownTimeoutMs: 2_000,
    });
    served = await serveDashboard(mgr, { bindAddress: '127.0.0.1:0', log: () => {} });
    // Controllers set up after the dashboard is served are seen too: the probe joined the manager first.
    await newControllerManagedBy(mgr)
      .named('library-configmaps')
      .for(ConfigMap)
      .complete(reconcileFunc(async () => ({})));
  }, 60_000);

  afterAll(async () => {
    ac.abort();
    await running;
    await served?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not ready before the manager starts, and ready once it runs with its caches synced', async () => {
    const before = await fetch(`${served.url}readyz`);
    expect(before.status).toBe(503);
    expect(await before.text()).toContain('the manager has not started yet');
    running = mgr.start(ac.signal);
    await until('/readyz 200', async () => (await fetch(`${served.url}readyz`)).status === 200);
  });

  it("streams the manager's controllers and serves its registry", async () => {
    const created = await fetch(`${sandboxUrl}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } }),
    });
    expect(created.status).toBe(201);
    const client = new LoopbackClient(served.url);
    await client.connect();
    await client.hello();
    await until(
      'reconciles on the socket',
      () => (client.view.controllers['library-configmaps']?.totalReconciles ?? 0) > 0,
    );
    expect(client.serverInfo?.controllers).toContain('library-configmaps');
    client.close();
    const metrics = await (await fetch(`${served.url}metrics`)).text();
    expect(metrics).toContain('controller_runtime_reconcile_total{controller="library-configmaps"');
  });

  it('closes when the manager stops', async () => {
    ac.abort();
    await running;
    await expect(fetch(`${served.url}healthz`)).rejects.toThrow();
  });

  it('takes a bind address as controller-runtime writes one, and names a bad one', () => {
    expect(parseDashboardBindAddress(':0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseDashboardBindAddress('0.0.0.0:7070')).toEqual({ host: '0.0.0.0', port: 7070 });
    expect(parseDashboardBindAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(() => parseDashboardBindAddress('7070')).toThrow(/bindAddress must be "host:port".*got "7070"/);
  });

  it('listens where CONTROLLER_SCOPE_DASHBOARD_ADDRESS says when main does not, and names the variable when it is bad', async () => {
    const before = process.env[DASHBOARD_ADDRESS_ENV];
    try {
      process.env[DASHBOARD_ADDRESS_ENV] = 'seven';
      await expect(serveDashboard(mgr)).rejects.toThrow(/^CONTROLLER_SCOPE_DASHBOARD_ADDRESS: .*got "seven"/);
      process.env[DASHBOARD_ADDRESS_ENV] = '127.0.0.1:0';
      const other = newManager(getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [], env: {} }), {
        registry: newRegistry(false),
      });
      const d = await serveDashboard(other, { log: () => {} });
      expect(d.url).not.toContain(':7070');
      expect((await fetch(`${d.url}healthz`)).status).toBe(200);
      await d.close();
    } finally {
      if (before === undefined) delete process.env[DASHBOARD_ADDRESS_ENV];
      else process.env[DASHBOARD_ADDRESS_ENV] = before;
    }
  });
});
