// The ring against a model (every event pushed since the last clear, in order) under random pushes of
// random sizes, reads and at most one clear, with random bounds: what it keeps is always the newest run of the
// model, within both bounds, and every read answers as the model says. (Growing past the first 1,024 slots once
// evictions have moved the ring's start is pinned by a case in event-ring.test.ts.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../../shared/protocol/events';
import { EventRing } from './event-ring';

type Op = { push: number } | { since: number; limit: number } | { findLast: number };

/** Ops whose pushed events have keys up to maxKey characters: short keys let the ring grow past 1,024 slots. */
const ops = (maxKey: number): fc.Arbitrary<Op[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 200,
        arbitrary: fc
          .oneof({ weight: 19, arbitrary: fc.nat(maxKey) }, { weight: 1, arbitrary: fc.nat(20_000) })
          .map((keyLength) => ({ push: keyLength })),
      },
      {
        weight: 6,
        arbitrary: fc.record({ since: fc.integer({ min: -2, max: 3000 }), limit: fc.integer({ min: 1, max: 50 }) }),
      },
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 7 }).map((mod) => ({ findLast: mod })) },
    ),
    { maxLength: 2000, size: 'max' },
  );

describe('EventRing against a model', () => {
  it('keeps the newest run of events within its count and byte bounds, and reads as the model says', () => {
    fc.assert(
      fc.property(
        // Bounds small enough to evict by either, large enough that the buffer grows (1,024 slots, then more).
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 200, max: 400_000 }),
        fc.constantFrom(4, 60, 2000).chain(ops),
        fc.option(fc.nat(3000), { nil: undefined }),
        (capacity, maxBytes, script, clearAt) => {
          const ring = new EventRing({ capacity, maxBytes });
          let model: StampedEvent[] = [];
          let seq = 0;
          for (const [i, o] of script.entries()) {
            if (i === clearAt) {
              ring.clear();
              model = [];
            }
            if ('push' in o) {
              seq++;
              const ev: StampedEvent = { kind: 'queue.forget', queue: 'q', key: 'k'.repeat(o.push), seq, ts: seq };
              ring.push(ev);
              model.push(ev);
            } else if ('since' in o) {
              const kept = model.slice(model.length - ring.size);
              const first = kept[0]?.seq;
              const want =
                first === undefined
                  ? o.since >= 0
                    ? []
                    : undefined
                  : o.since < first - 1
                    ? undefined
                    : kept.filter((e) => e.seq > o.since).slice(0, o.limit);
              expect(ring.since(o.since, o.limit)).toEqual(want);
            } else {
              const kept = model.slice(model.length - ring.size);
              const want = kept.filter((e) => e.seq % o.findLast === 0).slice(-5);
              expect(ring.findLast((e) => e.seq % o.findLast === 0, 5)).toEqual(want);
            }
            // Bounds: the count always, the bytes unless the newest event alone is over them.
            expect(ring.size).toBeLessThanOrEqual(Math.min(capacity, model.length));
            if (ring.size > 1) expect(ring.bytes).toBeLessThanOrEqual(maxBytes);
            if (model.length > 0) expect(ring.size).toBeGreaterThanOrEqual(1);
            expect(ring.evicted).toBe(model.length - ring.size);
          }
          // What it keeps is the model's newest run, in order.
          expect(ring.toArray()).toEqual(model.slice(model.length - ring.size));
        },
      ),
      { numRuns: 30 },
    );
  });
});
