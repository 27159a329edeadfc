// A fresh copy of the Go example operator (examples/go-operator: controller-runtime + the bridge module, two
// changed lines), its go.mod pointed at this checkout's module as go/README.md says, against the embedded sandbox, with `controller-scope attach` feeding the dashboard: a browser-protocol
// client sees its reconciles, key states, exact causes and writes, can requeue a key on it, and is told when
// the process goes away.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import type { ChildProcess } from 'node:child_process';
import { loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { runAttach, type RunningAttach } from '../../server/attach';
import { LoopbackClient } from '../loopback/loopback-client';
import { apply, until } from './support/cluster';
import { REPO, go, goBinary, startGo } from './support/go-tool';
import { CONTROLLER_RUNTIME_VERSIONS } from './support/versions';

const EXAMPLE = join(REPO, 'examples', 'go-operator');

describe.skipIf(!goBinary()).each(CONTROLLER_RUNTIME_VERSIONS)(
  'Go example operator on controller-runtime $controllerRuntime, attached',
  ({ controllerRuntime, pins }) => {
    let sandbox: SandboxServer;
    let operator: ChildProcess | undefined;
    let attach: RunningAttach;
    let client: LoopbackClient;
    let recording: string;

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'go-operator-'));
      const binary = join(dir, 'website-operator');
      const project = join(dir, 'website-operator-src');
      cpSync(EXAMPLE, project, { recursive: true });
      const module = 'github.com/controller-scope/controller-scope/go';
      const build = go(project, ['mod', 'edit', `-replace=${module}=${join(REPO, 'go')}`])
        .then(() => (pins.length ? go(project, ['get', ...pins]) : ''))
        .then(() => go(project, ['build', '-o', binary, './cmd']));
      sandbox = new SandboxServer({ port: 0 });
      const { url } = await sandbox.start();
      await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
      const crd = loadYaml(
        readFileSync(join(EXAMPLE, 'config/crd/bases/example.controller-scope.dev_websites.yaml'), 'utf8'),
      );
      await apply(url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      const site = loadYaml(readFileSync(join(EXAMPLE, 'config/samples/website.yaml'), 'utf8'));
      await apply(url, '/apis/example.controller-scope.dev/v1alpha1/namespaces/default/websites', site);
      await build;
      const started = await startGo(
        binary,
        ['--kubeconfig', join(dir, 'kubeconfig')],
        { CONTROLLER_SCOPE_ADDR: '127.0.0.1:0', CONTROLLER_SCOPE_PROCESS: 'website-operator-0' },
        /serving events on (127\.0\.0\.1:\d+)/,
      );
      operator = started.child;
      recording = join(dir, 'recording.csrec');
      attach = await runAttach(
        { addresses: [started.match[1] as string], port: 0, host: '127.0.0.1', record: recording },
        () => undefined,
      );
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

    it('runs the controller-runtime version asked for', () => {
      expect(attach.connections[0]?.controllerRuntime).toBe(controllerRuntime);
    });

    it('shows the reconciles of its controller with their exact causes', async () => {
      const c = await until('a finished reconcile of default/hello', () => {
        const w = client.view.controllers['website'];
        return w && (w.keys['default/hello']?.history.length ?? 0) > 0 && w;
      });
      expect(c.forKind).toBe('example.controller-scope.dev/v1alpha1/Website');
      const key = c.keys['default/hello'];
      const first = key?.history[0];
      expect(first?.causes[0]).toMatchObject({
        type: 'event',
        eventType: 'create',
        source: { gvk: 'example.controller-scope.dev/v1alpha1/Website', name: 'hello' },
      });
      // The Deployment and ConfigMap it created come back as owner events for the same key.
      await until('an owner-caused reconcile', () =>
        client.view.controllers['website']?.keys['default/hello']?.history.some((r) =>
          r.causes.some((x) => x.type === 'owner' && x.source?.gvk === 'apps/v1/Deployment'),
        ),
      );
      expect(c.causes.event).toBeGreaterThan(0);
    });

    it('shows the informers it built, their stores and the writes it made', async () => {
      await until('three synced informers', () => {
        const inf = client.view.informers;
        return ['example.controller-scope.dev/v1alpha1/Website', 'apps/v1/Deployment', 'v1/ConfigMap'].every(
          (id) => inf[id] && inf[id].storeSize > 0,
        );
      });
      // controller-runtime registers one handler per watch on each informer.
      expect(client.view.informers['apps/v1/Deployment']?.handlers).toEqual([
        expect.stringMatching(/^EventHandler#\d+$/),
      ]);
      const writes = await until('its writes', () => {
        const w = Object.values(client.view.controllers['website']?.writes ?? {});
        return w.length >= 3 && w;
      });
      expect(writes.map((w) => w.verb).sort()).toEqual(expect.arrayContaining(['create', 'create', 'updateStatus']));
    });

    it('browses the process cache: its keys and the cached copy of one object', async () => {
      const keys = await client.inspect({ target: 'cache', informer: 'apps/v1/Deployment' });
      expect(keys).toMatchObject({ ok: true, result: { keys: ['default/hello'], total: 1 } });
      // The copy is fetched from the process when the object changes; ask until it has arrived.
      let obj: unknown;
      for (let i = 0; i < 200 && !obj; i++) {
        const r = await client.inspect({
          target: 'object',
          object: { gvk: 'apps/v1/Deployment', namespace: 'default', name: 'hello' },
        });
        if (r.ok && r.result.target === 'object') obj = r.result.object ?? undefined;
        if (!obj) await new Promise((res) => setTimeout(res, 50));
      }
      expect(obj).toMatchObject({
        kind: 'Deployment',
        metadata: { name: 'hello', ownerReferences: [{ kind: 'Website' }] },
      });
    });

    it('requeues a key on the Go controller from the dashboard, with a manual cause', async () => {
      const ack = await client.command({ type: 'requeue', controller: 'website', key: 'default/hello' });
      expect(ack.ok).toBe(true);
      await until('a manual reconcile', () =>
        client.view.controllers['website']?.keys['default/hello']?.history.some((r) =>
          r.causes.some((x) => x.type === 'manual'),
        ),
      );
    });

    it('holds the Go controller in step mode and releases one key at a time', async () => {
      const before = () => client.view.controllers['website']?.totalReconciles ?? 0;
      const hold = await client.command({ type: 'step.hold', controller: 'website' });
      expect(hold.ok).toBe(true);
      // Commands reach the process in order, so the hold is in force when the requeue arrives.
      const held = before();
      expect((await client.command({ type: 'requeue', controller: 'website', key: 'default/hello' })).ok).toBe(true);
      // A worker already waiting for a key takes it, then holds it until released.
      await until(
        'the requeued key taken and held',
        () => (client.view.controllers['website']?.depth.processing ?? 0) > 0,
      );
      expect(before()).toBe(held);
      expect((await client.command({ type: 'step.next', controller: 'website' })).ok).toBe(true);
      await until('one reconcile released', () => before() > held);
      expect((await client.command({ type: 'step.resume', controller: 'website' })).ok).toBe(true);
    });

    it('reports the process as gone when it stops', async () => {
      operator?.kill();
      operator = undefined;
      await until(
        'the gone report',
        () => attach.recorder.recentEvents((e) => e.kind === 'bridge.process' && e.phase === 'gone', 1).length > 0,
      );
      await until('the controller shown stopped', () => client.view.controllers['website']?.phase === 'stopped');
    });

    it('records the Go process with --record, as any dashboard run', async () => {
      await until('reconciles in the recording', () =>
        // Read as it is written: gzip flushed every second, so what is there so far decompresses.
        gunzipSync(readFileSync(recording), { finishFlush: constants.Z_SYNC_FLUSH })
          .toString('utf8')
          .includes('"kind":"reconcile.end"'),
      );
    });
  },
);
