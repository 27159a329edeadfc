// A fixed-capacity ring of stamped events, oldest evicted first. Sized by default for about a day of a busy
// controller (200k events); the transport replays from it on resume and inspect reads it.
import type { StampedEvent } from '../../../shared/protocol/events';

export interface EventRingOptions {
  /** Events kept. Default 200_000. */
  capacity?: number;
}

export class EventRing {
  readonly capacity: number;
  private readonly buf: (StampedEvent | undefined)[];
  /** Index of the oldest event. */
  private head = 0;
  private count = 0;
  /** Events pushed out to make room, since construction or the last clear. */
  evicted = 0;

  constructor(opts: EventRingOptions = {}) {
    this.capacity = Math.max(1, opts.capacity ?? 200_000);
    this.buf = new Array<StampedEvent | undefined>(this.capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Seq of the oldest event kept, or undefined when empty. */
  get firstSeq(): number | undefined {
    return this.at(0)?.seq;
  }

  get lastSeq(): number | undefined {
    return this.at(this.count - 1)?.seq;
  }

  push(ev: StampedEvent): void {
    if (this.count < this.capacity) {
      this.buf[(this.head + this.count) % this.capacity] = ev;
      this.count++;
      return;
    }
    this.buf[this.head] = ev;
    this.head = (this.head + 1) % this.capacity;
    this.evicted++;
  }

  at(i: number): StampedEvent | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.buf[(this.head + i) % this.capacity];
  }

  /** Position of the first event with seq > after (binary search; seqs increase along the ring). */
  private indexAfter(after: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.at(mid) as StampedEvent).seq <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Events with seq > after, or undefined when some of them were already evicted (the caller must fall back
   * to a snapshot). `after` equal to the newest seq gives [].
   */
  since(after: number, limit = Infinity): StampedEvent[] | undefined {
    const first = this.firstSeq;
    if (first === undefined) return after >= 0 ? [] : undefined;
    // The event right after `after` must still be here (seqs are consecutive within one epoch).
    if (after < first - 1) return undefined;
    return this.slice(this.indexAfter(after), limit);
  }

  /** The newest `limit` events that satisfy pred, oldest first. */
  findLast(pred: (ev: StampedEvent) => boolean, limit: number): StampedEvent[] {
    const out: StampedEvent[] = [];
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) {
      const ev = this.at(i) as StampedEvent;
      if (pred(ev)) out.push(ev);
    }
    return out.reverse();
  }

  toArray(): StampedEvent[] {
    return this.slice(0, Infinity);
  }

  clear(): void {
    this.buf.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.evicted = 0;
  }

  private slice(from: number, limit: number): StampedEvent[] {
    const out: StampedEvent[] = [];
    for (let i = from; i < this.count && out.length < limit; i++) out.push(this.at(i) as StampedEvent);
    return out;
  }
}
