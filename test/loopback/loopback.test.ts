// The loopback layer: the whole product in one process (runApp with the sandbox and its simulated life, the
// manager with the four example controllers, the recorder as its probe, the dashboard), watched through real
// socket.io clients that reduce what they receive with the browser's own store. After recording is paused
// every way of building the view must agree with the server's: streamed from a fresh hello, replayed from
// seq 0 by a late client, and replayed from the --record file at full speed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli, type DemoControllerName } from '../../server/cli-options';
import { readRecording } from '../../server/dashboard/replay/recording-reader';
import { runApp, type RunningApp } from '../../server/main';
import type { RuntimeView } from '../../shared/protocol/view';
import { LoopbackClient } from './loopback-client';

const CONTROLLERS: DemoControllerName[] = ['pod-counter', 'replicaset-owner', 'flaky', 'hot-loop'];

async function eventually(cond: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The example controllers have each shown what they are there to show. */
function showsEverything(v: RuntimeView): boolean {
  const c = v.controllers;
  return (
    (c['hot-loop']?.hotLoops.length ?? 0) > 0 &&
    (c.flaky?.reconciles.error ?? 0) > 0 &&
    (c.flaky?.retries ?? 0) > 0 &&
    (c['pod-counter']?.reconciles.success ?? 0) > 0 &&
    (c['replicaset-owner']?.reconciles.success ?? 0) > 0
  );
}

describe('loopback: runApp + sandbox + example controllers + recorder + socket clients', () => {
  let app: RunningApp;
  let dir: string;
  let recordFile: string;
  const log: string[] = [];
  const fresh = { client: undefined as LoopbackClient | undefined };
  let late: LoopbackClient | undefined;
  /** The server's view once recording is paused. */
  let settled: RuntimeView | undefined;

  const serverView = async (): Promise<RuntimeView> => {
    const res = await fetch(new URL('/api/view', app.url));
    expect(res.status).toBe(200);
    return (await res.json()) as RuntimeView;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loopback-'));
    recordFile = join(dir, 'session.csrec');
    app = await runApp(
      {
        command: 'dashboard',
        cluster: { mode: 'sandbox' },
        controllers: CONTROLLERS,
        port: 0,
        host: '127.0.0.1',
        allowWrites: false,
        open: false,
        record: recordFile,
      },
      (line) => log.push(line),
    );
    // The page loads while the manager is still starting: hello from scratch, then follow the stream.
    const a = new LoopbackClient(app.url);
    await a.connect();
    await a.hello();
    fresh.client = a;
  }, 60_000);

  afterAll(async () => {
    fresh.client?.close();
    late?.close();
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('streams the example controllers at work to a client that said hello from scratch', async () => {
    const a = fresh.client as LoopbackClient;
    expect(a.stats.hellos).toEqual(['snapshot']);
    expect(a.serverInfo?.mode).toBe('live');
    expect(a.serverInfo?.cluster.kind).toBe('sandbox');
    expect([...(a.serverInfo?.controllers ?? [])].sort()).toEqual([...CONTROLLERS].sort());
    await eventually(() => showsEverything(a.view), 'every example controller to show its behaviour');
    expect(a.stats.batches).toBeGreaterThan(0);
  });

  it('lets a late client resume from seq 0 and follow the stream from there', async () => {
    const epoch = fresh.client?.serverInfo?.serverEpoch;
    expect(epoch).toBeTruthy();
    late = new LoopbackClient(app.url);
    await late.connect();
    const res = await late.helloFromZero(epoch as string);
    // Everything since the start is still in the ring, so the answer is the events, not a snapshot.
    expect(res.type).toBe('replay');
    if (res.type === 'replay') {
      expect(res.prevSeq).toBe(0);
      expect(res.events[0]?.seq).toBe(1);
    }
    const l = late;
    await eventually(() => l.stats.batches > 0, 'a batch after the replay');
  });

  it('once the recorder stops stamping, both clients hold exactly the server view', async () => {
    const a = fresh.client as LoopbackClient;
    const l = late as LoopbackClient;
    app.recorder.pause();
    const server = await serverView();
    // Nothing is stamped while paused, so the server's seq is final: wait for both clients to reach it.
    await eventually(() => a.at === server.lastSeq && l.at === server.lastSeq, `both clients at ${server.lastSeq}`);
    expect(await serverView()).toEqual(server);
    expect(a.view.lastSeq).toBe(server.lastSeq);
    expect(a.view).toEqual(server);
    expect(l.view).toEqual(server);
    expect(a.stats.gaps + l.stats.gaps).toBe(0);
    settled = server;
  });

  it('the settled view has the substance: hot loop with evidence, flaky errors and retries, synced informers', () => {
    const v = settled as RuntimeView;
    const hot = v.controllers['hot-loop'];
    expect(hot?.hotLoops.length).toBeGreaterThan(0);
    const loop = hot?.hotLoops[0];
    expect(loop?.key).toBe('demo/hot-loop-target');
    expect(loop?.selfRatio).toBeGreaterThan(0);
    expect(loop?.evidence.length).toBeGreaterThan(0);
    // The evidence names the controller's own write behind the event that woke it again.
    expect(loop?.evidence.some((e) => e.write?.ref.name === 'hot-loop-target')).toBe(true);

    const flaky = v.controllers.flaky;
    expect(flaky?.reconciles.error).toBeGreaterThan(0);
    expect(flaky?.retries).toBeGreaterThan(0);
    expect(flaky?.hotLoops).toEqual([]);

    const pc = v.controllers['pod-counter'];
    expect(pc?.reconciles.success).toBeGreaterThan(0);
    expect(pc?.forKind).toContain('Pod');
    expect(pc?.client.cached).toBeGreaterThan(0);
    // replicaset-owner writes once per change and settles: not a loop.
    expect(v.controllers['replicaset-owner']?.hotLoops).toEqual([]);

    const informers = Object.values(v.informers);
    expect(informers.map((i) => i.id).sort()).toEqual(
      expect.arrayContaining(['apps/v1/ReplicaSet', 'v1/ConfigMap', 'v1/Pod']),
    );
    for (const i of informers) {
      expect(i.synced, `${i.id} synced`).toBe(true);
      expect(i.state, `${i.id} reflector state`).toBe('watching');
      expect(i.storeSize, `${i.id} store size`).toBeGreaterThan(0);
    }
  });

  it('a client arriving after the pause gets a snapshot equal to the same view', async () => {
    const c = new LoopbackClient(app.url);
    try {
      await c.connect();
      const res = await c.hello();
      expect(res.type).toBe('snapshot');
      expect(c.view).toEqual(settled);
    } finally {
      c.close();
    }
  });

  it('the --record file, served with --replay at max speed, waits for its viewer and ends at the live view', async () => {
    const live = settled as RuntimeView;
    fresh.client?.close();
    late?.close();
    await app.stop();
    // What `controller-scope dashboard --replay FILE --replay-speed max` runs.
    const cli = parseCli(['--replay', recordFile, '--replay-speed', 'max', '--port', '0', '--host', '127.0.0.1']);
    if (cli.command !== 'dashboard') throw new Error(`expected the dashboard command, got ${cli.command}`);
    const replay = await runApp({ ...cli, open: false }, (line) => log.push(line));
    const start = (await readRecording(recordFile)).states[0]?.seq;
    expect(start).toBeGreaterThanOrEqual(0);
    const viewer = new LoopbackClient(replay.url);
    try {
      await viewer.connect();
      const res = await viewer.hello();
      expect(res.type).toBe('snapshot');
      expect(viewer.serverInfo?.mode).toBe('replay');
      expect([...(viewer.serverInfo?.controllers ?? [])].sort()).toEqual([...CONTROLLERS].sort());
      // Nobody had looked before this hello, so the replay was still at its start (the state --record began
      // with: the recorder had stamped a few events by then); the hello starts it.
      expect(viewer.status?.replay).toMatchObject({ waitingForViewer: true, playing: false, seq: start });
      await eventually(() => viewer.status?.replay?.finished === true, 'the replay to finish');
      const replayed = replay.recorder.view;
      expect(replayed.lastSeq).toBe(live.lastSeq);
      expect(replayed).toEqual(live);
      // The viewer that started it is streamed to the end and holds the same view.
      await eventually(() => viewer.at === live.lastSeq, `the viewer at ${live.lastSeq}`);
      expect(viewer.view).toEqual(live);
      expect(viewer.stats.gaps).toBe(0);
    } finally {
      viewer.close();
      await replay.stop();
    }
  });
});
