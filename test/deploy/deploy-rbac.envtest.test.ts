// deploy/ against a real kube-apiserver with RBAC (envtest): apply the manifests, mint a token for the
// dashboard's ServiceAccount (TokenRequest), run the dashboard as the Deployment does, with that identity in
// a kubeconfig instead of the in-cluster mount, and check that it syncs with no RBAC error, keeps its API
// behind the token, answers the kubelet's probes, and refuses writes (both the dashboard's own commands and
// the API server, for that identity). Skipped when the envtest binaries are absent; fails instead with
// CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import {
  getConfig,
  HttpClient,
  isForbidden,
  newRestClient,
  type KubeObject,
  type RestClient,
} from '../../server/runtime';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { RuntimeView } from '../../shared/protocol/view';
import { loadKustomization } from './support/kustomize';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPLOY = join(ROOT, 'deploy');
const NS = 'controller-scope';
const SA = 'controller-scope';
const RBAC_CLUSTER_ROLE = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' } as const;
const DASHBOARD_TOKEN = 'dashboard-token-0123456789abcdef';

interface Dashboard {
  url: string;
  proc: ChildProcess;
  output: () => string;
}

/** The Deployment's container args, with what only makes sense in a pod swapped for the test's equivalents. */
function dashboardArgs(objs: KubeObject[], kubeconfig: string, tokenFile: string): string[] {
  const d = objs.find((o) => o.kind === 'Deployment');
  const args = (d?.spec as { template: { spec: { containers: { args: string[] }[] } } }).template.spec.containers[0]
    ?.args;
  if (!args) throw new Error('deploy/deployment.yaml has no container args');
  const out = [...args];
  const swap = (flag: string, value: string) => {
    const i = out.indexOf(flag);
    expect(i, `the Deployment passes ${flag}`).toBeGreaterThanOrEqual(0);
    out[i + 1] = value;
  };
  expect(out).toContain('--in-cluster');
  out.splice(out.indexOf('--in-cluster'), 1, '--kubeconfig', kubeconfig);
  swap('--host', '127.0.0.1');
  swap('--port', '0');
  swap('--auth-token-file', tokenFile);
  return out;
}

async function startDashboard(args: string[]): Promise<Dashboard> {
  const env = { ...process.env };
  delete env.KUBECONFIG;
  const proc = spawn(process.execPath, [join(ROOT, 'bin/controller-scope.mjs'), ...args], { cwd: ROOT, env });
  let text = '';
  proc.stdout?.on('data', (b: Buffer) => (text += b.toString()));
  proc.stderr?.on('data', (b: Buffer) => (text += b.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const check = () => {
      const m = /open (http:\/\/\S+?)(?:\?\S*)?\s/.exec(text);
      if (m?.[1]) resolveUrl(m[1].endsWith('/') ? m[1] : `${m[1]}/`);
    };
    proc.stdout?.on('data', check);
    proc.on('exit', (code) => reject(new Error(`the dashboard exited with ${code}:\n${text}`)));
  });
  return { url, proc, output: () => text };
}

async function stopDashboard(d: Dashboard | undefined): Promise<void> {
  if (!d || d.proc.exitCode !== null) return;
  const exited = new Promise((r) => d.proc.once('exit', r));
  d.proc.kill('SIGTERM');
  await exited;
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeEnvtest('deploy/ on kube-apiserver with RBAC', () => {
  const plane = useControlPlane();
  let dir: string;
  let admin: RestClient;
  let objs: KubeObject[];
  let saKubeconfig: string;
  let tokenFile: string;
  let dash: Dashboard | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-rbac-'));
    const adminConfig = getConfig({ kubeconfig: plane().kubeconfigPath, env: {}, argv: [] });
    admin = newRestClient(adminConfig);
    objs = loadKustomization(DEPLOY);
    for (const obj of objs) await admin.create(structuredClone(obj));
    await admin.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: NS, name: 'controller-scope-token' },
      stringData: { token: DASHBOARD_TOKEN },
    });

    const http = new HttpClient({ config: adminConfig });
    const minted = await http.request<{ status: { token: string } }>({
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/serviceaccounts/${SA}/token`,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    http.close();
    saKubeconfig = join(dir, 'sa-kubeconfig');
    writeFileSync(
      saKubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'envtest',
            cluster: {
              server: plane().apiServerUrl,
              'certificate-authority-data': Buffer.from(plane().tls.ca).toString('base64'),
            },
          },
        ],
        users: [{ name: SA, user: { token: minted.status.token } }],
        contexts: [{ name: 'dashboard', context: { cluster: 'envtest', user: SA } }],
        'current-context': 'dashboard',
      }),
    );
    // The token as the Secret volume mounts it: one file, a trailing newline as `kubectl create secret` leaves.
    tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${DASHBOARD_TOKEN}\n`);
  });

  afterAll(async () => {
    await stopDashboard(dash);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the manifests are what kubectl kustomize builds', (ctx) => {
    const kubectl = spawnSync('kubectl', ['kustomize', DEPLOY], { encoding: 'utf8' });
    if (kubectl.error) {
      ctx.skip('kubectl is not installed');
      return;
    }
    expect(kubectl.status, kubectl.stderr).toBe(0);
    const built = loadAllYaml(kubectl.stdout) as KubeObject[];
    const byId = (list: KubeObject[]) =>
      new Map(list.map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`, o]));
    expect(byId(objs)).toEqual(byId(built));
  });

  it('the ClusterRole is read-only: list and watch on Pods, what the informer needs', () => {
    expect(clusterRole(objs).rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] }]);
  });

  it('the dashboard syncs as the ServiceAccount, with no RBAC error, behind its token', async () => {
    const ns = 'rbac-check';
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await admin.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: ns, name: 'seen' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });

    dash = await startDashboard(dashboardArgs(objs, saKubeconfig, tokenFile));
    const d = dash;
    // The kubelet's probes carry no token.
    expect(await (await fetch(`${d.url}healthz`)).text()).toBe('ok');
    // Ready once the manager runs and every informer synced (503 with the reason until then).
    await eventually(async () => ((await fetch(`${d.url}readyz`)).status === 200 ? true : undefined), '/readyz 200');
    // Everything else does.
    expect((await fetch(`${d.url}api/view`)).status).toBe(401);
    expect(
      (await fetch(`${d.url}api/view`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status,
    ).toBe(401);

    const view = await eventually(async () => {
      const res = await fetch(`${d.url}api/view`, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}` } });
      const v = (await res.json()) as RuntimeView;
      return v.controllers['pod-counter']?.keys[`${ns}/seen`]?.lastReconcile?.endTs !== undefined ? v : undefined;
    }, "the pod-counter's reconcile of the test pod");
    const pods = view.informers['v1/Pod'];
    expect(pods).toMatchObject({ synced: true });
    expect(pods?.lastError).toBeUndefined();
    expect(pods?.counters.listErrors).toBe(0);
    expect(pods?.counters.errors).toBe(0);
    expect(view.controllers['pod-counter']?.reconciles.error ?? 0).toBe(0);
    // A 403 as a status, not the digits inside an ephemeral port of the URLs the output prints.
    expect(d.output()).not.toMatch(/forbidden|\b403\b/i);
  });

  it('refuses writes: the dashboard is read-only against the cluster, and so is its identity', async () => {
    const d = dash;
    if (!d) throw new Error('the dashboard did not start');
    const socket = io(d.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { token: DASHBOARD_TOKEN },
    });
    try {
      await new Promise<void>((ok, fail) => {
        socket.once('connect', () => ok());
        socket.once('connect_error', fail);
      });
      await socket.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
      const fault = (await socket.emitWithAck('command', {
        type: 'fault.inject',
        fault: { kind: 'expireWatches' },
      })) as { ok: boolean; code?: string; error?: string };
      expect(fault).toMatchObject({ ok: false, code: 'forbidden' });
      expect(fault.error).toMatch(/read-only.*--allow-writes/);
      const workload = (await socket.emitWithAck('command', { type: 'workload.stop' })) as {
        ok: boolean;
        code?: string;
      };
      expect(workload).toMatchObject({ ok: false, code: 'forbidden' });
    } finally {
      socket.close();
    }

    const asDashboard = newRestClient(getConfig({ kubeconfig: saKubeconfig, env: {}, argv: [] }));
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'default', name: 'not-allowed' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    await expect(asDashboard.create(pod)).rejects.toSatisfy(isForbidden);
    await expect(
      asDashboard.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: 'x' } }),
    ).rejects.toSatisfy(isForbidden);
    // Reading Secrets (its own token's included) is not in the role either.
    await expect(asDashboard.list({ apiVersion: 'v1', kind: 'Secret' }, { namespace: NS })).rejects.toSatisfy(
      isForbidden,
    );
  });

  it('needs each verb it lists: without one, the dashboard refuses to start and names the missing rule', async () => {
    await stopDashboard(dash);
    dash = undefined;
    const role = clusterRole(objs);
    for (const verb of role.rules[0]?.verbs ?? []) {
      const narrowed = structuredClone(role);
      for (const r of narrowed.rules) r.verbs = r.verbs.filter((v) => v !== verb);
      const current = await admin.get(RBAC_CLUSTER_ROLE, { name: role.metadata.name ?? '' });
      await admin.update({ ...narrowed, metadata: current.metadata });
      // RBAC takes a moment to see the change: a start that still succeeds is stopped and tried again.
      const refusal = await eventually(async () => {
        const d = await startDashboard(dashboardArgs(objs, saKubeconfig, tokenFile)).catch((err: unknown) =>
          err instanceof Error ? err.message : String(err),
        );
        if (typeof d === 'string') return d;
        await stopDashboard(d);
        return undefined;
      }, `the dashboard to refuse to start without ${verb}`);
      expect(refusal).toMatch(
        new RegExp(`exited with 1:\\s+controller-scope: missing RBAC for Pod \\(pods\\).*cannot ${verb}\\.`),
      );
    }
    const current = await admin.get(RBAC_CLUSTER_ROLE, { name: role.metadata.name ?? '' });
    await admin.update({ ...role, metadata: current.metadata });
  });
});

type ClusterRole = KubeObject & { rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] };

function clusterRole(objs: KubeObject[]): ClusterRole {
  const role = objs.find((o) => o.kind === 'ClusterRole');
  if (!role) throw new Error('deploy/ has no ClusterRole');
  return JSON.parse(JSON.stringify(role)) as ClusterRole;
}
