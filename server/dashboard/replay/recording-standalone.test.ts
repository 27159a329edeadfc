// A recording stands alone: taken after the recorder's ring wrapped (Rec pressed late, --record started
// late), it still replays to the live view, because it starts with the state instead of the oldest event the
// ring still held. Before, such a recording replayed "0/2 informers synced", FIFO for RealFIFO, no handlers,
// empty caches and an unknown reconciler.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { createView } from '../../../shared/protocol/view';
import type { RuntimeView } from '../../../shared/protocol/view';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { Recorder } from '../recorder/recorder';
import { openReplay } from './open-replay';
import { exportRecording } from './recording-export';
import { RecordingWriter } from './recording-writer';

const dir = mkdtempSync(join(tmpdir(), 'cs-standalone-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = { cluster: { kind: 'sandbox' as const, writable: true }, controllers: ['hot'] };

/** Two RealFIFO informers with handlers, synced; a started controller; then a hot loop of `cycles` reconciles. */
function hotLoopSession(cycles: number): StampedEvent[] {
  const s = new EventScript();
  for (const inf of ['v1/ConfigMap', 'v1/Secret']) {
    s.informerStartup(inf, inf, 3);
    s.emit({ kind: 'informer.lifecycle', informer: inf, phase: 'handlerAdded', handler: 'hot', fifo: 'RealFIFO' });
  }
  s.emit({ kind: 'controller.lifecycle', controller: 'hot', phase: 'started', workers: 1, forKind: 'v1/ConfigMap' });
  for (let i = 0; i < cycles; i++) {
    const ref = { gvk: 'v1/Secret', namespace: 'default', name: 'obj-0', resourceVersion: String(300 + i) };
    s.emit({ kind: 'indexer.update', informer: 'v1/Secret', op: 'update', key: 'default/obj-0', ref, size: 3 });
    s.reconcileCycle('hot', 'default/obj-0', {
      cause: { type: 'event', eventType: 'update', source: ref },
      writes: [{ verb: 'update', ref }],
    });
    s.advance(3);
  }
  return s.events;
}

interface Live {
  recorder: Recorder;
  clock: FakeClock;
}

/** Emits the events as the runtime would (stamped afresh, at the same times), timers firing in between. */
function feed({ recorder, clock }: Live, events: StampedEvent[]): void {
  for (const ev of events) {
    clock.step(Math.max(0, ev.ts - clock.now()));
    const { seq: _seq, ts: _ts, ...rest } = ev;
    recorder.emit(rest as RuntimeEvent);
  }
  recorder.flush();
}

/** A live recorder over a small ring, with a viewer connected (so batches flush every 75 ms). */
function live(events: StampedEvent[], opts: { capacity: number; keyframeEvery?: number }): Recorder {
  return liveSession(events, opts).recorder;
}

function liveSession(events: StampedEvent[], opts: { capacity: number; keyframeEvery?: number }): Live {
  const clock = new FakeClock(events[0]?.ts ?? 0);
  const recorder = new Recorder({
    clock,
    capacity: opts.capacity,
    ...(opts.keyframeEvery !== undefined ? { keyframeEvery: opts.keyframeEvery } : {}),
  });
  recorder.onBatch(() => undefined);
  const session = { recorder, clock };
  feed(session, events);
  return session;
}

function expectTheLiveState(view: RuntimeView): void {
  const informers = Object.values(view.informers);
  expect(informers.filter((i) => i.synced)).toHaveLength(2);
  for (const inf of informers) {
    expect(inf.fifo).toBe('RealFIFO');
    expect(inf.handlers).toEqual(['hot']);
  }
  expect(view.controllers['hot']?.phase).toBe('started');
}

describe('a recording taken after the ring wrapped', () => {
  it('Rec: the downloaded span starts with the state, and replays to the live view', async () => {
    const events = hotLoopSession(400);
    const rec = live(events, { capacity: 500 });
    expect(rec.ringBounds().firstSeq).toBeGreaterThan(1000);
    const file = join(dir, 'rec.csrec');
    const fromSeq = rec.seq - 200;
    writeFileSync(file, (await exportRecording(rec, SOURCE, { fromSeq, keyframeEvery: 1 }, 0)).body);

    const replay = await openReplay({ file, clock: new FakeClock(0), autoplay: false });
    expect(replay.recording.header.range).toEqual({ fromSeq, toSeq: rec.seq });
    expect(replay.recording.events[0]?.seq).toBe(fromSeq);
    // Before the first event, the state at the start of the span.
    const atStart = replay.recorder.view;
    expect(atStart).toEqual(reduce(createView(), events.slice(0, fromSeq - 1)));
    expectTheLiveState(atStart);
    expect(replay.recorder.inspectCache('v1/Secret', undefined, 10).total).toBe(3);
    expect(replay.recorder.inspectCache('v1/ConfigMap', undefined, 10).total).toBe(3);

    replay.source.seek(rec.seq);
    const end = replay.recorder.view;
    expect(end).toEqual(rec.view);
    expectTheLiveState(end);
    const cached = replay.recorder.inspectObject({ gvk: 'v1/Secret', namespace: 'default', name: 'obj-0' });
    expect(cached.object?.metadata.resourceVersion).toBe(String(300 + 399));
  });

  it('--record started late: the file starts with the state the recorder held', async () => {
    const events = hotLoopSession(400);
    const session = liveSession(events.slice(0, 2000), { capacity: 300 });
    const rec = session.recorder;
    const file = join(dir, 'late.csrec');
    const writer = new RecordingWriter({ recorder: rec, file, ...SOURCE, clock: session.clock, keyframeEvery: 500 });
    feed(session, events.slice(2000));
    await writer.close();
    const replay = await openReplay({ file, clock: new FakeClock(0), autoplay: false });
    expect(replay.recording.states[0]?.type).toBe('snapshot');
    expect(replay.recording.states.filter((s) => s.type === 'keyframe').length).toBeGreaterThanOrEqual(2);
    expectTheLiveState(replay.recorder.view);
    replay.source.seek(rec.seq);
    expect(replay.recorder.view).toEqual(rec.view);
    // A seek backwards rebuilds from the nearest keyframe and lands on the same view as reducing up to there.
    const back = (replay.recording.events[700] as StampedEvent).seq;
    replay.source.seek(back);
    expect(replay.recorder.view).toEqual(reduce(createView(), events.slice(0, back)));
  });

  it('--record paused for a while: the keyframe after the gap restores the state, so the end is the live view', async () => {
    const events = hotLoopSession(150);
    const session = liveSession(events.slice(0, 100), { capacity: 5000 });
    const rec = session.recorder;
    const file = join(dir, 'paused.csrec');
    const writer = new RecordingWriter({ recorder: rec, file, ...SOURCE, clock: session.clock });
    feed(session, events.slice(100, 400));
    rec.pauseRecordingFile();
    feed(session, events.slice(400, 800));
    rec.resumeRecordingFile();
    feed(session, events.slice(800));
    await writer.close();
    const replayClock = new FakeClock(0);
    const replay = await openReplay({ file, clock: replayClock, autoplay: false, speed: 'max' });
    expect(replay.recording.gaps).toHaveLength(1);
    expect(replay.recording.states.map((st) => st.type)).toEqual(['snapshot', 'keyframe']);
    // Played through, not sought: delivery across the gap takes the keyframe instead of reducing on.
    replay.source.play();
    while (!replay.source.state().finished) replayClock.step(1);
    expect(replay.recorder.view).toEqual(rec.view);
  });

  // 25 exports and replays of a 120-cycle session: seconds of CPU, many more on a loaded machine.
  it(
    'from any point: replay of a recording started there equals the live view at every later point',
    { timeout: 120_000 },
    async () => {
      const events = hotLoopSession(120);
      const views: RuntimeView[] = [createView()];
      for (const ev of events) views.push(reduce(views[views.length - 1] as RuntimeView, [ev]));
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: events.length }),
          fc.integer({ min: 60, max: 400 }),
          fc.integer({ min: 1, max: 30 }),
          async (fromSeq, capacity, every) => {
            const rec = live(events, { capacity, keyframeEvery: every });
            const file = join(dir, `prop-${n++}.csrec`);
            writeFileSync(file, (await exportRecording(rec, SOURCE, { fromSeq, keyframeEvery: 1 }, 0)).body);
            const replay = await openReplay({ file, clock: new FakeClock(0), autoplay: false });
            // What the ring no longer covers cannot be recorded: the span starts at the oldest state it can rebuild.
            const start = replay.recording.states[0]?.seq as number;
            expect(start).toBeGreaterThanOrEqual(Math.min(fromSeq - 1, rec.ringBounds().firstSeq - 1));
            // From the oldest state the recorder keeps (a keyframe the ring still follows) the start is exact.
            if (fromSeq - 1 >= rec.oldestStateSeq()) expect(start).toBe(fromSeq - 1);
            expect(replay.recorder.view).toEqual(views[start]);
            for (const at of [start + 1, Math.floor((start + events.length) / 2), events.length]) {
              if (at <= start || at > events.length) continue;
              replay.source.seek(at);
              expect(replay.recorder.view).toEqual(views[at]);
            }
          },
        ),
        { numRuns: 25 },
      );
    },
  );
});

describe('--record when events stop', () => {
  it(
    'flushes the last batch on its own, so a file read while the process is silent holds it',
    { timeout: 60_000 },
    async () => {
      const events = hotLoopSession(5);
      const session = liveSession(events.slice(0, 10), { capacity: 5000 });
      const file = join(dir, 'silent.csrec');
      // The writer's clock is fake and never moves again: only the writer's own timer can flush.
      const writer = new RecordingWriter({
        recorder: session.recorder,
        file,
        ...SOURCE,
        clock: session.clock,
        flushMs: 500,
      });
      feed(session, events.slice(10));
      const readable = (): string => {
        try {
          return gunzipSync(readFileSync(file), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
        } catch {
          return '';
        }
      };
      const deadline = Date.now() + 30_000;
      while (!readable().includes('"kind":"reconcile.end"') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(readable()).toContain('"kind":"reconcile.end"');
      await writer.close();
    },
  );
});
