import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { reduce } from '../../../shared/protocol/reduce';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { createView } from '../../../shared/protocol/view';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { Recorder } from '../recorder/recorder';
import { openReplay } from './open-replay';
import { readRecording } from './recording-reader';
import { RecordingWriter } from './recording-writer';
import { RECORDED_NOTE_ANNOTATION, RecordedObjects } from './recorded-objects';
import { markKind, replayMarks } from './replay-marks';
import { ReplaySource } from './replay-source';
import type { Recording } from '../../../shared/protocol/recording';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'cs-replay-'));

function liveSession(clock: FakeClock, recorder: Recorder): void {
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 6);
  const own = { gvk: 'v1/Pod', namespace: 'default', name: 'obj-1' };
  for (let i = 0; i < 30; i++) {
    s.reconcileCycle('pods', `default/obj-${i % 6}`, {
      outcome: i % 5 === 0 ? 'error' : 'success',
      cause: { type: 'event', eventType: 'update', source: own },
      writes: [{ verb: 'updateStatus', ref: own }],
    });
  }
  for (const ev of s.events) {
    const { seq: _s, ts: _t, ...rest } = ev;
    recorder.emit(rest as RuntimeEvent);
    clock.step(7);
  }
}

function recordingOf(events: StampedEvent[]): Recording {
  return {
    header: {
      type: 'header',
      format: 'controller-scope/recording',
      protocolVersion: 1,
      createdAt: 0,
      serverEpoch: 'e',
      cluster: { kind: 'sandbox', writable: true },
      controllers: ['pods'],
      viewLimits: createView().limits,
    },
    states: [],
    events,
    gaps: [],
  };
}

describe('recording and replay', () => {
  it('a recording replayed at full speed reaches the same view as the live session', async () => {
    const clock = new FakeClock();
    const live = new Recorder({ clock, flushIntervalMs: 50, viewLimits: { maxLogEntries: 64, seriesPoints: 40 } });
    const file = join(tmp(), 'session.jsonl');
    const writer = new RecordingWriter({
      recorder: live,
      file,
      cluster: { kind: 'sandbox', writable: true },
      controllers: ['pods'],
    });
    liveSession(clock, live);
    await writer.close();

    const rec = await readRecording(file);
    expect(rec.header.controllers).toEqual(['pods']);
    expect(rec.events).toHaveLength(live.seq);

    const replayClock = new FakeClock(0);
    const replay = await openReplay({ file, clock: replayClock, speed: 'max', autoplay: true });
    while (!replay.source.state().finished) replayClock.step(1);
    expect(replay.recorder.view).toEqual(live.view);
    expect(replay.cluster).toMatchObject({ kind: 'replay', writable: false });
  });

  it('keeps the recorded pace at 1x and ten times faster at 10x', () => {
    const s = new EventScript({ ts: 1000 });
    for (let i = 0; i < 5; i++) {
      s.emit({ kind: 'queue.forget', queue: 'q', key: `k${i}` });
      s.advance(1000);
    }
    for (const [speed, stepMs] of [
      [1, 1000],
      [10, 100],
    ] as const) {
      const clock = new FakeClock(0);
      const recorder = new Recorder({ clock });
      const src = new ReplaySource({ recorder, recording: recordingOf(s.events), clock, speed, autoplay: true });
      clock.step(0);
      expect(recorder.seq).toBe(1);
      clock.step(stepMs - 1);
      expect(recorder.seq).toBe(1);
      clock.step(1);
      expect(recorder.seq).toBe(2);
      clock.step(stepMs * 3);
      expect(recorder.seq).toBe(5);
      expect(src.state()).toMatchObject({ finished: true, playing: false, seq: 5 });
    }
  });

  it('pauses, resumes and seeks, rebuilding the view from the start up to the seq', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 4);
    for (let i = 0; i < 4; i++) s.reconcileCycle('pods', `default/obj-${i}`);
    const clock = new FakeClock(0);
    const recorder = new Recorder({ clock });
    const resets: string[] = [];
    recorder.onReset((r) => resets.push(r));
    const src = new ReplaySource({ recorder, recording: recordingOf(s.events), clock, speed: 1, autoplay: false });
    clock.step(1000);
    expect(recorder.seq).toBe(0);
    src.play();
    clock.step(0);
    const played = recorder.seq;
    expect(played).toBeGreaterThan(0);
    expect(played).toBeLessThan(s.events.length);
    src.pause();
    clock.step(100_000);
    expect(recorder.seq).toBe(played);
    const at = src.seek(20);
    expect(at).toMatchObject({ seq: 20, playing: false });
    // Forward: the events in between are delivered, the view is not rebuilt.
    expect(resets).toEqual([]);
    expect(recorder.view).toEqual(reduce(createView(), s.events.slice(0, 20)));
    expect(recorder.eventsAfter(10)?.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 11 + i));
    src.seek(3);
    expect(resets).toEqual(['seek']);
    expect(recorder.view).toEqual(reduce(createView(), s.events.slice(0, 3)));
    src.play('max');
    while (!src.state().finished) clock.step(1);
    expect(recorder.view).toEqual(reduce(createView(), s.events));
  });

  it('waits for a viewer before playing, steps event by event, and plays again from the start at the end', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    for (let i = 0; i < 3; i++) s.reconcileCycle('pods', `default/obj-${i}`);
    const clock = new FakeClock(0);
    const recorder = new Recorder({ clock });
    const src = new ReplaySource({ recorder, recording: recordingOf(s.events), clock, speed: 'max' });
    clock.step(60_000);
    expect(recorder.seq).toBe(0);
    expect(src.state()).toMatchObject({ playing: false, waitingForViewer: true, finished: false });
    src.viewerArrived();
    while (!src.state().finished) clock.step(1);
    expect(recorder.seq).toBe(s.events.length);
    src.viewerArrived();
    expect(src.state().playing).toBe(false);
    expect(src.stepBy(-1)).toMatchObject({ seq: s.events.length - 1, finished: false });
    expect(recorder.view).toEqual(reduce(createView(), s.events.slice(0, -1)));
    expect(src.stepBy(1)).toMatchObject({ seq: s.events.length, finished: true });
    expect(recorder.view).toEqual(reduce(createView(), s.events));
    // Play at the end starts over.
    expect(src.play()).toMatchObject({ playing: true, seq: 0, finished: false });
    while (!src.state().finished) clock.step(1);
    expect(recorder.view).toEqual(reduce(createView(), s.events));
  });

  it('marks 410s, relists, errors and hot loops on the timeline, thinned to the limit', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    for (let i = 0; i < 40; i++)
      s.reconcileCycle('pods', `default/obj-${i % 3}`, { outcome: i % 2 ? 'error' : 'success' });
    const marks = replayMarks(s.events, {});
    expect(marks.length).toBe(20);
    expect(marks.every((m) => m.kind === 'error')).toBe(true);
    expect(marks[0]?.text).toMatch(/reconcile error/);
    const thinned = replayMarks(s.events, {}, 5);
    expect(thinned.length).toBeLessThanOrEqual(5);
    expect(
      markKind({
        seq: 1,
        ts: 0,
        level: 'warn',
        kind: 'reflector.watchEnd',
        text: 'v1/Pod: watch expired (410 Gone) at resourceVersion 7',
      }),
    ).toBe('410');
    expect(
      markKind({ seq: 1, ts: 0, level: 'error', kind: 'reconcile.start', text: 'c k: hot loop, 11 reconciles in 10s' }),
    ).toBe('hotLoop');
    expect(
      markKind({ seq: 1, ts: 0, level: 'info', kind: 'reconcile.start', text: 'c k: hot loop ended' }),
    ).toBeUndefined();
  });

  it('serves the caches as recorded to the Indexer: keys and resourceVersions at the replay position', () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 4);
    const clock = new FakeClock(0);
    const objects = new RecordedObjects();
    const recorder = new Recorder({ clock, objectSource: objects, objectVersions: false });
    const src = new ReplaySource({ recorder, recording: recordingOf(s.events), clock, objects, autoplay: false });
    src.seek(s.events[s.events.length - 1]?.seq ?? 0);
    const cache = recorder.inspectCache('v1/Pod', undefined, 100);
    expect(cache.total).toBe(4);
    const key = cache.keys[0] as string;
    const [ns, name] = key.split('/') as [string, string];
    const obj = objects.get('v1/Pod', ns, name);
    expect(obj?.metadata.annotations?.[RECORDED_NOTE_ANNOTATION]).toMatch(/references only/);
    src.seek(0);
    expect(recorder.inspectCache('v1/Pod', undefined, 100).total).toBe(0);
  });

  it('marks a gap when the disk cannot keep up instead of buffering without bound', async () => {
    const clock = new FakeClock();
    const live = new Recorder({ clock, flushIntervalMs: 10 });
    const file = join(tmp(), 'gap.jsonl');
    const writer = new RecordingWriter({
      recorder: live,
      file,
      cluster: { kind: 'none', writable: false },
      controllers: [],
      maxBufferedBytes: 0,
    });
    for (let i = 0; i < 3; i++) {
      live.emit({ kind: 'queue.forget', queue: 'q', key: `k${i}` });
      clock.step(10);
    }
    await writer.close();
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text.split('\n')[0]).toContain('"type":"header"');
    expect(text).toContain('"type":"gap"');
  });

  it('rejects files that are not recordings, naming the line', async () => {
    const dir = tmp();
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"hello":1}\n');
    await expect(readRecording(bad)).rejects.toThrow(/bad.jsonl:1: not a controller-scope recording/);
    const future = join(dir, 'future.jsonl');
    writeFileSync(future, `${JSON.stringify({ ...recordingOf([]).header, protocolVersion: 99 })}\n`);
    await expect(readRecording(future)).rejects.toThrow(/protocol version 99/);
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${JSON.stringify(recordingOf([]).header)}\nnot json\n`);
    await expect(readRecording(broken)).rejects.toThrow(/broken.jsonl:2: not JSON/);
  });
});
