import { describe, expect, it } from 'vitest';
import { EventRing } from './event-ring';
import { estimateEventBytes, EventSizer } from './event-bytes';
import type { StampedEvent } from '../../../shared/protocol/events';

const ev = (seq: number, key = `k${seq}`): StampedEvent => ({ kind: 'queue.forget', queue: 'q', key, seq, ts: seq });

describe('EventRing', () => {
  it('keeps the newest events up to capacity and counts evictions', () => {
    const r = new EventRing({ capacity: 3 });
    for (let i = 1; i <= 5; i++) r.push(ev(i));
    expect(r.toArray().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(r.evicted).toBe(2);
    expect(r.firstSeq).toBe(3);
    expect(r.lastSeq).toBe(5);
  });

  it('answers since() only while the next event is still kept', () => {
    const r = new EventRing({ capacity: 3 });
    for (let i = 1; i <= 5; i++) r.push(ev(i));
    expect(r.since(2)?.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(r.since(4)?.map((e) => e.seq)).toEqual([5]);
    expect(r.since(5)).toEqual([]);
    expect(r.since(1)).toBeUndefined();
    expect(r.since(2, 2)?.map((e) => e.seq)).toEqual([3, 4]);
    expect(new EventRing().since(0)).toEqual([]);
  });

  it('finds the newest matching events in order', () => {
    const r = new EventRing({ capacity: 10 });
    for (let i = 1; i <= 8; i++) r.push(ev(i));
    expect(r.findLast((e) => e.seq % 2 === 0, 3).map((e) => e.seq)).toEqual([4, 6, 8]);
  });

  it('holds no more bytes than its budget, evicting the oldest, across the growth of its buffer', () => {
    const budget = 64 * 1024;
    const r = new EventRing({ maxBytes: budget });
    let evicted = 0;
    for (let i = 1; i <= 20_000; i++) {
      r.push(ev(i));
      expect(r.bytes).toBeLessThanOrEqual(budget);
      if (r.evicted > evicted) {
        // It evicts no more than it must: the ring stays full to within about one event.
        expect(r.bytes).toBeGreaterThan(budget - 2 * estimateEventBytes(ev(i)));
        evicted = r.evicted;
      }
    }
    expect(r.evicted).toBeGreaterThan(0);
    expect(r.size + r.evicted).toBe(20_000);
    // What is kept is the newest run of events, without a gap.
    const kept = r.toArray().map((e) => e.seq);
    expect(kept[kept.length - 1]).toBe(20_000);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 20_000 - kept.length + 1 + i));
    expect(r.since(r.firstSeq! - 2)).toBeUndefined();
    expect(r.since(r.firstSeq! - 1)?.length).toBe(r.size);
  });

  it('grows its buffer in order after evictions have moved its start (large events, then many small ones)', () => {
    const r = new EventRing({ maxBytes: 200_000 });
    let seq = 0;
    for (let i = 0; i < 300; i++) r.push(ev(++seq, 'x'.repeat(2000)));
    expect(r.evicted).toBeGreaterThan(0);
    // Small events until the buffer has just grown past its first 1,024 slots, its start mid-buffer.
    while (r.size <= 1030 && seq < 10_000) r.push(ev(++seq));
    expect(r.size).toBeGreaterThan(1024);
    const kept = r.toArray().map((e) => e.seq);
    expect(kept).toEqual(Array.from({ length: r.size }, (_, i) => seq - r.size + 1 + i));
    expect(r.since(seq - 10)?.map((e) => e.seq)).toEqual(kept.slice(-10));
  });

  it('keeps the newest event even when it alone is over the budget', () => {
    const r = new EventRing({ maxBytes: 100 });
    r.push(ev(1));
    const big = ev(2, 'x'.repeat(1000));
    r.push(big);
    expect(r.toArray()).toEqual([big]);
    r.push(ev(3));
    expect(r.toArray().map((e) => e.seq)).toEqual([3]);
    expect(r.bytes).toBe(estimateEventBytes(ev(3)));
  });

  it('refuses a budget that is not a positive number of bytes', () => {
    expect(() => new EventRing({ maxBytes: 0 })).toThrow(/ringBytes .* must be a positive number of bytes/);
    expect(() => new EventRing({ maxBytes: Number.NaN })).toThrow(/ringBytes/);
  });

  it('starts empty again after clear', () => {
    const r = new EventRing({ maxBytes: 4096 });
    for (let i = 1; i <= 500; i++) r.push(ev(i));
    r.clear();
    expect([r.size, r.bytes, r.evicted, r.firstSeq]).toEqual([0, 0, 0, undefined]);
    r.push(ev(501));
    expect(r.toArray().map((e) => e.seq)).toEqual([501]);
  });
});

describe('event size estimate', () => {
  it('grows with the strings and fields an event holds', () => {
    const small = estimateEventBytes(ev(1));
    expect(small).toBeGreaterThan(0);
    expect(estimateEventBytes(ev(1, `k1${'x'.repeat(100)}`))).toBe(small + 100);
    expect(estimateEventBytes({ ...ev(1), extra: { a: 'b' } })).toBeGreaterThan(small + 1);
  });

  it('measures one event of a kind in sixteen and counts the others at their kind mean', () => {
    const sizer = new EventSizer();
    const a = ev(1);
    const long = ev(2, 'x'.repeat(500));
    expect(sizer.bytes(a)).toBe(estimateEventBytes(a));
    // The next fifteen of the kind are not measured: a long one among them is counted at the mean.
    expect(sizer.bytes(long)).toBe(estimateEventBytes(a));
    for (let i = 0; i < 14; i++) sizer.bytes(a);
    // The sixteenth is measured, and moves the mean toward it.
    expect(sizer.bytes(long)).toBe(estimateEventBytes(long));
    const mean = sizer.bytes(a);
    expect(mean).toBeGreaterThan(estimateEventBytes(a));
    expect(mean).toBeLessThan(estimateEventBytes(long));
  });
});
