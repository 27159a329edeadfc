// The recorder's ring of stamped events, oldest evicted first, bounded twice: by a byte budget (what the
// events are estimated to hold on the heap, see event-bytes.ts) and by a count. The transport replays from
// it on resume, inspect reads it, an export or a late --record file starts from it. The buffer grows as
// events arrive, so a large bound costs nothing until it is used.
import type { StampedEvent } from '../../../shared/protocol/events';
import { EventSizer } from './event-bytes';

/** Default byte budget: 64 MiB, about a quarter of a million typical events. */
export const DEFAULT_RING_BYTES = 64 * 1024 * 1024;
/** Default bound on the count, a guard for events smaller than the estimate assumes. */
export const DEFAULT_RING_EVENTS = 1_000_000;

export interface EventRingOptions {
  /** Most events kept. Default DEFAULT_RING_EVENTS. */
  capacity?: number;
  /** Most bytes (estimated) the kept events may hold; Infinity for no budget. Default DEFAULT_RING_BYTES. */
  maxBytes?: number;
}

const INITIAL_SLOTS = 1024;

export class EventRing {
  readonly capacity: number;
  readonly maxBytes: number;
  private buf: (StampedEvent | undefined)[];
  /** Estimated bytes of the event in the same slot of buf. */
  private sizes: Float64Array;
  /** Index of the oldest event. */
  private head = 0;
  private count = 0;
  private held = 0;
  /** Events pushed out to make room, since construction or the last clear. */
  evicted = 0;
  private readonly sizer = new EventSizer();

  constructor(opts: EventRingOptions = {}) {
    this.capacity = Math.max(1, Math.floor(opts.capacity ?? DEFAULT_RING_EVENTS));
    const maxBytes = opts.maxBytes ?? DEFAULT_RING_BYTES;
    if (!(maxBytes > 0))
      throw new Error(
        `ringBytes (the ring's byte budget) must be a positive number of bytes, e.g. 64 * 1024 * 1024; got ${maxBytes}`,
      );
    this.maxBytes = maxBytes;
    const slots = Math.min(this.capacity, INITIAL_SLOTS);
    this.buf = new Array<StampedEvent | undefined>(slots);
    this.sizes = new Float64Array(slots);
  }

  get size(): number {
    return this.count;
  }

  /** Estimated bytes the kept events hold (never above maxBytes, unless one event alone is larger). */
  get bytes(): number {
    return this.held;
  }

  /** Seq of the oldest event kept, or undefined when empty. */
  get firstSeq(): number | undefined {
    return this.at(0)?.seq;
  }

  get lastSeq(): number | undefined {
    return this.at(this.count - 1)?.seq;
  }

  push(ev: StampedEvent): void {
    const size = this.sizer.bytes(ev);
    // The newest event is always kept, even one over the whole budget: a resume right after it must work.
    while (this.count > 0 && (this.count >= this.capacity || this.held + size > this.maxBytes)) this.dropOldest();
    if (this.count === this.buf.length) this.grow();
    const slot = (this.head + this.count) % this.buf.length;
    this.buf[slot] = ev;
    this.sizes[slot] = size;
    this.count++;
    this.held += size;
  }

  private dropOldest(): void {
    this.held -= this.sizes[this.head] as number;
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) % this.buf.length;
    this.count--;
    this.evicted++;
    if (this.count === 0) this.held = 0; // no drift from float sums
  }

  private grow(): void {
    const n = Math.min(this.capacity, Math.max(INITIAL_SLOTS, this.buf.length * 2));
    const buf = new Array<StampedEvent | undefined>(n);
    const sizes = new Float64Array(n);
    for (let i = 0; i < this.count; i++) {
      const from = (this.head + i) % this.buf.length;
      buf[i] = this.buf[from];
      sizes[i] = this.sizes[from] as number;
    }
    this.buf = buf;
    this.sizes = sizes;
    this.head = 0;
  }

  at(i: number): StampedEvent | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.buf[(this.head + i) % this.buf.length];
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
    const slots = Math.min(this.capacity, INITIAL_SLOTS);
    this.buf = new Array<StampedEvent | undefined>(slots);
    this.sizes = new Float64Array(slots);
    this.head = 0;
    this.count = 0;
    this.held = 0;
    this.evicted = 0;
  }

  private slice(from: number, limit: number): StampedEvent[] {
    const out: StampedEvent[] = [];
    for (let i = from; i < this.count && out.length < limit; i++) out.push(this.at(i) as StampedEvent);
    return out;
  }
}
