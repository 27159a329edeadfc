// Names of Object.prototype members through the whole product: a requeue command whose key is "constructor"
// or "__proto__" goes socket → command handler → the controller's queue → the recorder's flush → every
// client's reducer, and a cluster-scoped object named "constructor" in a watched kind goes reflector → FIFO
// → cache events → the same reducers. The process keeps serving and every view shows them as plain keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApp, type RunningApp } from '../../server/main';
import { newControllerManagedBy, newManager, type Manager } from '../../server/runtime';
import { lookup } from '../../shared/protocol/records';
import { PROTOTYPE_NAMES } from '../../shared/protocol/testing/prototype-names';
import type { RuntimeView } from '../../shared/protocol/view';
import { LoopbackClient } from './loopback-client';

async function eventually(cond: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('names of Object.prototype members end to end', () => {
  let app: RunningApp;
  let client: LoopbackClient;
  let extra: Manager | undefined;
  const ac = new AbortController();
  let extraRun: Promise<void> | undefined;

  const serverView = async (): Promise<RuntimeView> => {
    const res = await fetch(new URL('/api/view', app.url));
    expect(res.status).toBe(200);
    return (await res.json()) as RuntimeView;
  };

  beforeAll(async () => {
    app = await runApp(
      {
        command: 'dashboard',
        cluster: { mode: 'sandbox' },
        controllers: ['pod-counter'],
        port: 0,
        host: '127.0.0.1',
        allowWrites: false,
        open: false,
      },
      () => {},
    );
    client = new LoopbackClient(app.url);
    await client.connect();
    await client.hello();
  }, 60_000);

  afterAll(async () => {
    client?.close();
    ac.abort();
    await extraRun;
    await app?.stop();
  });

  it('a requeue command per name is queued, reconciled and shown; the server keeps answering', async () => {
    await eventually(
      async () => (await client.command({ type: 'requeue', controller: 'pod-counter', key: 'warm-up' })).ok,
      'the controller to start',
    );
    for (const key of PROTOTYPE_NAMES) {
      const ack = await client.command({ type: 'requeue', controller: 'pod-counter', key });
      expect(ack).toEqual({ ok: true, result: { controller: 'pod-counter', key } });
    }
    const reconciledEverywhere = (v: RuntimeView): boolean =>
      PROTOTYPE_NAMES.every((k) => {
        const c = v.controllers['pod-counter'];
        return c !== undefined && Object.hasOwn(c.keys, k) && (c.keys[k]?.reconciles ?? 0) >= 1;
      });
    await eventually(() => reconciledEverywhere(app.recorder.view), 'the server view to show every requeued key');
    await eventually(() => reconciledEverywhere(client.view), 'the client view to show every requeued key');
    const v = await serverView();
    expect(reconciledEverywhere(v)).toBe(true);
    // Manager started, controller running, caches synced: ready, and still serving after those keys.
    await eventually(async () => (await fetch(new URL('/readyz', app.url))).status === 200, '/readyz to say ready');
    expect(v.droppedEvents ?? 0).toBe(0);
    expect(client.view.droppedEvents ?? 0).toBe(0);
    // A late client's snapshot carries them too.
    const late = new LoopbackClient(app.url);
    await late.connect();
    await late.hello();
    expect(reconciledEverywhere(late.view)).toBe(true);
    late.close();
  }, 60_000);

  it('a Namespace named "constructor" watched by a controller named "constructor"', async () => {
    const cluster = app.cluster;
    if (!cluster) throw new Error('runApp started no cluster');
    extra = newManager(cluster.config, { probe: app.recorder });
    await newControllerManagedBy(extra)
      .named('constructor')
      .for({ apiVersion: 'v1', kind: 'Namespace' })
      .complete({ reconcile: async () => ({}) });
    extraRun = extra.start(ac.signal).catch(() => undefined);
    await extra.getClient().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'constructor' } } as never);
    const shown = (v: RuntimeView): boolean =>
      (lookup(lookup(v.controllers, 'constructor')?.keys, 'constructor')?.reconciles ?? 0) >= 1;
    await eventually(() => shown(app.recorder.view), 'the server view to show Namespace "constructor"');
    await eventually(() => shown(client.view), 'the client view to show Namespace "constructor"');
    const v = await serverView();
    expect(lookup(v.controllers, 'constructor')?.name).toBe('constructor');
    expect(Object.values(v.informers).some((i) => i.id.includes('Namespace'))).toBe(true);
    expect(v.droppedEvents ?? 0).toBe(0);
  }, 60_000);
});
