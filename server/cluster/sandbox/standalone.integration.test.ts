// runStandaloneSandbox, as the CLI's `sandbox [--bare] --port P --kubeconfig-out FILE` calls it: by default
// a cluster with simulated nodes and the built-in controllers (what a user's operator needs to see its
// Deployments, StatefulSets, Jobs and Services come to life); bare, the API server alone.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { runStandaloneSandbox } from './standalone';

type Obj = Record<string, unknown>;

async function call(url: string, method: string, path: string, body?: unknown): Promise<Obj> {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Obj;
}

/** Polls until `fn` returns a value; the guard only keeps a broken controller from hanging the suite. */
async function eventually<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const template = (app: string, restartPolicy?: string): Obj => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }], ...(restartPolicy ? { restartPolicy } : {}) },
});

describe('runStandaloneSandbox', () => {
  it('serves, writes a kubeconfig pointing at itself and stops when aborted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-standalone-'));
    const file = join(dir, 'kubeconfig');
    const ctrl = new AbortController();
    const lines: string[] = [];
    const sb = await runStandaloneSandbox({
      port: 0,
      kubeconfigOut: file,
      bare: true,
      signal: ctrl.signal,
      log: (l) => lines.push(l),
    });
    try {
      expect(await (await fetch(`${sb.url}/readyz`)).text()).toBe('ok');
      expect(await readFile(file, 'utf8')).toContain(`server: ${sb.url}`);
      expect(lines[0]).toBe(`sandbox API server listening on ${sb.url}`);
      // Bare: no simulated nodes, no controllers.
      expect(sb.cluster).toBeUndefined();
      expect((await call(sb.url, 'GET', '/api/v1/nodes')).items).toEqual([]);
    } finally {
      ctrl.abort();
      await sb.done;
      await rm(dir, { recursive: true, force: true });
    }
    await expect(fetch(`${sb.url}/readyz`)).rejects.toThrow();
  });

  it('runs nodes and the built-in controllers by default: Deployments, StatefulSets, DaemonSets, Jobs and Services come alive', async () => {
    const ctrl = new AbortController();
    const sb = await runStandaloneSandbox({ port: 0, signal: ctrl.signal, log: () => undefined });
    const url = sb.url;
    try {
      const ns = '/apis/apps/v1/namespaces/default';
      await call(url, 'POST', `${ns}/deployments`, {
        metadata: { name: 'web' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') },
      });
      await call(url, 'POST', `${ns}/statefulsets`, {
        metadata: { name: 'db' },
        spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
      });
      await call(url, 'POST', `${ns}/daemonsets`, {
        metadata: { name: 'agent' },
        spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
      });
      await call(url, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
        metadata: { name: 'once' },
        spec: { template: { spec: template('once', 'Never').spec } },
      });
      await call(url, 'POST', '/api/v1/namespaces/default/services', {
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
      });
      await eventually('the Deployment available', async () => {
        const d = await call(url, 'GET', `${ns}/deployments/web`);
        return (d.status as Obj | undefined)?.availableReplicas === 2 ? d : undefined;
      });
      const sts = await eventually('the StatefulSet ready', async () => {
        const s = await call(url, 'GET', `${ns}/statefulsets/db`);
        return (s.status as Obj | undefined)?.readyReplicas === 2 ? s : undefined;
      });
      expect(sts.status).toMatchObject({ replicas: 2, availableReplicas: 2 });
      const pods = (await call(url, 'GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Ddb'))
        .items as KubeObject[];
      expect(pods.map((p) => p.metadata.name).sort()).toEqual(['db-0', 'db-1']);
      const job = await eventually('the Job complete', async () => {
        const j = await call(url, 'GET', '/apis/batch/v1/namespaces/default/jobs/once');
        return (j.status as Obj | undefined)?.succeeded === 1 ? j : undefined;
      });
      expect(((job.status as Obj).conditions as Obj[]).map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
      const slice = await eventually('an EndpointSlice with both ready pods', async () => {
        const list = await call(
          url,
          'GET',
          '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb',
        );
        const s = (list.items as Obj[])[0];
        const eps = (s?.endpoints as { conditions: { ready: boolean } }[] | undefined) ?? [];
        return eps.length === 2 && eps.every((e) => e.conditions.ready) ? s : undefined;
      });
      expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
      expect(((await call(url, 'GET', '/api/v1/nodes')).items as Obj[]).length).toBe(3);
      const ds = await eventually('the DaemonSet on every node', async () => {
        const d = await call(url, 'GET', `${ns}/daemonsets/agent`);
        return (d.status as Obj | undefined)?.numberReady === 3 ? d : undefined;
      });
      expect(ds.status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3 });
      await call(url, 'POST', '/api/v1/namespaces', { metadata: { name: 'team-a' } });
      await eventually('the default ServiceAccount of a new namespace', async () => {
        const sa = await call(url, 'GET', '/api/v1/namespaces/team-a/serviceaccounts/default');
        return sa.kind === 'ServiceAccount' ? sa : undefined;
      });
    } finally {
      ctrl.abort();
      await sb.done;
    }
  }, 60_000);
});
