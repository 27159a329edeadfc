// Plays a recording into a recorder with no cluster at all: at the recorded pace (1x), ten times faster, or
// as fast as the reducer goes, with pause and seek. The recorder and transport cannot tell it from a live
// runtime, so the browser needs no replay mode of its own.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ReplaySpeed, ReplayState } from '../../../shared/protocol/commands';
import type { Recorder } from '../recorder/recorder';
import type { Clock, TimerHandle } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import type { ReplayControls } from '../transport/ports';
import type { Recording } from './recording-format';

export interface ReplaySourceOptions {
  recorder: Recorder;
  recording: Recording;
  /** Default realClock. */
  clock?: Clock;
  /** Default 1. */
  speed?: ReplaySpeed;
  /** Start playing at once. Default true. */
  autoplay?: boolean;
  /** Events handed over per tick at 'max' speed, so sockets and timers keep running between ticks. Default 2000. */
  maxChunk?: number;
  /** Quiet stretches longer than this (recorded time) are shortened to it. Default 5000 ms. */
  maxGapMs?: number;
}

export class ReplaySource implements ReplayControls {
  private readonly recorder: Recorder;
  private readonly events: StampedEvent[];
  private readonly clock: Clock;
  private readonly maxChunk: number;
  private readonly maxGapMs: number;
  private speed: ReplaySpeed;
  private playing = false;
  /** Index of the next event to deliver. */
  private next = 0;
  private timer: TimerHandle | undefined;
  private readonly listeners = new Set<(s: ReplayState) => void>();
  private seekCount = 0;

  constructor(opts: ReplaySourceOptions) {
    this.recorder = opts.recorder;
    this.events = opts.recording.events;
    this.clock = opts.clock ?? realClock;
    this.speed = opts.speed ?? 1;
    this.maxChunk = opts.maxChunk ?? 2000;
    this.maxGapMs = opts.maxGapMs ?? 5000;
    if (opts.autoplay ?? true) this.play();
  }

  play(speed?: ReplaySpeed): ReplayState {
    if (speed !== undefined) this.speed = speed;
    if (this.next >= this.events.length) return this.changed();
    this.playing = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.schedule(0);
    return this.changed();
  }

  pause(): ReplayState {
    this.playing = false;
    this.timer?.cancel();
    this.timer = undefined;
    return this.changed();
  }

  /** Rebuilds the recorder's view from the first event up to and including seq; playing continues from there. */
  seek(seq: number): ReplayState {
    this.timer?.cancel();
    this.timer = undefined;
    let i = 0;
    while (i < this.events.length && (this.events[i] as StampedEvent).seq <= seq) i++;
    this.next = i;
    // A new epoch: clients' resume points from before the seek no longer describe this view.
    this.recorder.reset('seek', `replay-${++this.seekCount}-${this.clock.now()}`, this.events.slice(0, i));
    if (this.playing) this.schedule(0);
    return this.changed();
  }

  state(): ReplayState {
    const first = this.events[0];
    const last = this.events[this.events.length - 1];
    const at = this.events[this.next - 1];
    return {
      playing: this.playing,
      speed: this.speed,
      seq: at?.seq ?? 0,
      firstSeq: first?.seq ?? 0,
      lastSeq: last?.seq ?? 0,
      ts: at?.ts ?? first?.ts ?? 0,
      firstTs: first?.ts ?? 0,
      lastTs: last?.ts ?? 0,
      finished: this.next >= this.events.length,
    };
  }

  onChange(listener: (s: ReplayState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.pause();
    this.listeners.clear();
  }

  private changed(): ReplayState {
    const s = this.state();
    for (const l of this.listeners) l(s);
    return s;
  }

  private schedule(delayMs: number): void {
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.tick();
    }, delayMs);
  }

  /** Delivers every event due now (or a chunk at 'max'), then sleeps until the next one is due. */
  private tick(): void {
    if (!this.playing) return;
    const start = this.next;
    if (this.speed === 'max') {
      this.next = Math.min(this.events.length, this.next + this.maxChunk);
    } else {
      // Everything recorded within the same instant goes together; then wait for the next instant.
      const ts = (this.events[this.next] as StampedEvent).ts;
      while (this.next < this.events.length && (this.events[this.next] as StampedEvent).ts <= ts) this.next++;
    }
    this.recorder.ingest(this.events.slice(start, this.next));
    if (this.next >= this.events.length) {
      this.playing = false;
      this.recorder.flush();
      this.changed();
      return;
    }
    if (this.speed === 'max') return this.schedule(0);
    const gap = (this.events[this.next] as StampedEvent).ts - (this.events[this.next - 1] as StampedEvent).ts;
    this.schedule(Math.min(gap, this.maxGapMs) / this.speed);
  }
}
