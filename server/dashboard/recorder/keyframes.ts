// The recorder's own keyframes: the state (view and caches) at a few seqs inside the ring, so the state at
// any seq the ring still covers can be rebuilt by reducing from the nearest one. That is what lets a viewer's
// recording start at the seq they pressed Rec with everything the view held then, after the ring wrapped.
//
// A kept view costs what the reducer copied since (views are shared, copy-on-write), so they are few: a
// keyframe every `every` events, never more than `max`; past that the one whose loss leaves the smallest
// stretch between its neighbours goes, which keeps them spread over the whole ring.
import type { RuntimeView } from '../../../shared/protocol/view';
import type { CacheRefs } from './cache-refs';

export interface Keyframe {
  seq: number;
  ts: number;
  view: RuntimeView;
  caches: CacheRefs;
}

export class Keyframes {
  private frames: Keyframe[] = [];

  constructor(
    readonly every: number,
    private readonly max: number,
  ) {}

  /** seq of the newest keyframe, or -1 before any. */
  get lastSeq(): number {
    return this.frames[this.frames.length - 1]?.seq ?? -1;
  }

  add(frame: Keyframe): void {
    this.frames.push(frame);
    while (this.frames.length > this.max) this.thin();
  }

  /** Forgets keyframes whose following events the ring no longer holds (seq before firstSeq - 1). */
  dropBefore(firstSeq: number): void {
    let i = 0;
    while (i < this.frames.length && (this.frames[i] as Keyframe).seq < firstSeq - 1) i++;
    if (i > 0) this.frames = this.frames.slice(i);
  }

  /** The newest keyframe at or before seq. */
  at(seq: number): Keyframe | undefined {
    let found: Keyframe | undefined;
    for (const f of this.frames) {
      if (f.seq > seq) break;
      found = f;
    }
    return found;
  }

  /** Keyframes after seq `after` up to seq `upTo`, oldest first. */
  between(after: number, upTo: number): Keyframe[] {
    return this.frames.filter((f) => f.seq > after && f.seq <= upTo);
  }

  /** The oldest keyframe held. */
  first(): Keyframe | undefined {
    return this.frames[0];
  }

  clear(): void {
    this.frames = [];
  }

  private thin(): void {
    // Never the first (the oldest reachable state) nor the last (the newest).
    let drop = 1;
    let smallest = Infinity;
    for (let i = 1; i < this.frames.length - 1; i++) {
      const stretch = (this.frames[i + 1] as Keyframe).seq - (this.frames[i - 1] as Keyframe).seq;
      if (stretch < smallest) {
        smallest = stretch;
        drop = i;
      }
    }
    this.frames.splice(drop, 1);
  }
}
