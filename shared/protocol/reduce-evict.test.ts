// Which keys the reducer evicts when a controller exceeds limits.maxKeysPerController: idle keys before
// waiting/ready ones, processing keys last, the least recently seen first, ties in key order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from './events';
import type { QueueDepth } from './events-workqueue';
import { reduce } from './reduce';
import { nthSmallest } from './reduce-evict';
import { EventScript } from './testing/synthetic';
import { createView } from './view';

const depth: QueueDepth = { ready: 0, waiting: 0, processing: 0 };

function add(s: EventScript, key: string): void {
  s.emit({
    kind: 'queue.add',
    queue: 'c',
    key,
    cause: { type: 'event' },
    queued: true,
    dirtyWhileProcessing: false,
    depth,
  });
}

function finish(s: EventScript, key: string): void {
  s.emit({ kind: 'queue.get', queue: 'c', key, waitMs: 0, depth });
  s.emit({ kind: 'queue.done', queue: 'c', key, processingMs: 0, requeued: false, depth });
}

describe('key eviction', () => {
  it('drops idle keys first, oldest first, then ready ones, and keeps the key being added', () => {
    const s = new EventScript();
    // Ten keys; k0..k5 go idle in the order k1, k2, k5, then k3 and k4 at the same instant, k0 last.
    // k6..k9 stay ready.
    for (let i = 0; i < 10; i++) {
      add(s, `k${i}`);
      s.advance(10);
    }
    for (const k of ['k1', 'k2', 'k5']) {
      finish(s, k);
      s.advance(10);
    }
    finish(s, 'k3');
    finish(s, 'k4');
    s.advance(10);
    finish(s, 'k0');
    s.advance(10);
    // Cap 10 → the 11th key evicts down to 9: two victims. Then a 12th (cap 10 again: 10 → 9, one more).
    const view = createView({ maxKeysPerController: 10 });
    const from = s.events.length;
    add(s, 'k10');
    const v1 = reduce(view, s.events);
    expect(Object.keys(v1.controllers.c?.keys ?? {}).sort()).toEqual(
      ['k0', 'k10', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9'].sort(),
    );
    expect(v1.controllers.c?.evictedKeys).toBe(2);
    s.advance(10);
    add(s, 'k11');
    add(s, 'k12');
    const v2 = reduce(v1, s.since(from + 1));
    // Two more victims: k5, then one of k3 and k4, which share a lastTs: the earlier key, k3.
    expect(Object.keys(v2.controllers.c?.keys ?? {}).sort()).toEqual(
      ['k0', 'k10', 'k11', 'k12', 'k4', 'k6', 'k7', 'k8', 'k9'].sort(),
    );
    expect(v2.controllers.c?.keyCount).toBe(Object.keys(v2.controllers.c?.keys ?? {}).length);
    // The same events in one batch give the same view: eviction does not depend on batching.
    expect(reduce(view, s.events)).toEqual(v2);
  });

  it('evicts ready keys, oldest first, once no idle key is left', () => {
    const s = new EventScript();
    for (let i = 0; i < 6; i++) {
      add(s, `r${i}`);
      s.advance(5);
    }
    add(s, 'r0'); // r0 becomes the most recently seen
    s.advance(5);
    add(s, 'new');
    const v = reduce(createView({ maxKeysPerController: 6 }), s.events);
    // 7 keys over a cap of 6: evict down to floor(6 * 0.9) = 5, so the two oldest ready keys go.
    expect(Object.keys(v.controllers.c?.keys ?? {}).sort()).toEqual(['new', 'r0', 'r3', 'r4', 'r5']);
  });

  it('evicts the same keys, leaving them in the same order, whether a batch holds one eviction or many', () => {
    // Within a batch, eviction keeps the record's key order up to date instead of listing it again: keys
    // evicted and added back, and keys that are array indices (objects list those first), must not change
    // which keys go. One event per batch lists the record afresh at every eviction, the reference.
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '0', '7', '12', '007', 'x/1');
    const step = fc.tuple(fc.constantFrom('add', 'add', 'get', 'done'), key, fc.constantFrom(0, 0, 1));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const s = new EventScript();
        for (const [op, k, dt] of steps) {
          s.advance(dt);
          if (op === 'add') add(s, k);
          else if (op === 'get') s.emit({ kind: 'queue.get', queue: 'c', key: k, waitMs: 0, depth });
          else s.emit({ kind: 'queue.done', queue: 'c', key: k, processingMs: 0, requeued: false, depth });
        }
        const view = createView({ maxKeysPerController: 5 });
        const whole = reduce(view, s.events);
        const single = s.events.reduce((v, ev: StampedEvent) => reduce(v, [ev]), view);
        expect(whole).toEqual(single);
        expect(Object.keys(whole.controllers.c?.keys ?? {})).toEqual(Object.keys(single.controllers.c?.keys ?? {}));
      }),
      { numRuns: 300 },
    );
  });

  it("selects the oldest timestamp a sort would put at the eviction's cut", () => {
    const ts = fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.double({ noNaN: true })), { minLength: 1 });
    fc.assert(
      fc.property(ts, fc.nat(), (values, at) => {
        const n = at % values.length;
        const sorted = Float64Array.from(values).sort();
        // === rather than toBe: eviction compares with <, to which -0 and 0 are the same.
        expect(nthSmallest(Float64Array.from(values), n) === sorted[n]).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
