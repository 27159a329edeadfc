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

/**
 * A FIFO that advances a head index and compacts now and then, so pops are O(1) amortised. The work queue
 * hands it each item's key too, so taking an item does not have to compute the key again.
 */
export class FifoQueue<T> implements Queue<T> {
  private items: (T | undefined)[] = [];
  private keys: (string | undefined)[] = [];
  private head = 0;
  /** The key pushed with the item pop() last returned; undefined when it was pushed without one. */
  poppedKey: string | undefined;

  touch(): void {}

  push(item: T, key?: string): void {
    this.items.push(item);
    this.keys.push(key);
  }

  len(): number {
    return this.items.length - this.head;
  }

  pop(): T {
    const head = this.head;
    const item = this.items[head] as T;
    this.poppedKey = this.keys[head];
    // Drop the references so a popped item can be garbage collected while the slot waits for compaction.
    this.items[head] = undefined;
    this.keys[head] = undefined;
    this.head = head + 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.keys = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.keys = this.keys.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export function defaultQueue<T>(): Queue<T> {
  return new FifoQueue<T>();
}
