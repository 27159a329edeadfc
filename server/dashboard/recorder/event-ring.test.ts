import { describe, expect, it } from 'vitest';
import { EventRing } from './event-ring';
import type { StampedEvent } from '../../../shared/protocol/events';

const ev = (seq: number): StampedEvent => ({ kind: 'queue.forget', queue: 'q', key: `k${seq}`, seq, ts: seq });

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
});
