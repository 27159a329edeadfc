// A recording served over the real transport: a browser-like client that follows hello, batches and
// snapshots ends with the live session's view, and seeking from the client rebuilds it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBatch, ServerStatus, Snapshot } from '../../../shared/protocol/socket';
import { reduce } from '../../../shared/protocol/reduce';
import type { RuntimeView } from '../../../shared/protocol/view';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { Recorder } from '../recorder/recorder';
import type { DashboardServer } from '../transport/dashboard-server';
import { client, hello, startTestDashboard, unstamped, until } from '../transport/test-harness';
import type { TestClient } from '../transport/test-harness';
import { openReplay } from './open-replay';
import type { OpenedReplay } from './open-replay';
import { RecordingWriter } from './recording-writer';

let dash: DashboardServer | undefined;
let sock: TestClient | undefined;
let opened: OpenedReplay | undefined;
afterEach(async () => {
  opened?.source.close();
  sock?.disconnect();
  await dash?.close();
});

async function record(): Promise<{ file: string; view: RuntimeView }> {
  const live = new Recorder({ flushIntervalMs: 5 });
  const file = join(mkdtempSync(join(tmpdir(), 'cs-rec-')), 'live.jsonl');
  const writer = new RecordingWriter({
    recorder: live,
    file,
    cluster: { kind: 'sandbox', writable: true },
    controllers: ['pods'],
  });
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 20);
  for (let i = 0; i < 200; i++)
    s.reconcileCycle('pods', `default/obj-${i % 20}`, { outcome: i % 4 ? 'success' : 'error' });
  for (const e of unstamped(s.events)) live.emit(e);
  await writer.close();
  return { file, view: live.view };
}

describe('replay over the transport', () => {
  it('streams a recording to a client until it holds the recorded view; seek rebuilds it', async () => {
    const { file, view } = await record();
    opened = await openReplay({ file, speed: 'max', autoplay: false });
    ({ dash } = await startTestDashboard({
      recorder: opened.recorder,
      mode: 'replay',
      cluster: opened.cluster,
      controllers: opened.controllers,
      ports: { replay: opened.source },
    }));
    sock = client(dash);
    const st = {
      view: undefined as RuntimeView | undefined,
      seq: 0,
      status: undefined as ServerStatus | undefined,
      seeks: [] as Snapshot[],
    };
    sock.on('batch', (b: EventBatch) => {
      st.view = reduce(st.view as RuntimeView, b.events);
      st.seq = b.seq;
    });
    sock.on('snapshot', (s: Snapshot) => {
      st.view = s.view;
      st.seq = s.seq;
      if (s.reason === 'seek') st.seeks.push(s);
    });
    sock.on('status', (s) => (st.status = s));
    const h = await hello(sock);
    if (h.type !== 'snapshot') throw new Error('expected snapshot');
    expect(h.server).toMatchObject({
      mode: 'replay',
      cluster: { kind: 'replay', writable: false },
      capabilities: { replay: true, faults: false },
    });
    st.view = h.view;
    const played = await sock.emitWithAck('command', { type: 'replay.play', speed: 'max' });
    expect(played).toMatchObject({ ok: true, result: { playing: true, speed: 'max' } });
    await until(sock, () => st.status?.replay?.finished === true && st.seq === opened?.recording.events.length);
    expect(st.view).toEqual(view);

    const seek = await sock.emitWithAck('command', { type: 'replay.seek', seq: 100 });
    expect(seek).toMatchObject({ ok: true, result: { seq: 100 } });
    await until(sock, () => st.seeks.length === 1);
    expect(st.seeks[0]?.seq).toBe(100);
    expect(st.seeks[0]?.serverEpoch).not.toBe(h.server.serverEpoch);
    expect(st.view?.lastSeq).toBe(100);
    const refused = await sock.emitWithAck('command', { type: 'workload.set', profile: 'churn' });
    expect(refused).toMatchObject({ ok: false, code: 'unsupported' });
  });
});

describe('pausing the --record file', () => {
  it('skips what happened while paused and marks the gap; the recorder goes on for viewers', async () => {
    const live = new Recorder({ flushIntervalMs: 5 });
    const file = join(mkdtempSync(join(tmpdir(), 'cs-rec-')), 'paused.jsonl');
    const writer = new RecordingWriter({
      recorder: live,
      file,
      cluster: { kind: 'sandbox', writable: true },
      controllers: [],
    });
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    const evs = unstamped(s.events);
    const third = Math.floor(evs.length / 3);
    for (const e of evs.slice(0, third)) live.emit(e);
    live.flush();
    live.pauseRecordingFile();
    for (const e of evs.slice(third, 2 * third)) live.emit(e);
    live.flush();
    live.resumeRecordingFile();
    for (const e of evs.slice(2 * third)) live.emit(e);
    await writer.close();
    expect(live.view.lastSeq).toBe(evs.length);
    const { recording, source, recorder } = await openReplay({ file, autoplay: false });
    // The first batch after the pause is folded into the keyframe that restores the state, so it counts in the
    // gap too; events resume after the keyframe.
    expect(recording.gaps).toEqual([{ type: 'gap', dropped: evs.length - third, afterSeq: evs.length }]);
    expect(recording.events.length).toBe(third);
    expect(recording.states.map((st) => [st.type, st.seq])).toEqual([
      ['snapshot', 0],
      ['keyframe', evs.length],
    ]);
    source.seek(evs.length);
    expect(recorder.view).toEqual(live.view);
  });
});
