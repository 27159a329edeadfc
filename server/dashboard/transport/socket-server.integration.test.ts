import { afterEach, describe, expect, it } from 'vitest';
import type { EventBatch, Snapshot } from '../../../shared/protocol/socket';
import type { RuntimeView } from '../../../shared/protocol/view';
import { reduce } from '../../../shared/protocol/reduce';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import type { StepState } from '../../../shared/protocol/commands';
import type { DashboardServer } from './dashboard-server';
import type { ClusterControls, ControllerStepper } from './ports';
import { client, connectError, connected, hello, startTestDashboard, unstamped, until } from './test-harness';
import type { TestClient } from './test-harness';

const open: { dash?: DashboardServer; clients: TestClient[] } = { clients: [] };

afterEach(async () => {
  for (const c of open.clients) c.disconnect();
  open.clients = [];
  await open.dash?.close();
  open.dash = undefined;
});

async function setup(opts: Parameters<typeof startTestDashboard>[0] = {}) {
  const r = await startTestDashboard(opts);
  open.dash = r.dash;
  return r;
}

function track(c: TestClient): TestClient {
  open.clients.push(c);
  return c;
}

function script(n = 3): EventScript {
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', n);
  for (let i = 0; i < n; i++) s.reconcileCycle('pods', `default/obj-${i}`);
  return s;
}

/** A client that keeps its own view from hello, batches and snapshots, as the browser store does. */
function follow(c: TestClient) {
  const state = { view: undefined as RuntimeView | undefined, seq: 0, gaps: 0, snapshots: [] as Snapshot[] };
  c.on('batch', (b: EventBatch) => {
    if (b.prevSeq !== state.seq) state.gaps++;
    state.view = reduce(state.view as RuntimeView, b.events);
    state.seq = b.seq;
  });
  c.on('snapshot', (s: Snapshot) => {
    state.snapshots.push(s);
    state.view = s.view;
    state.seq = s.seq;
  });
  return state;
}

describe('handshake and streaming', () => {
  it('answers hello with a snapshot, then streams batches that rebuild the server view', async () => {
    const { dash, recorder } = await setup();
    const s = script();
    for (const e of unstamped(s.events.slice(0, 20))) recorder.emit(e);
    const c = track(client(dash));
    const state = follow(c);
    const h = await hello(c);
    if (h.type !== 'snapshot') throw new Error(`expected snapshot, got ${h.type}`);
    expect(h.server.serverEpoch).toBe(recorder.serverEpoch);
    expect(h.seq).toBe(20);
    expect(h.view.lastSeq).toBe(20);
    state.view = h.view;
    state.seq = h.seq;
    for (const e of unstamped(s.events.slice(20))) recorder.emit(e);
    await until(c, () => state.seq === s.events.length);
    expect(state.gaps).toBe(0);
    expect(state.view).toEqual(recorder.view);
  });

  it('replays missed events on resume with the same epoch, and falls back to a snapshot otherwise', async () => {
    const { dash, recorder } = await setup({ recorderOptions: { flushIntervalMs: 20, capacity: 30 } });
    const s = script(4);
    const evs = unstamped(s.events);
    for (const e of evs.slice(0, 10)) recorder.emit(e);
    const a = track(client(dash));
    const first = await hello(a);
    expect(first.type).toBe('snapshot');
    a.disconnect();
    for (const e of evs.slice(10, 25)) recorder.emit(e);

    const b = track(client(dash));
    const resumed = await hello(b, { resume: { serverEpoch: recorder.serverEpoch, lastSeq: 10 } });
    if (resumed.type !== 'replay') throw new Error(`expected replay, got ${resumed.type}`);
    expect(resumed.prevSeq).toBe(10);
    expect(resumed.events.map((e) => e.seq)).toEqual(Array.from({ length: 15 }, (_, i) => 11 + i));
    if (first.type === 'snapshot') expect(reduce(first.view, resumed.events)).toEqual(recorder.view);

    const other = track(client(dash));
    expect((await hello(other, { resume: { serverEpoch: 'another-process', lastSeq: 10 } })).type).toBe('snapshot');
    for (const e of evs.slice(25, 60)) recorder.emit(e);
    const evicted = track(client(dash));
    expect((await hello(evicted, { resume: { serverEpoch: recorder.serverEpoch, lastSeq: 10 } })).type).toBe(
      'snapshot',
    );
    const ahead = track(client(dash));
    expect((await hello(ahead, { resume: { serverEpoch: recorder.serverEpoch, lastSeq: 10_000 } })).type).toBe(
      'snapshot',
    );
  });

  it('refuses another protocol version with a clear message', async () => {
    const { dash } = await setup();
    const c = track(client(dash));
    const h = await hello(c, { protocolVersion: 999 });
    expect(h).toMatchObject({ type: 'incompatible', serverProtocolVersion: 1 });
    if (h.type === 'incompatible') expect(h.error).toMatch(/999.*not supported/);
  });

  it('says a protocol version that is not a number is not a number (not "1 is not supported: speaks 1")', async () => {
    const { dash } = await setup();
    const c = track(client(dash));
    const h = await hello(c, { protocolVersion: '1' as never });
    expect(h).toMatchObject({ type: 'incompatible', serverProtocolVersion: 1 });
    if (h.type === 'incompatible') {
      expect(h.error).toBe('hello needs protocolVersion as a number (this server speaks 1), got string "1"');
    }
  });

  it('filters batches and snapshots by subscription', async () => {
    const { dash, recorder } = await setup();
    const c = track(client(dash));
    const batches: EventBatch[] = [];
    c.on('batch', (b) => batches.push(b));
    const h = await hello(c, { subscription: { keys: ['default/obj-1'] } });
    expect(h.type).toBe('snapshot');
    const s = script(3);
    for (const e of unstamped(s.events)) recorder.emit(e);
    await until(c, () => batches.some((b) => b.seq === s.events.length));
    const keyed = batches.flatMap((b) => b.events).filter((e) => 'key' in e);
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.every((e) => 'key' in e && e.key === 'default/obj-1')).toBe(true);
    const snap = new Promise<Snapshot>((r) => c.once('snapshot', r));
    expect(await c.emitWithAck('subscribe', { controllers: ['nope'] })).toMatchObject({ ok: true });
    expect(Object.keys((await snap).view.controllers)).toEqual([]);
  });

  it('serves 50 clients at once, all reaching the same view', async () => {
    const { dash, recorder } = await setup();
    const clients = Array.from({ length: 50 }, () => track(client(dash)));
    const states = clients.map((c) => follow(c));
    const hellos = await Promise.all(clients.map((c) => hello(c)));
    hellos.forEach((h, i) => {
      if (h.type !== 'snapshot') throw new Error('expected snapshot');
      (states[i] as ReturnType<typeof follow>).view = h.view;
    });
    const s = script(5);
    for (const e of unstamped(s.events)) recorder.emit(e);
    await Promise.all(clients.map((c, i) => until(c, () => states[i]?.seq === s.events.length)));
    for (const st of states) expect(st.view).toEqual(recorder.view);
    expect(dash.sockets.clientStats()).toHaveLength(50);
  });
});

describe('auth', () => {
  it('requires the token in handshake auth or ?token, with clear errors', async () => {
    const { dash } = await setup({ token: 's3cret' });
    expect((await connectError(track(client(dash)))).message).toMatch(/token is required/);
    expect((await connectError(track(client(dash, { auth: { token: 'nope' } })))).message).toMatch(/wrong token/);
    const viaAuth = track(client(dash, { auth: { token: 's3cret' } }));
    expect((await hello(viaAuth)).type).toBe('snapshot');
    const viaQuery = track(client(dash, { query: { token: 's3cret' } }));
    await connected(viaQuery);
    expect((await fetch(`${dash.url}api/view`)).status).toBe(401);
    expect((await fetch(`${dash.url}api/view`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    expect((await fetch(`${dash.url}api/view?token=s3cret`)).status).toBe(200);
    expect((await fetch(`${dash.url}healthz`)).status).toBe(200);
  });

  it('generates a token when bound off loopback', async () => {
    const lines: string[] = [];
    const { dash } = await setup({ host: '0.0.0.0', log: (l) => lines.push(l) });
    expect(dash.token).toMatch(/^[\w-]{20,}$/);
    expect(lines.join('\n')).toContain(`token=${dash.token}`);
    const url = `http://127.0.0.1:${dash.port}/`;
    expect((await fetch(`${url}api/view`)).status).toBe(401);
    expect((await fetch(`${url}api/view?token=${dash.token}`)).status).toBe(200);
  });

  it('refuses a foreign Origin on the socket and the API, and accepts its own', async () => {
    const { dash } = await setup();
    const evil = track(client(dash, { extraHeaders: { origin: 'http://evil.example' } }));
    await connectError(evil);
    const own = track(client(dash, { extraHeaders: { origin: `http://127.0.0.1:${dash.port}` } }));
    expect((await hello(own)).type).toBe('snapshot');
    expect((await fetch(`${dash.url}api/view`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
  });
});

describe('commands', () => {
  it('answers every malformed command with an error and keeps serving', async () => {
    const { dash, recorder } = await setup();
    const c = track(client(dash));
    await hello(c);
    const bad: unknown[] = [
      null,
      42,
      'recording.pause',
      {},
      { type: 'nope' },
      { type: 'requeue', controller: 'pods' },
      { type: 'requeue', controller: 'pods', key: 7 },
      { type: 'recording.pause', extra: true },
      { type: 'fault.inject', fault: { kind: 'errors', rate: 3, code: 500 } },
      { type: 'step.breakpoint', controller: 'pods' },
      { type: 'replay.play', speed: 2 },
      { type: 'requeue', controller: 'x'.repeat(10_000), key: 'k' },
    ];
    for (const cmd of bad) {
      const res = await c.emitWithAck('command', cmd as never);
      expect(res, JSON.stringify(cmd)).toMatchObject({ ok: false, code: 'invalid' });
      if (!res.ok) expect(res.error).toMatch(/^invalid command: /);
    }
    const errors: string[] = [];
    c.on('protocolError', (e) => errors.push(`${e.event}: ${e.error}`));
    (c as unknown as { emit: (ev: string, ...a: unknown[]) => void }).emit('command', { type: 'recording.pause' });
    (c as unknown as { emit: (ev: string, ...a: unknown[]) => void }).emit('bogus', 1);
    const inspectBad = await c.emitWithAck('inspect', { target: 'object' } as never);
    expect(inspectBad).toMatchObject({ ok: false, code: 'invalid' });
    await until(c, () => errors.length === 2);
    expect(errors.sort()).toEqual([
      'bogus: unknown event "bogus"',
      'command: "command" needs an acknowledgement callback',
    ]);
    expect(recorder.recordingState().paused).toBe(false);
    const noFile = await c.emitWithAck('command', { type: 'recording.pause' });
    expect(noFile).toMatchObject({ ok: false, code: 'unsupported' });
    if (!noFile.ok) expect(noFile.error).toMatch(/writes no --record file.*Rec in the top bar/);
    expect((await hello(track(client(dash)))).type).toBe('snapshot');
  });

  it("one viewer pausing the server's recording file never stops another viewer's stream", async () => {
    const { dash, recorder } = await setup();
    recorder.recordingFile = 'session.jsonl';
    const s = script();
    const a = track(client(dash));
    const b = track(client(dash));
    const bState = follow(b);
    await hello(a);
    const h = await hello(b);
    if (h.type !== 'snapshot') throw new Error(`expected snapshot, got ${h.type}`);
    bState.view = h.view;
    bState.seq = h.seq;
    const paused = await a.emitWithAck('command', { type: 'recording.pause' });
    expect(paused).toMatchObject({ ok: true, result: { recording: { paused: true, file: 'session.jsonl' } } });
    for (const e of unstamped(s.events)) recorder.emit(e);
    await until(b, () => bState.seq === s.events.length);
    expect(bState.view).toEqual(recorder.view);
  });

  it('says which capability is missing, refuses writes to a read-only cluster, and reports port failures', async () => {
    const cluster: ClusterControls = {
      info: { kind: 'kubeconfig', name: 'prod', writable: false },
      injectFault: () => ({ id: 'f1', description: '' }),
      clearFaults: () => 0,
      activeFaults: () => [],
      setWorkload: () => {},
      stopWorkload: () => {},
      workload: () => undefined,
    };
    const { dash } = await setup({ ports: { cluster } });
    const c = track(client(dash));
    await hello(c);
    const step = await c.emitWithAck('command', { type: 'step.hold', controller: 'pods' });
    expect(step).toMatchObject({ ok: false, code: 'unsupported' });
    const fault = await c.emitWithAck('command', { type: 'fault.inject', fault: { kind: 'expireWatches' } });
    expect(fault).toMatchObject({ ok: false, code: 'forbidden' });
    if (!fault.ok) expect(fault.error).toMatch(/"prod" is a kubeconfig cluster.*--allow-writes/);
    const seek = await c.emitWithAck('command', { type: 'replay.seek', seq: 3 });
    expect(seek).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('sends the workload profiles a writable cluster accepts, so the browser offers a list', async () => {
    const cluster: ClusterControls = {
      info: { kind: 'sandbox', writable: true },
      injectFault: () => ({ id: 'f1', description: '' }),
      clearFaults: () => 0,
      activeFaults: () => [],
      workloadProfiles: () => ['steady', 'bursty', 'storm'],
      setWorkload: () => {},
      stopWorkload: () => {},
      workload: () => undefined,
    };
    const { dash } = await setup({ ports: { cluster } });
    const h = await hello(track(client(dash)));
    if (h.type !== 'snapshot') throw new Error('expected snapshot');
    expect(h.server.capabilities.workloadProfiles).toEqual(['steady', 'bursty', 'storm']);
  });

  it('starts a replay waiting for a viewer once the first viewer said hello', async () => {
    let arrived = 0;
    const replay = {
      play: () => state,
      pause: () => state,
      seek: () => state,
      state: () => state,
      viewerArrived: () => void arrived++,
    };
    const state = {
      playing: false,
      speed: 1 as const,
      seq: 0,
      firstSeq: 1,
      lastSeq: 1,
      ts: 0,
      firstTs: 0,
      lastTs: 0,
      finished: false,
    };
    const { dash } = await setup({ mode: 'replay', ports: { replay } });
    expect(arrived).toBe(0);
    await hello(track(client(dash)));
    expect(arrived).toBe(1);
  });

  it('drives a ControllerStepper and a Requeuer, pushes status, and turns a throwing port into an error', async () => {
    let state: StepState = { controller: 'pods', holding: false, held: 0, breakpoints: { keys: [], onError: false } };
    const stepper: ControllerStepper = {
      hold: () => (state = { ...state, holding: true }),
      next: () => ({ ...state, released: 'default/a' }),
      resume: () => (state = { ...state, holding: false }),
      setBreakpoint: (bp, remove) =>
        (state = { ...state, breakpoints: { keys: remove ? [] : [bp.key ?? ''], onError: bp.onError ?? false } }),
      state: () => state,
    };
    const requeued: string[] = [];
    const { dash } = await setup({
      controllers: ['pods'],
      ports: {
        steppers: (name) => (name === 'pods' ? stepper : undefined),
        requeuer: {
          requeue: (controller, key) => {
            if (key === 'explode') throw new Error('queue is shut down');
            requeued.push(`${controller}:${key}`);
            return controller === 'pods';
          },
        },
      },
    });
    const c = track(client(dash));
    const statuses: boolean[] = [];
    c.on('status', (s) => statuses.push(s.steppers.pods?.holding ?? false));
    const h = await hello(c);
    if (h.type !== 'snapshot') throw new Error('expected snapshot');
    expect(h.server.capabilities).toMatchObject({ step: true, requeue: true, faults: false });
    expect(await c.emitWithAck('command', { type: 'step.hold', controller: 'pods' })).toMatchObject({
      ok: true,
      result: { holding: true },
    });
    expect(await c.emitWithAck('command', { type: 'step.next', controller: 'pods' })).toMatchObject({
      ok: true,
      result: { released: 'default/a' },
    });
    expect(
      await c.emitWithAck('command', { type: 'step.breakpoint', controller: 'pods', key: 'default/b' }),
    ).toMatchObject({ ok: true, result: { breakpoints: { keys: ['default/b'] } } });
    expect(await c.emitWithAck('command', { type: 'step.hold', controller: 'other' })).toMatchObject({
      ok: false,
      code: 'notFound',
    });
    expect(await c.emitWithAck('command', { type: 'requeue', controller: 'pods', key: 'default/a' })).toMatchObject({
      ok: true,
    });
    expect(await c.emitWithAck('command', { type: 'requeue', controller: 'nope', key: 'a' })).toMatchObject({
      ok: false,
      code: 'notFound',
    });
    const boom = await c.emitWithAck('command', { type: 'requeue', controller: 'pods', key: 'explode' });
    expect(boom).toEqual({ ok: false, code: 'failed', error: 'requeue failed: queue is shut down' });
    expect(requeued).toEqual(['pods:default/a', 'nope:a']);
    await until(c, () => statuses.includes(true));
  });
});

describe('slow clients', () => {
  it('caps what waits for a client that stops reading, then resynchronises it with a snapshot', async () => {
    const { dash, recorder } = await setup({
      recorderOptions: { flushIntervalMs: 1_000_000, maxPending: 1_000_000 },
      limits: { maxBufferedPackets: 4, lagCheckIntervalMs: 25 },
    });
    const c = track(client(dash));
    const state = follow(c);
    const h = await hello(c);
    if (h.type !== 'snapshot') throw new Error('expected snapshot');
    state.view = h.view;
    // Stop reading on the client's TCP socket: the server's writes back up into its buffers.
    const ws = (c.io.engine.transport as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws;
    ws._socket.pause();
    const detail = 'x'.repeat(2000);
    let maxPackets = 0;
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 500; i++) {
        recorder.emit({ kind: 'queue.forget', queue: 'bulk', key: `k${i}-${detail}` });
      }
      recorder.flush();
      await new Promise((r) => setImmediate(r));
      const stats = dash.sockets.clientStats()[0];
      maxPackets = Math.max(maxPackets, stats?.bufferedPackets ?? 0);
    }
    const stats = dash.sockets.clientStats()[0];
    expect(stats?.lagging).toBe(true);
    expect(stats?.dropped).toBeGreaterThan(0);
    // The socket's queue never exceeds the cap plus the lag summaries that volatile emits let through.
    expect(maxPackets).toBeLessThanOrEqual(4 + 2);
    ws._socket.resume();
    await until(c, () => state.snapshots.some((s) => s.reason === 'overflow'));
    const overflow = state.snapshots.find((s) => s.reason === 'overflow');
    expect(overflow?.dropped).toBeGreaterThan(0);
    expect(overflow?.seq).toBe(recorder.seq);
    expect(state.view).toEqual(recorder.view);
    expect(dash.sockets.clientStats()[0]?.lagging).toBe(false);
  });

  it('a client that falls behind again soon after an overflow snapshot waits for the next one, with lag summaries', async () => {
    const { dash, recorder } = await setup({
      recorderOptions: { flushIntervalMs: 1_000_000, maxPending: 1_000_000 },
      limits: { maxBufferedPackets: 4, lagCheckIntervalMs: 25, overflowSnapshotBackoffMs: 3_600_000 },
    });
    const c = track(client(dash));
    const state = follow(c);
    let lags = 0;
    c.on('lag', () => void lags++);
    const h = await hello(c);
    if (h.type !== 'snapshot') throw new Error('expected snapshot');
    state.view = h.view;
    const ws = (c.io.engine.transport as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws;
    const fallBehind = async (): Promise<void> => {
      ws._socket.pause();
      for (let round = 0; round < 60 && !dash.sockets.clientStats()[0]?.lagging; round++) {
        for (let i = 0; i < 500; i++)
          recorder.emit({ kind: 'queue.forget', queue: 'bulk', key: `k${i}-${'x'.repeat(2000)}` });
        recorder.flush();
        await new Promise((r) => setImmediate(r));
      }
      expect(dash.sockets.clientStats()[0]?.lagging).toBe(true);
      ws._socket.resume();
    };
    const overflows = (): number => state.snapshots.filter((s) => s.reason === 'overflow').length;
    await fallBehind();
    await until(c, () => overflows() === 1);
    await until(c, () => !dash.sockets.clientStats()[0]?.lagging);
    await fallBehind();
    const lagsBefore = lags;
    await until(c, () => lags >= lagsBefore + 3 || overflows() > 1);
    expect(overflows()).toBe(1);
    expect(dash.sockets.clientStats()[0]?.lagging).toBe(true);
  });
});
