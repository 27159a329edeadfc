// Writes a live session to a --record file as it happens. It is one more batch listener on the recorder,
// so it sees exactly what clients see, and it never lets a slow disk hold memory without bound: past
// maxBufferedBytes it drops batches and writes a gap marker.
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { Recorder } from '../recorder/recorder';
import type { Clock } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import { recordingHeader } from './recording-export';
import type { RecordingGap } from './recording-format';

export interface RecordingWriterOptions {
  recorder: Recorder;
  file: string;
  cluster: ClusterInfo;
  controllers: string[];
  /** Default realClock. */
  clock?: Clock;
  /** Unwritten bytes tolerated before batches are dropped. Default 64 MiB. */
  maxBufferedBytes?: number;
}

export class RecordingWriter {
  private readonly stream: WriteStream;
  private readonly unsubscribe: () => void;
  private readonly maxBuffered: number;
  private dropped = 0;
  private lastSeq = 0;
  private error: Error | undefined;
  private closed = false;

  constructor(private readonly opts: RecordingWriterOptions) {
    this.maxBuffered = opts.maxBufferedBytes ?? 64 * 1024 * 1024;
    this.stream = createWriteStream(opts.file, { flags: 'w' });
    this.stream.on('error', (err) => {
      this.error = err;
    });
    const header = recordingHeader(opts.recorder, opts, (opts.clock ?? realClock).now());
    this.stream.write(`${JSON.stringify(header)}\n`);
    // Whatever the recorder already holds goes first, so the file replays to the same view.
    const earlier = opts.recorder.eventsAfter(0) ?? [];
    if (earlier.length > 0) this.write(earlier);
    opts.recorder.recordingFile = opts.file;
    this.unsubscribe = opts.recorder.onBatch((events) => this.write(events));
  }

  private write(events: StampedEvent[]): void {
    if (this.closed || this.error || events.length === 0) return;
    const last = events[events.length - 1] as StampedEvent;
    // Paused by a viewer (for everyone: there is one file) or behind a slow disk: counted, then a gap marker.
    if (this.opts.recorder.recordingFilePaused || this.stream.writableLength > this.maxBuffered) {
      this.dropped += events.length;
      this.lastSeq = last.seq;
      return;
    }
    let text = '';
    if (this.dropped > 0) {
      const gap: RecordingGap = { type: 'gap', dropped: this.dropped, afterSeq: this.lastSeq };
      text += `${JSON.stringify(gap)}\n`;
      this.dropped = 0;
    }
    for (const ev of events) if (ev.seq > this.lastSeq) text += `${JSON.stringify(ev)}\n`;
    this.lastSeq = last.seq;
    this.stream.write(text);
  }

  /** Flushes what the recorder holds, then closes the file. Rejects if writing failed at any point. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.opts.recorder.flush();
    this.closed = true;
    this.unsubscribe();
    if (this.dropped > 0) {
      const gap: RecordingGap = { type: 'gap', dropped: this.dropped, afterSeq: this.lastSeq };
      this.stream.write(`${JSON.stringify(gap)}\n`);
    }
    if (this.opts.recorder.recordingFile === this.opts.file) this.opts.recorder.recordingFile = undefined;
    await new Promise<void>((resolve) => this.stream.end(() => resolve()));
    if (this.error) throw new Error(`recording to ${this.opts.file} failed: ${this.error.message}`);
  }
}
