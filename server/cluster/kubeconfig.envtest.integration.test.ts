// The client stack against a real kube-apiserver + etcd (envtest binaries): client-certificate auth over
// TLS from a kubeconfig, SelfSubjectAccessReview, RBAC 403 named per kind and verb (an impersonated user
// without roles), real pagination and a watch from a list's resourceVersion. Skips when the binaries are absent.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../shared/models/object';
import type { ApiError } from '../runtime';
import { isForbidden } from '../runtime';
import { ListPager, newListWatchFromClient, newRestClient } from '../runtime/client';
import { describeEnvtest, useControlPlane } from './envtest/testing';
import { checkAccess, ClusterConnectError, connectCluster } from './kubeconfig';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describeEnvtest('client stack against kube-apiserver', () => {
  const plane = useControlPlane();

  /** The admin kubeconfig plus a context "jane" that impersonates a user with no RBAC at all. */
  function kubeconfigWithJane(): string {
    const info = plane();
    const file = path.join(info.tmpDir, 'client-suite.kubeconfig');
    const user = (as?: string): string[] => [
      `    client-certificate-data: ${b64(info.tls.cert)}`,
      `    client-key-data: ${b64(info.tls.key)}`,
      ...(as ? [`    as: ${as}`] : []),
    ];
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'current-context: admin',
      'clusters:',
      '- name: envtest',
      '  cluster:',
      `    server: ${info.apiServerUrl}`,
      `    certificate-authority-data: ${b64(info.tls.ca)}`,
      'users:',
      '- name: admin',
      '  user:',
      ...user(),
      '- name: jane',
      '  user:',
      ...user('jane'),
      'contexts:',
      '- name: admin',
      '  context: {cluster: envtest, user: admin, namespace: default}',
      '- name: jane',
      '  context: {cluster: envtest, user: jane, namespace: default}',
      '',
    ].join('\n');
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  it('connects with client certificates over TLS and sees list/watch allowed by SelfSubjectAccessReview', async () => {
    const conn = await connectCluster({
      kubeconfig: kubeconfigWithJane(),
      env: {},
      access: [{ gvr: CONFIGMAPS, kind: 'ConfigMap', namespace: 'default' }],
    });
    expect(conn.version.major).toBe('1');
    expect(conn.access[0]).toMatchObject({
      method: 'SelfSubjectAccessReview',
      allowed: ['list', 'watch'],
      missing: [],
    });
    conn.http.close();
  });

  it('names the kind and verbs a user without RBAC is missing, and the real 403 maps to Forbidden', async () => {
    const file = kubeconfigWithJane();
    const err = await connectCluster({
      kubeconfig: file,
      context: 'jane',
      env: {},
      access: [{ gvr: { group: 'apps', version: 'v1', resource: 'deployments' }, kind: 'Deployment' }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClusterConnectError);
    expect((err as ClusterConnectError).reason).toBe('Forbidden');
    expect((err as Error).message).toContain('missing RBAC for Deployment (deployments.apps) cluster-wide');
    expect((err as Error).message).toContain('context "jane" cannot list, watch');

    const conn = await connectCluster({ kubeconfig: file, context: 'jane', env: {} });
    const r = await checkAccess(conn.http, CONFIGMAPS, ['get'], { namespace: 'default' });
    expect(r.missing).toEqual(['get']);
    const listErr = await newRestClient(conn.config)
      .list({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default' })
      .catch((e: unknown) => e);
    expect(isForbidden(listErr)).toBe(true);
    expect((listErr as ApiError).message).toContain('User "jane" cannot list resource "configmaps"');
  });

  it('pages a real list and watches from its resourceVersion (bookmarks allowed)', async () => {
    const conn = await connectCluster({ kubeconfig: kubeconfigWithJane(), env: {} });
    const c = newRestClient(conn.config, { fieldOwner: 'client-suite' });
    const ns = 'client-suite';
    await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (let i = 0; i < 5; i++) {
      await c.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: ns },
        data: { i: String(i) },
      });
    }
    const lw = newListWatchFromClient({ http: conn.http, gvr: CONFIGMAPS, namespace: ns });
    const { list, paginatedResult } = await new ListPager({ lister: lw, pageSize: 2 }).list({});
    expect(paginatedResult).toBe(true);
    expect(list.items.filter((o) => o.metadata.name?.startsWith('cm-'))).toHaveLength(5);
    expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });

    const stream = await lw.watch({
      resourceVersion: list.metadata.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: 60,
    });
    const cm = (await c.get<KubeObject>(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { namespace: ns, name: 'cm-0' },
    )) as KubeObject;
    await c.update({ ...cm, data: { i: 'changed' } });
    const seen: WatchEvent[] = [];
    for await (const ev of stream) {
      seen.push(ev);
      if (ev.type === 'MODIFIED') stream.stop();
    }
    expect(seen.at(-1)).toMatchObject({
      type: 'MODIFIED',
      object: { metadata: { name: 'cm-0' }, data: { i: 'changed' } },
    });
    conn.http.close();
  });
});
