// A recording file is untrusted input: the format round-trips, the one documented command reads it, old
// (version 1) files still load, and anything malformed, oversized or from a newer build is refused with the
// line, what is wrong and what to do.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { RECORDING_FORMAT } from '../../../shared/protocol/recording';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { createView } from '../../../shared/protocol/view';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { Recorder } from '../recorder/recorder';
import { openReplay } from './open-replay';
import { exportLines } from './recording-export';
import { readRecording } from './recording-reader';
import { RecordingWriter } from './recording-writer';

const dir = mkdtempSync(join(tmpdir(), 'cs-rec-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = { cluster: { kind: 'sandbox' as const, writable: true }, controllers: ['pods'] };

function script(): EventScript {
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 4);
  for (let i = 0; i < 20; i++) s.reconcileCycle('pods', `default/obj-${i % 4}`);
  return s;
}

function recorderWith(s: EventScript): Recorder {
  const recorder = new Recorder({ clock: new FakeClock(), keyframeEvery: 40 });
  for (const ev of s.events) {
    const { seq: _seq, ts: _ts, ...rest } = ev;
    recorder.emit(rest as RuntimeEvent);
    if (ev.seq % 10 === 0) recorder.flush();
  }
  recorder.flush();
  return recorder;
}

function header(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'header',
    format: RECORDING_FORMAT,
    formatVersion: 2,
    protocolVersion: 1,
    createdAt: 0,
    serverEpoch: 'e',
    cluster: { kind: 'sandbox', writable: true },
    controllers: [],
    viewLimits: createView().limits,
    ...over,
  };
}

function snapshot(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'snapshot', seq: 0, ts: 0, view: createView(), caches: [], ...over };
}

/** Writes lines (objects as JSON, strings as they are), gzipped unless plain. */
function file(name: string, lines: unknown[], plain = false): string {
  const path = join(dir, name);
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  writeFileSync(path, plain ? text : gzipSync(text));
  return path;
}

describe('the recording format', () => {
  it('round-trips: what the writer and an export write reads back as the same states and events', async () => {
    const s = script();
    const recorder = new Recorder({ clock: new FakeClock(), flushIntervalMs: 10 });
    const path = join(dir, 'round.csrec');
    const writer = new RecordingWriter({ recorder, file: path, ...SOURCE, keyframeEvery: 40 });
    for (const ev of s.events) {
      const { seq: _seq, ts: _ts, ...rest } = ev;
      recorder.emit(rest as RuntimeEvent);
      if (ev.seq % 10 === 0) recorder.flush();
    }
    await writer.close();
    const rec = await readRecording(path);
    expect(rec.header).toMatchObject({ format: RECORDING_FORMAT, formatVersion: 2, controllers: ['pods'] });
    expect(rec.events.map((e) => e.seq)).toEqual(s.events.map((e) => e.seq));
    expect(rec.states[0]).toMatchObject({ type: 'snapshot', seq: 0 });
    const keyframes = rec.states.slice(1);
    expect(keyframes.length).toBeGreaterThan(1);
    for (const k of keyframes) {
      expect(k.view).toEqual(reduce(createView(), rec.events.slice(0, k.seq)));
      expect(k.caches.map(([informer, entries]) => [informer, entries.length])).toEqual([['v1/Pod', 4]]);
    }

    const live = recorderWith(s);
    const exported = exportLines(live, SOURCE, { fromSeq: 30, keyframeEvery: 1 }, 0);
    const again = await readRecording(file('export.csrec', exported.trimEnd().split('\n'), true));
    expect(again.states[0]?.seq).toBe(29);
    expect(again.states[0]?.view).toEqual(reduce(createView(), (live.eventsAfter(0) ?? []).slice(0, 29)));
    expect(again.states.slice(1).map((k) => k.seq)).toEqual(live.keyframesBetween(29, live.seq).map((k) => k.seq));
    expect(again.events[0]?.seq).toBe(30);
  });

  it('reads with the one documented command: gunzip -c FILE', async () => {
    const s = script();
    const recorder = recorderWith(s);
    const path = join(dir, 'doc.csrec');
    const writer = new RecordingWriter({ recorder, file: path, ...SOURCE });
    await writer.close();
    const text = execFileSync('gunzip', ['-c', path], { encoding: 'utf8' });
    const [first, second] = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({ type: 'header', format: RECORDING_FORMAT });
    expect(second).toMatchObject({ type: 'snapshot', seq: s.events.length });
    // The gunzipped text is a recording too.
    const plain = join(dir, 'doc.jsonl');
    writeFileSync(plain, text);
    expect((await readRecording(plain)).states[0]?.view).toEqual(recorder.view);
    expect(readFileSync(path).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('loads a version 1 recording (plain lines, no state record) as before', async () => {
    const s = script();
    const v1 = { ...header(), formatVersion: undefined, controllers: ['pods'] };
    const path = file('v1.jsonl', [v1, ...s.events], true);
    const replay = await openReplay({ file: path, clock: new FakeClock(0), autoplay: false });
    expect(replay.recording.states).toEqual([]);
    expect(replay.recorder.view.lastSeq).toBe(0);
    replay.source.seek(s.events.length);
    expect(replay.recorder.view).toEqual(reduce(createView(), s.events));
  });

  it('keeps every line before a cut-short end (a killed recording process)', async () => {
    const s = script();
    const whole = gzipSync([header(), snapshot(), ...s.events].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const path = join(dir, 'cut.csrec');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length * 0.7)));
    const rec = await readRecording(path);
    expect(rec.events.length).toBeGreaterThan(0);
    expect(rec.events.length).toBeLessThan(s.events.length);
    expect(rec.events.map((e) => e.seq)).toEqual(s.events.slice(0, rec.events.length).map((e) => e.seq));
  });
});

describe('a malformed recording is refused, naming the line and the problem', () => {
  const refused = async (path: string, message: RegExp, maxLineBytes?: number): Promise<void> => {
    await expect(readRecording(path, maxLineBytes !== undefined ? { maxLineBytes } : {})).rejects.toThrow(message);
  };

  it('a line over the bound, before it is held whole', async () => {
    await refused(file('long.csrec', [header(), 'x'.repeat(5000)]), /long\.csrec:2: line longer than 1000 bytes/, 1000);
    await refused(
      file('long-last.csrec', [header(), `{"a":"${'y'.repeat(5000)}`]),
      /long-last\.csrec:2: line longer/,
      1000,
    );
  });

  it('a newer format, a missing snapshot, a second snapshot, a keyframe first', async () => {
    await refused(
      file('newer.csrec', [header({ formatVersion: 3 })]),
      /newer\.csrec:1: .*format version 3.*newer controller-scope/,
    );
    await refused(file('nosnap.csrec', [header()]), /nosnap\.csrec: no snapshot after the header/);
    await refused(file('twice.csrec', [header(), snapshot(), snapshot()]), /twice\.csrec:3: a second snapshot/);
    await refused(
      file('kf.csrec', [header(), snapshot({ type: 'keyframe' })]),
      /kf\.csrec:2: a keyframe before the snapshot/,
    );
  });

  it('a state record whose view or caches the panels could not use, naming the path', async () => {
    const view = createView();
    const broken = { ...view, controllers: { c: { name: 'c', phase: 'started' } } };
    await refused(
      file('view.csrec', [header(), snapshot({ view: broken })]),
      /view\.csrec:2: snapshot: view\.controllers\["c"\]\.depth is missing/,
    );
    await refused(
      file('pv.csrec', [header(), snapshot({ view: { ...view, protocolVersion: 9 } })]),
      /pv\.csrec:2: snapshot: the view is of protocol version 9/,
    );
    await refused(
      file('seq.csrec', [header(), snapshot({ seq: 5 })]),
      /seq\.csrec:2: snapshot at seq 5 holds a view of seq 0/,
    );
    await refused(
      file('caches.csrec', [header(), snapshot({ caches: { 'v1/Pod': {} } })]),
      /caches must be a list of \[informer, entries\]/,
    );
    await refused(
      file('ref.csrec', [header(), snapshot({ caches: [['v1/Pod', [['default/a', { name: 'a' }]]]] })]),
      /caches of "v1\/Pod": the ref of "default\/a" needs gvk and name/,
    );
  });

  it('junk: not gzip nor JSON, a record of no known type, an event whose seq goes back', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, Buffer.from([0x00, 0xff, 0x10, 0x0a]));
    await refused(junk, /junk\.bin:1: not JSON/);
    await refused(file('what.csrec', [header(), snapshot(), { type: 'mystery' }]), /what\.csrec:3: neither an event/);
    const ev = { kind: 'queue.forget', queue: 'q', key: 'k', ts: 1 };
    await refused(
      file('back.csrec', [header(), snapshot(), { ...ev, seq: 2 }, { ...ev, seq: 2 }]),
      /back\.csrec:4: seq 2 does not increase/,
    );
  });

  it('names of Object.prototype members in a snapshot are names', async () => {
    const view = createView();
    const inf = reduce(view, [
      { kind: 'informer.lifecycle', informer: 'constructor', phase: 'started', seq: 1, ts: 1 },
      {
        kind: 'queue.add',
        queue: '__proto__',
        key: '__proto__',
        cause: { type: 'manual' },
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ready: 1, waiting: 0, processing: 0 },
        seq: 2,
        ts: 2,
      },
    ]);
    const text = JSON.stringify(
      snapshot({ seq: 2, ts: 2, view: inf, caches: [['__proto__', [['__proto__', { gvk: 'x', name: '__proto__' }]]]] }),
    );
    const path = file('proto.csrec', [header(), text]);
    const replay = await openReplay({ file: path, clock: new FakeClock(0), autoplay: false });
    const v = replay.recorder.view;
    expect(Object.hasOwn(v.informers, 'constructor')).toBe(true);
    expect(v.controllers.__proto__?.keys.__proto__?.adds).toBe(1);
    expect(replay.recorder.inspectCache('__proto__', undefined, 10).keys).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });
});
