// Plays a recording into a recorder with no cluster at all: at the recorded pace (1x), ten times faster, or
// as fast as the reducer goes, with pause, seek and stepping. It waits for a viewer before it starts (a replay
// that ran to its end before anyone looked would show only the end), and Play at the end starts over. The
// recorder and transport cannot tell it from a live runtime, so the browser needs no replay mode of its own.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ReplayMark, ReplaySpeed, ReplayState } from '../../../shared/protocol/commands';
import type { Recorder } from '../recorder/recorder';
import type { Clock, TimerHandle } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import type { ReplayControls } from '../transport/ports';
import type { Recording, StateRecord } from '../../../shared/protocol/recording';
import { CacheRefs } from '../recorder/cache-refs';
import type { RecordedObjects } from './recorded-objects';
import { replayMarks } from './replay-marks';

export interface ReplaySourceOptions {
  recorder: Recorder;
  recording: Recording;
  /** Default realClock. */
  clock?: Clock;
  /** Default 1. */
  speed?: ReplaySpeed;
  /** Start playing at once (true), when the first viewer arrives ('whenWatched'), or on Play. Default 'whenWatched'. */
  autoplay?: boolean | 'whenWatched';
  /** The caches as recorded, kept at the replay's position for the Indexer. */
  objects?: RecordedObjects;
  /** Events handed over per tick at 'max' speed, so sockets and timers keep running between ticks. Default 2000. */
  maxChunk?: number;
  /** Quiet stretches longer than this (recorded time) are shortened to it. Default 5000 ms. */
  maxGapMs?: number;
}

export class ReplaySource implements ReplayControls {
  private readonly recorder: Recorder;
  private readonly events: StampedEvent[];
  /** The recording's state records: the start snapshot (absent in version 1 files) and keyframes. */
  private readonly states: StateRecord[];
  /** Keyframes that follow a gap: delivery across one restores the state from it instead of reducing on. */
  private readonly jumps: number[];
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
  private waitingForViewer: boolean;
  private readonly objects: RecordedObjects | undefined;
  private readonly marks: ReplayMark[];

  constructor(opts: ReplaySourceOptions) {
    this.recorder = opts.recorder;
    this.events = opts.recording.events;
    this.states = opts.recording.states;
    this.jumps = this.states
      .slice(1)
      .map((s) => s.seq)
      .filter((seq) => !this.hasEvent(seq));
    this.clock = opts.clock ?? realClock;
    this.speed = opts.speed ?? 1;
    this.maxChunk = opts.maxChunk ?? 2000;
    this.maxGapMs = opts.maxGapMs ?? 5000;
    this.objects = opts.objects;
    this.marks = replayMarks(this.events, opts.recording.header.viewLimits);
    // Before the first event, the view is the recording's start state.
    if (this.states.length > 0) this.rebuild(0, this.recorder.serverEpoch);
    const autoplay = opts.autoplay ?? 'whenWatched';
    this.waitingForViewer = autoplay === 'whenWatched';
    if (autoplay === true) this.play();
  }

  /** A viewer said hello: a replay waiting for one starts now. */
  viewerArrived(): void {
    if (!this.waitingForViewer) return;
    this.play();
  }

  /** Plays from where it is; at the end, from the start again. */
  play(speed?: ReplaySpeed): ReplayState {
    if (speed !== undefined) this.speed = speed;
    this.waitingForViewer = false;
    if (this.events.length === 0) return this.changed();
    if (this.next >= this.events.length) this.rebuild(0);
    this.playing = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.schedule(0);
    return this.changed();
  }

  pause(): ReplayState {
    this.playing = false;
    this.waitingForViewer = false;
    this.timer?.cancel();
    this.timer = undefined;
    return this.changed();
  }

  /**
   * Moves to just after seq: forward by delivering the events in between (so stepping one event is cheap),
   * backward by rebuilding the view from the first event. Playing continues from there.
   */
  seek(seq: number): ReplayState {
    this.timer?.cancel();
    this.timer = undefined;
    this.waitingForViewer = false;
    let i = 0;
    while (i < this.events.length && (this.events[i] as StampedEvent).seq <= seq) i++;
    if (i >= this.next) this.deliver(i);
    else this.rebuild(i);
    if (this.playing) this.schedule(0);
    return this.changed();
  }

  /** One event forward (n > 0) or back (n < 0) from the current position. */
  stepBy(n: number): ReplayState {
    const target = Math.max(0, Math.min(this.events.length, this.next + Math.trunc(n)));
    const before = this.events[target - 1];
    return this.seek(before ? before.seq : (this.events[0]?.seq ?? 1) - 1);
  }

  state(): ReplayState {
    const first = this.events[0];
    const last = this.events[this.events.length - 1];
    const at = this.events[this.next - 1];
    return {
      playing: this.playing,
      speed: this.speed,
      seq: at?.seq ?? this.states[0]?.seq ?? 0,
      firstSeq: first?.seq ?? 0,
      lastSeq: last?.seq ?? 0,
      ts: at?.ts ?? this.states[0]?.ts ?? first?.ts ?? 0,
      firstTs: first?.ts ?? 0,
      lastTs: last?.ts ?? 0,
      finished: this.next >= this.events.length,
      ...(this.waitingForViewer ? { waitingForViewer: true } : {}),
      marks: this.marks,
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

  /** Delivers events up to index end (exclusive) as one batch. */
  private deliver(end: number): void {
    if (end <= this.next) return;
    if (this.crossesJump(this.next, end)) return this.rebuild(end);
    const slice = this.events.slice(this.next, end);
    this.next = end;
    this.objects?.apply(slice);
    this.recorder.ingest(slice);
    this.recorder.flush();
  }

  /**
   * Forgets the view and rebuilds it up to index end (exclusive): from the nearest state record at or before
   * that point and the events after it, or from the first event in a recording without one.
   */
  private rebuild(end: number, epoch?: string): void {
    this.next = end;
    // At the end, a keyframe after the last event (one that closed a gap) is where the recording ends.
    const target = end >= this.events.length ? Infinity : (this.events[end - 1]?.seq ?? -1);
    let state: StateRecord | undefined = this.states[0];
    for (const s of this.states) if (s.seq <= target) state = s;
    let from = 0;
    if (state) while (from < end && (this.events[from] as StampedEvent).seq <= state.seq) from++;
    const upTo = this.events.slice(from, end);
    const caches = state ? CacheRefs.fromTable(state.caches) : undefined;
    this.objects?.rebuild(upTo, caches);
    // A new epoch: clients' resume points from before the seek no longer describe this view.
    this.recorder.reset(
      'seek',
      epoch ?? `replay-${++this.seekCount}-${this.clock.now()}`,
      upTo,
      state && caches ? { view: state.view, caches } : undefined,
    );
  }

  private hasEvent(seq: number): boolean {
    let lo = 0;
    let hi = this.events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = (this.events[mid] as StampedEvent).seq;
      if (at === seq) return true;
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Whether delivering events [start, end) passes a keyframe that follows a gap. */
  private crossesJump(start: number, end: number): boolean {
    if (this.jumps.length === 0) return false;
    const before = this.events[start - 1]?.seq ?? this.states[0]?.seq ?? 0;
    const last = end >= this.events.length ? Infinity : (this.events[end - 1] as StampedEvent).seq;
    return this.jumps.some((j) => j >= before && j < last);
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
    if (this.crossesJump(start, this.next)) this.rebuild(this.next);
    else {
      const slice = this.events.slice(start, this.next);
      this.objects?.apply(slice);
      this.recorder.ingest(slice);
    }
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
