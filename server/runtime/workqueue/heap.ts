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
    e.heapIndex = this.entries.length;
    this.entries.push(e);
    this.up(e.heapIndex);
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
    if (!this.down(e.heapIndex)) this.up(e.heapIndex);
  }

  /** Every entry, in no particular order (for inspection). */
  values(): readonly E[] {
    return this.entries;
  }

  private removeAt(i: number): void {
    const last = this.entries.length - 1;
    const removed = this.entries[i] as E;
    if (i !== last) {
      this.swap(i, last);
      this.entries.pop();
      if (!this.down(i)) this.up(i);
    } else {
      this.entries.pop();
    }
    removed.heapIndex = -1;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.at(i), this.at(parent))) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Sifts down; returns whether the entry moved. */
  private down(start: number): boolean {
    const n = this.entries.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = left;
      const right = left + 1;
      if (right < n && this.less(this.at(right), this.at(left))) child = right;
      if (!this.less(this.at(child), this.at(i))) break;
      this.swap(i, child);
      i = child;
    }
    return i > start;
  }

  private at(i: number): E {
    return this.entries[i] as E;
  }

  private swap(i: number, j: number): void {
    const a = this.at(i);
    const b = this.at(j);
    this.entries[i] = b;
    this.entries[j] = a;
    a.heapIndex = j;
    b.heapIndex = i;
  }
}
