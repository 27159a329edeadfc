// Against kube-apiserver with RBAC: a user who may list and watch Pods but not ConfigMaps starts the
// dashboard with pod-counter (Pods) and flaky (ConfigMaps). The start fails at once, naming ConfigMap, its
// verbs and the rule to grant, instead of every controller waiting out its cache-sync timeout.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { runApp } from '../../server/main';
import { getConfig, newRestClient } from '../../server/runtime/client';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describeEnvtest('access checked for every watched kind', () => {
  const plane = useControlPlane();

  function kubeconfig(): string {
    const info = plane();
    const file = path.join(info.tmpDir, 'watch-access.kubeconfig');
    const user = (as?: string): string[] => [
      `    client-certificate-data: ${b64(info.tls.cert)}`,
      `    client-key-data: ${b64(info.tls.key)}`,
      ...(as ? [`    as: ${as}`] : []),
    ];
    fs.writeFileSync(
      file,
      [
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
        '- name: pods-only',
        '  user:',
        ...user('pods-only'),
        'contexts:',
        '- name: admin',
        '  context: {cluster: envtest, user: admin, namespace: default}',
        '- name: pods-only',
        '  context: {cluster: envtest, user: pods-only, namespace: default}',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    return file;
  }

  it('refuses to start, naming the kind that cannot be watched', async () => {
    const file = kubeconfig();
    const admin = newRestClient(getConfig({ kubeconfig: file, argv: [], env: {} }));
    const rbac = 'rbac.authorization.k8s.io/v1';
    await admin.create({
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'pods-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
    } as never);
    await admin.create({
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'pods-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pods-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'pods-only' }],
    } as never);
    const started = runApp(
      {
        command: 'dashboard',
        cluster: { mode: 'kubeconfig', kubeconfig: file, context: 'pods-only' },
        controllers: ['pod-counter', 'flaky'],
        port: 0,
        host: '127.0.0.1',
        allowWrites: false,
        open: false,
      },
      () => {},
    );
    const err = await started.then(
      async (app) => {
        await app.stop();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain('missing RBAC for ConfigMap (configmaps) cluster-wide');
    expect(message).toContain('context "pods-only" cannot list, watch');
    expect(message).toContain('resources ["configmaps"], verbs ["list", "watch"]');
    expect(message).not.toContain('Pod (pods)');
  }, 60_000);
});
