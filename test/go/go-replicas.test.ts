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
import { partLiveness, replicaRoles } from '../../shared/protocol/liveness';
import { controllerSources } from '../../shared/protocol/topology';

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

  it("tells the leader from the standby and links each lane's controller to its own informers", async () => {
    const lease = await until('both replicas in the lease', () => {
      const l = Object.values(client.view.leaders)[0];
      return l && Object.keys(l.replicas ?? {}).length === 2 ? l : undefined;
    });
    const roles = await until('a leader', () => {
      const r = replicaRoles(client.view, client.view.leaders[lease.lease] ?? lease);
      return r.some((x) => x.role === 'leader') ? r : undefined;
    });
    expect(roles.map((r) => r.role).sort()).toEqual(['leader', 'standby']);
    const leader = roles.find((r) => r.role === 'leader')?.replica.identity as string;
    expect(client.view.controllers[`[${leader}] website`]?.totalReconciles ?? 0).toBeGreaterThan(0);
    // The Reconciler badge reads what the manager did: started once its workers took keys, not STARTING.
    await until('the leader started', () => client.view.controllers[`[${leader}] website`]?.phase === 'started');
    const informers = Object.values(client.view.informers);
    for (const c of Object.values(client.view.controllers)) {
      const lane = c.name.slice(0, c.name.indexOf(']') + 1);
      expect(controllerSources(c, informers).every((s) => s.startsWith(lane))).toBe(true);
    }
    expect(controllerSources(client.view.controllers[`[${leader}] website`]!, informers).length).toBeGreaterThan(0);
  });

  it("compares the leader's cache with the API server through the process itself", async () => {
    const leader = replicaRoles(client.view, Object.values(client.view.leaders)[0]!).find((r) => r.role === 'leader')!
      .replica.identity;
    const informer = `[${leader}] example.controller-scope.dev/v1alpha1/Website`;
    await until('the leader informer', () => client.view.informers[informer]?.synced);
    const ack = await client.command({ type: 'cache.compare', informer, pageSize: 1 });
    expect(ack).toMatchObject({
      ok: true,
      result: { informer, serverCount: 1, cacheCount: 1, missing: [], extra: [] },
    });
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
  it('shows a leader killed with SIGKILL as gone with everything it owned, and the standby taking over', async () => {
    const lease = Object.values(client.view.leaders)[0]!;
    const leader = replicaRoles(client.view, lease).find((r) => r.role === 'leader')!.replica.identity;
    const other = leader === 'replica-a' ? 'replica-b' : 'replica-a';
    replicas[leader === 'replica-a' ? 0 : 1]?.kill('SIGKILL');
    await until('the killed process gone', () => client.view.processes?.[leader]?.state === 'gone', 60_000);
    // No goodbye came from it: its lease role, informers and controller read gone all the same.
    expect(
      replicaRoles(client.view, client.view.leaders[lease.lease]!).find((r) => r.replica.identity === leader)?.role,
    ).toBe('gone');
    expect(partLiveness(client.view, client.view.controllers[`[${leader}] website`]!).state).toBe('gone');
    for (const inf of Object.values(client.view.informers).filter((i) => i.id.startsWith(`[${leader}]`)))
      expect(partLiveness(client.view, inf).state).toBe('gone');
    expect(partLiveness(client.view, client.view.controllers[`[${other}] website`]!).state).toBe('alive');
    const roles = await until(
      'the standby leading',
      () => {
        const r = replicaRoles(client.view, client.view.leaders[lease.lease]!);
        return r.find((x) => x.replica.identity === other)?.role === 'leader' ? r : undefined;
      },
      120_000,
    );
    expect(roles.filter((r) => r.role === 'leader').map((r) => r.replica.identity)).toEqual([other]);
  });
});
