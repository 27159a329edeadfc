// The "no hand edit" proof: the kubebuilder fixture, adopted by `controller-scope adopt-go` and nothing else,
// runs against the embedded sandbox with --watch-namespace (the kubebuilder trap: mgrOptions.Cache assigned
// after the literal) and is observed through `controller-scope attach`: its informer is tapped and holds only
// the watched namespace's Guestbook, and its controller's reconcile is shown with the event that caused it.
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { runAttach, type RunningAttach } from '../../server/attach';
import { LoopbackClient } from '../loopback/loopback-client';
import { apply, until } from './support/cluster';
import { go, goBinary, startGo } from './support/go-tool';
import { adoptGo, copyFixture } from './support/adopt-go';

const GUESTBOOK_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'guestbooks.webapp.my.domain' },
  spec: {
    group: 'webapp.my.domain',
    names: { kind: 'Guestbook', listKind: 'GuestbookList', plural: 'guestbooks', singular: 'guestbook' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const guestbook = (namespace: string) => ({
  apiVersion: 'webapp.my.domain/v1',
  kind: 'Guestbook',
  metadata: { name: 'hello', namespace },
  spec: { foo: 'bar' },
});

describe.skipIf(!goBinary())('a kubebuilder project adopted by adopt-go alone, attached', () => {
  let sandbox: SandboxServer;
  let operator: ChildProcess | undefined;
  let attach: RunningAttach;
  let client: LoopbackClient;

  beforeAll(async () => {
    const project = copyFixture('kubebuilder');
    const adopted = await adoptGo([project]);
    if (adopted.code !== 0) throw new Error(`adopt-go failed:\n${adopted.out}`);
    const binary = join(project, '..', 'guestbook-operator');
    await go(project, ['build', '-o', binary, './cmd']);

    sandbox = new SandboxServer({ port: 0 });
    const { url } = await sandbox.start();
    const kubeconfig = join(project, '..', 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig);
    await apply(url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', GUESTBOOK_CRD);
    await apply(url, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    for (const ns of ['default', 'other']) {
      await apply(url, `/apis/webapp.my.domain/v1/namespaces/${ns}/guestbooks`, guestbook(ns));
    }

    const started = await startGo(
      binary,
      [
        '--kubeconfig',
        kubeconfig,
        '--watch-namespace',
        'default',
        '--health-probe-bind-address',
        '0',
        '--metrics-bind-address',
        '0',
      ],
      { ENABLE_WEBHOOKS: 'false', CONTROLLER_SCOPE_ADDR: '127.0.0.1:0', CONTROLLER_SCOPE_PROCESS: 'guestbook-0' },
      /serving events on (127\.0\.0\.1:\d+)/,
    );
    operator = started.child;
    attach = await runAttach({ addresses: [started.match[1] as string], port: 0, host: '127.0.0.1' }, () => undefined);
    client = new LoopbackClient(attach.url);
    await client.connect();
    await client.hello();
  }, 900_000);

  afterAll(async () => {
    client?.close();
    operator?.kill();
    await attach?.stop();
    await sandbox?.stop();
  });

  it('taps the informer of the namespaced cache, which holds only the watched namespace', async () => {
    const inf = await until('the Guestbook informer, synced', () => {
      const i = client.view.informers['webapp.my.domain/v1/Guestbook'];
      return i && i.storeSize > 0 && i;
    });
    expect(inf.storeSize).toBe(1);
    const keys = await client.inspect({ target: 'cache', informer: 'webapp.my.domain/v1/Guestbook' });
    expect(keys).toMatchObject({ ok: true, result: { keys: ['default/hello'], total: 1 } });
  });

  it("shows the controller's reconcile with the event that caused it", async () => {
    const c = await until('a finished reconcile of default/hello', () => {
      const w = client.view.controllers['guestbook'];
      return w && (w.keys['default/hello']?.history.length ?? 0) > 0 && w;
    });
    expect(c.forKind).toBe('webapp.my.domain/v1/Guestbook');
    expect(c.keys['default/hello']?.history[0]?.causes[0]).toMatchObject({
      type: 'event',
      eventType: 'create',
      source: { gvk: 'webapp.my.domain/v1/Guestbook', name: 'hello' },
    });
    expect(c.keys['other/hello']).toBeUndefined();
  });
});
