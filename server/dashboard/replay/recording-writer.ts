// Writes a live session to a --record file as it happens. It is one more batch listener on the recorder,
// so it sees exactly what clients see. The file starts with the recorder's state when recording began (so a
// recording started after the ring wrapped replays to the live view), then events, with a keyframe every
// keyframeEvery events and in place of the first batch after every gap. It never lets a slow disk hold
// memory without bound: past maxBufferedBytes it drops batches and writes a gap marker. The lines go through gzip (about 15 bytes an
// event instead of 235), flushed at least every flushMs so a killed process leaves a readable file.
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { constants, createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';
import type { StampedEvent } from '../../../shared/protocol/events';
import { KEYFRAME_EVERY } from '../../../shared/protocol/recording';
import type { RecordingGap } from '../../../shared/protocol/recording';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { Recorder } from '../recorder/recorder';
import type { Clock } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import { recordingHeader, stateLine } from './recording-export';

export interface RecordingWriterOptions {
  recorder: Recorder;
  file: string;
  cluster: ClusterInfo;
  controllers: string[];
  /** Default realClock. */
  clock?: Clock;
  /** Unwritten bytes tolerated before batches are dropped. Default 64 MiB. */
  maxBufferedBytes?: number;
  /** Events between keyframes. Default KEYFRAME_EVERY. */
  keyframeEvery?: number;
  /** Longest a written batch waits in gzip before it is flushed to the file. Default 1000 ms. */
  flushMs?: number;
}

export class RecordingWriter {
  private readonly stream: WriteStream;
  private readonly gzip: Gzip;
  private readonly unsubscribe: () => void;
  private readonly maxBuffered: number;
  private readonly keyframeEvery: number;
  private readonly flushMs: number;
  private readonly clock: Clock;
  private dropped = 0;
  private lastSeq = 0;
  private lastKeyframeSeq: number;
  private lastFlush: number;
  private error: Error | undefined;
  private closed = false;

  constructor(private readonly opts: RecordingWriterOptions) {
    this.maxBuffered = opts.maxBufferedBytes ?? 64 * 1024 * 1024;
    this.keyframeEvery = opts.keyframeEvery ?? KEYFRAME_EVERY;
    this.flushMs = opts.flushMs ?? 1000;
    this.clock = opts.clock ?? realClock;
    this.lastFlush = this.clock.now();
    this.stream = createWriteStream(opts.file, { flags: 'w' });
    this.gzip = createGzip();
    this.gzip.pipe(this.stream);
    const onError = (err: Error): void => {
      this.error ??= err;
    };
    this.stream.on('error', onError);
    this.gzip.on('error', onError);
    const header = recordingHeader(opts.recorder, opts, this.clock.now());
    // The state the recorder holds now goes first; events it already reduced into it are not written again.
    const start = opts.recorder.stateNow();
    this.gzip.write(`${JSON.stringify(header)}\n${stateLine('snapshot', start)}`);
    this.lastSeq = start.seq;
    this.lastKeyframeSeq = start.seq;
    this.gzip.flush(constants.Z_SYNC_FLUSH);
    opts.recorder.recordingFile = opts.file;
    this.unsubscribe = opts.recorder.onBatch((events) => this.write(events));
  }

  private get buffered(): number {
    return this.gzip.writableLength + this.stream.writableLength;
  }

  private write(events: StampedEvent[]): void {
    if (this.closed || this.error || events.length === 0) return;
    const last = events[events.length - 1] as StampedEvent;
    if (last.seq <= this.lastSeq) return;
    // Paused by a viewer (for everyone: there is one file) or behind a slow disk: counted, then a gap marker.
    if (this.opts.recorder.recordingFilePaused || this.buffered > this.maxBuffered) {
      this.dropped += events.filter((e) => e.seq > this.lastSeq).length;
      this.lastSeq = last.seq;
      return;
    }
    // Batch listeners run right after the batch was reduced: the recorder's state is the state at last.seq.
    const state = this.opts.recorder.stateNow();
    let text = '';
    if (this.dropped > 0 && state.seq === last.seq) {
      // After a gap the state comes first: this batch's events are folded into the keyframe (and counted in
      // the gap), so the replay takes the keyframe where the events resume instead of reducing on a view that
      // missed some.
      const fresh = events.filter((e) => e.seq > this.lastSeq).length;
      const gap: RecordingGap = { type: 'gap', dropped: this.dropped + fresh, afterSeq: last.seq };
      text += `${JSON.stringify(gap)}\n${stateLine('keyframe', state)}`;
      this.dropped = 0;
      this.lastKeyframeSeq = state.seq;
    } else {
      if (this.dropped > 0) {
        const gap: RecordingGap = { type: 'gap', dropped: this.dropped, afterSeq: this.lastSeq };
        text += `${JSON.stringify(gap)}\n`;
        this.dropped = 0;
      }
      for (const ev of events) if (ev.seq > this.lastSeq) text += `${JSON.stringify(ev)}\n`;
      if (last.seq - this.lastKeyframeSeq >= this.keyframeEvery && state.seq === last.seq) {
        text += stateLine('keyframe', state);
        this.lastKeyframeSeq = state.seq;
      }
    }
    this.lastSeq = last.seq;
    this.gzip.write(text);
    const now = this.clock.now();
    if (now - this.lastFlush >= this.flushMs) this.flushNow(now);
    // When events stop (an attached process killed), no later batch would flush this one: a timer does.
    else this.flushTimer ??= setTimeout(() => this.flushNow(this.clock.now()), this.flushMs).unref();
  }

  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  private flushNow(now: number): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.closed) return;
    this.lastFlush = now;
    this.gzip.flush(constants.Z_SYNC_FLUSH);
  }

  /** Flushes what the recorder holds, then closes the file. Rejects if writing failed at any point. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.opts.recorder.flush();
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.closed = true;
    this.unsubscribe();
    if (this.dropped > 0) {
      const gap: RecordingGap = { type: 'gap', dropped: this.dropped, afterSeq: this.lastSeq };
      this.gzip.write(`${JSON.stringify(gap)}\n`);
    }
    if (this.opts.recorder.recordingFile === this.opts.file) this.opts.recorder.recordingFile = undefined;
    await new Promise<void>((resolve) => {
      this.stream.once('close', resolve);
      this.stream.once('error', () => resolve());
      this.gzip.end();
    });
    if (this.error) throw new Error(`recording to ${this.opts.file} failed: ${this.error.message}`);
  }
}
