// Ports the min-heap behind client-go util/workqueue/delaying_queue.go (waitForPriorityQueue, which uses
// container/heap) and stands in for the btrees of controller-runtime's priorityqueue. Entries remember their
// own position so an entry can be removed or re-ordered in O(log n) when a duplicate add changes it.

/** Something a Heap can hold; heapIndex is owned by the heap (-1 while outside any heap). */
export interface HeapEntry {
  heapIndex: number;
}

export class Heap<E extends HeapEntry> {
  private readonly entries: E[] = [];

  /** less(a, b) is true when a must come out before b. */
  constructor(private readonly less: (a: E, b: E) => boolean) {}

  get size(): number {
    return this.entries.length;
  }

  peek(): E | undefined {
    return this.entries[0];
  }

  has(e: E): boolean {
    return e.heapIndex >= 0 && this.entries[e.heapIndex] === e;
  }

  push(e: E): void {
    const i = this.entries.length;
    this.entries.push(e);
    this.up(i, e);
  }

  pop(): E | undefined {
    const top = this.entries[0];
    if (top) this.removeAt(0);
    return top;
  }

  /** Removes e if it is in this heap; returns whether it was. */
  remove(e: E): boolean {
    if (!this.has(e)) return false;
    this.removeAt(e.heapIndex);
    return true;
  }

  /** Restores order after e's sort key changed in place. */
  fix(e: E): void {
    if (!this.has(e)) return;
    const i = e.heapIndex;
    if (!this.down(i, e)) this.up(i, e);
  }

  /** Every entry, in no particular order (for inspection). */
  values(): readonly E[] {
    return this.entries;
  }

  private removeAt(i: number): void {
    const entries = this.entries;
    const removed = entries[i] as E;
    const last = entries.pop() as E;
    removed.heapIndex = -1;
    if (last === removed) return;
    // The last entry fills the gap, then settles down or up from there.
    if (!this.down(i, last)) this.up(i, last);
  }

  // Both sifts move a hole instead of swapping: each step writes one entry (and its index), and the moving
  // entry is placed once at the end.

  /** Places e at the hole i or above it. */
  private up(i: number, e: E): void {
    const entries = this.entries;
    const less = this.less;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = entries[parentIndex] as E;
      if (!less(e, parent)) break;
      entries[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    entries[i] = e;
    e.heapIndex = i;
  }

  /** Places e at the hole start or below it; returns whether it went below. */
  private down(start: number, e: E): boolean {
    const entries = this.entries;
    const less = this.less;
    const n = entries.length;
    let i = start;
    for (;;) {
      let childIndex = 2 * i + 1;
      if (childIndex >= n) break;
      let child = entries[childIndex] as E;
      const rightIndex = childIndex + 1;
      if (rightIndex < n) {
        const right = entries[rightIndex] as E;
        if (less(right, child)) {
          childIndex = rightIndex;
          child = right;
        }
      }
      if (!less(child, e)) break;
      entries[i] = child;
      child.heapIndex = i;
      i = childIndex;
    }
    entries[i] = e;
    e.heapIndex = i;
    return i > start;
  }
}
