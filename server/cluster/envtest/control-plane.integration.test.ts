// A real etcd + kube-apiserver. Skips (with the reason) when scripts/setup-envtest.sh has not been run,
// fails instead when CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { ControlPlane, ControlPlaneStartError } from './control-plane';
import type { ControlPlaneInfo } from './control-plane';
import { groupAlive, procStat } from './process';
import { httpCall } from './readiness';
import { describeEnvtest } from './testing';

function running(pid: number): boolean {
  const st = procStat(pid);
  return st !== undefined && st.state !== 'Z';
}

function killZeroFails(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describeEnvtest('ControlPlane (real etcd + kube-apiserver)', () => {
  const plane = new ControlPlane();
  let info: ControlPlaneInfo;

  beforeAll(async () => {
    info = await plane.start();
    console.info(
      `[envtest] control plane up in ${info.startupMs} ms (attempts: ${info.attempts}; ${JSON.stringify(info.phases)})`,
    );
  });
  afterAll(async () => {
    await plane.stop();
  });

  it('serves /version over TLS with the kubeconfig credentials', async () => {
    onTestFailed(() => plane.stop());
    const kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfigPath);
    const cluster = kc.getCurrentCluster();
    const user = kc.getCurrentUser();
    expect(cluster?.server).toBe(info.apiServerUrl);
    const decode = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
    const r = await httpCall(`${cluster?.server}/version`, {
      tls: { ca: decode(cluster?.caData), cert: decode(user?.certData), key: decode(user?.keyData) },
    });
    expect(r.status).toBe(200);
    const v = JSON.parse(r.body) as { major: string; minor: string; gitVersion: string };
    expect(v.major).toBe('1');
    expect(v.gitVersion).toMatch(/^v1\.\d+\.\d+/);
  });

  it('authenticates the admin as system:masters (and rejects anonymous writes)', async () => {
    onTestFailed(() => plane.stop());
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'anon' } });
    const anon = await httpCall(`${info.apiServerUrl}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      body,
      tls: { ca: info.tls.ca },
    });
    expect(anon.status).toBe(403);
    const review = await httpCall(`${info.apiServerUrl}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      tls: info.tls,
    });
    expect(review.status).toBe(201);
    const user = (JSON.parse(review.body) as { status: { userInfo: { username: string; groups: string[] } } }).status
      .userInfo;
    expect(user.username).toBe('admin');
    expect(user.groups).toContain('system:masters');
  });

  it('creates and reads back a ConfigMap through client-node', async () => {
    onTestFailed(() => plane.stop());
    const kc = new KubeConfig();
    kc.loadFromString(info.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'envtest-smoke' }, data: { hello: 'world' } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    const read = await core.readNamespacedConfigMap({ namespace: 'default', name: 'envtest-smoke' });
    expect(read.data).toEqual({ hello: 'world' });
  });

  it('stop() takes both process groups and the temp dir down', async () => {
    const { etcd, kubeApiserver } = info.pids;
    expect(running(etcd)).toBe(true);
    expect(running(kubeApiserver)).toBe(true);
    expect(existsSync(info.tmpDir)).toBe(true);
    await plane.stop();
    for (const pid of [etcd, kubeApiserver]) {
      expect(killZeroFails(pid)).toBe(true);
      expect(groupAlive(pid)).toBe(false);
    }
    expect(existsSync(info.tmpDir)).toBe(false);
    expect(plane.started).toBe(false);
    expect(plane.pids()).toEqual([]);
    await plane.stop(); // idempotent
  });

  it('a failed start-up reports the log tails and leaves nothing running', async () => {
    const bad = new ControlPlane({ apiServerFlags: { 'service-cluster-ip-range': 'not-a-cidr' }, startAttempts: 1 });
    let err: unknown;
    try {
      await bad.start();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ControlPlaneStartError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/kube-apiserver exited/);
    expect(msg).toContain('--- kube-apiserver log');
    expect(msg).toMatch(/not a valid cidr/);
    expect(bad.pids()).toEqual([]);
    const started = (err as ControlPlaneStartError).pids;
    expect(started).toHaveLength(2);
    for (const pid of started) expect(killZeroFails(pid)).toBe(true);
  });
});
