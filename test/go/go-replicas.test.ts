// Two replicas of the Go example operator in its buggy form (it writes status.lastReconcileTime on every
// pass), with leader election, attached at once: each process is a lane of its own, the one that leads
// reconciles and is flagged as hot-looping on its own status writes, the other waits on the lease.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { runAttach, type RunningAttach } from '../../server/attach';
import { LoopbackClient } from '../loopback/loopback-client';
import { REPO, go, goBinary, startGo } from './support/go-tool';
import { apply, until } from './support/cluster';

const EXAMPLE = join(REPO, 'examples', 'go-operator');

describe.skipIf(!goBinary())('two attached replicas of a hot-looping Go operator', () => {
  let sandbox: SandboxServer;
  const replicas: ChildProcess[] = [];
  let attach: RunningAttach;
  let client: LoopbackClient;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'go-replicas-'));
    const binary = join(dir, 'website-operator');
    const build = go(EXAMPLE, ['build', '-o', binary, './cmd']);
    sandbox = new SandboxServer({ port: 0 });
    const { url } = await sandbox.start();
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    const read = (f: string) => loadYaml(readFileSync(join(EXAMPLE, f), 'utf8'));
    await apply(
      url,
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      read('config/crd/bases/example.controller-scope.dev_websites.yaml'),
    );
    await apply(
      url,
      '/apis/example.controller-scope.dev/v1alpha1/namespaces/default/websites',
      read('config/samples/website.yaml'),
    );
    await build;
    const addresses: string[] = [];
    for (const name of ['replica-a', 'replica-b']) {
      const r = await startGo(
        binary,
        [
          '--kubeconfig',
          join(dir, 'kubeconfig'),
          '--leader-elect',
          '--leader-election-namespace',
          'default',
          '--buggy',
        ],
        { CONTROLLER_SCOPE_ADDR: '127.0.0.1:0', CONTROLLER_SCOPE_PROCESS: name },
        /serving events on (127\.0\.0\.1:\d+)/,
      );
      replicas.push(r.child);
      addresses.push(r.match[1] as string);
    }
    attach = await runAttach({ addresses, port: 0, host: '127.0.0.1' }, () => undefined);
    client = new LoopbackClient(attach.url);
    await client.connect();
    await client.hello();
  }, 900_000);

  afterAll(async () => {
    client?.close();
    for (const r of replicas) r.kill();
    await attach?.stop();
    await sandbox?.stop();
  });

  it('gives each process its own lane, and only the leader reconciles', async () => {
    const leader = await until('one lane reconciling', () =>
      ['[replica-a] website', '[replica-b] website'].find(
        (name) => (client.view.controllers[name]?.totalReconciles ?? 0) > 0,
      ),
    );
    const waiting = leader === '[replica-a] website' ? '[replica-b] website' : '[replica-a] website';
    expect(client.view.controllers[waiting]?.totalReconciles ?? 0).toBe(0);
    expect(client.serverInfo?.controllers.sort()).toEqual(['[replica-a] website', '[replica-b] website']);
  });

  it('flags the leader hot-looping on its own status writes', async () => {
    const loop = await until(
      'a hot loop',
      () => Object.values(client.view.controllers).flatMap((c) => c.hotLoops)[0],
      90_000,
    );
    expect(loop.key).toBe('default/hello');
    expect(loop.selfRatio).toBeGreaterThan(0.5);
    expect(loop.evidence.some((e) => e.write?.verb === 'updateStatus')).toBe(true);
  });
});
