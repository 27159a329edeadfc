// Ports the pluggable Queue of client-go util/workqueue/queue.go (Touch/Push/Len/Pop) and its default, a FIFO.

/** The ordered store behind a work queue; the queue alone decides what goes in (no duplicates). */
export interface Queue<T> {
  /** Told when an item already queued is added again; the FIFO ignores it, other orders may reposition. */
  touch(item: T): void;
  push(item: T): void;
  len(): number;
  /** Only called when len() > 0. */
  pop(): T;
}

/** A FIFO that advances a head index and compacts now and then, so pops are O(1) amortised. */
class FifoQueue<T> implements Queue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  touch(): void {}

  push(item: T): void {
    this.items.push(item);
  }

  len(): number {
    return this.items.length - this.head;
  }

  pop(): T {
    const item = this.items[this.head] as T;
    // Drop the reference so a popped item can be garbage collected while the slot waits for compaction.
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export function defaultQueue<T>(): Queue<T> {
  return new FifoQueue<T>();
}
