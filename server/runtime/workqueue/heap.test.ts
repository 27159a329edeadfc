// The indexed heap against a sorted array, under random pushes, pops, removals and in-place re-keying.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Heap, type HeapEntry } from './heap';

interface Node extends HeapEntry {
  id: number;
  value: number;
}

type Op =
  | { op: 'push'; value: number }
  | { op: 'pop' }
  | { op: 'remove'; pick: number }
  | { op: 'rekey'; pick: number; value: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('push' as const), value: fc.integer({ min: 0, max: 20 }) }),
  fc.constant({ op: 'pop' as const }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('rekey' as const), pick: fc.nat(), value: fc.integer({ min: 0, max: 20 }) }),
);

const less = (a: Node, b: Node): boolean => (a.value !== b.value ? a.value < b.value : a.id < b.id);

describe('Heap', () => {
  it('always pops the least entry and tracks membership through remove and fix', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const heap = new Heap<Node>(less);
        let live: Node[] = [];
        let id = 0;
        for (const o of ops) {
          if (o.op === 'push') {
            const n = { id: id++, value: o.value, heapIndex: -1 };
            heap.push(n);
            live.push(n);
          } else if (o.op === 'pop') {
            const expected = [...live].sort((a, b) => (less(a, b) ? -1 : 1))[0];
            const got = heap.pop();
            expect(got).toBe(expected);
            if (got) {
              expect(got.heapIndex).toBe(-1);
              live = live.filter((n) => n !== got);
            }
          } else if (live.length > 0) {
            const n = live[o.pick % live.length] as Node;
            if (o.op === 'remove') {
              expect(heap.remove(n)).toBe(true);
              expect(heap.remove(n)).toBe(false);
              live = live.filter((x) => x !== n);
            } else {
              n.value = o.value;
              heap.fix(n);
            }
          }
          expect(heap.size).toBe(live.length);
          for (const n of live) expect(heap.has(n)).toBe(true);
        }
        const drained: Node[] = [];
        for (let n = heap.pop(); n; n = heap.pop()) drained.push(n);
        expect(drained).toEqual([...live].sort((a, b) => (less(a, b) ? -1 : 1)));
      }),
      { numRuns: 300 },
    );
  });
});
