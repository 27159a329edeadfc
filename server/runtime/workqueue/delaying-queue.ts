// Ports client-go util/workqueue/delaying_queue.go: addAfter holds an item in a min-heap by ready time and adds
// it when the time comes. Go runs a goroutine woken by a channel, a timer and a 10s heartbeat; here one timer on
// the injected Clock is kept armed for the earliest entry, which is all the heartbeat existed to guarantee.
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import type { TimerHandle } from '../util/clock';
import { Heap, type HeapEntry } from './heap';
import type { TypedDelayingInterface } from './interfaces';
import { UNKNOWN_CAUSE, WorkQueue, type QueueOptions } from './queue';

export type DelayingQueueOptions<T> = QueueOptions<T>;

interface WaitFor<T> extends HeapEntry {
  item: T;
  key: string;
  readyAt: number;
  /** Insertion order, so entries ready at the same instant come out as they went in. */
  seq: number;
  /** Every cause of the addAfter calls this entry absorbed; empty when causes are not tracked. */
  causes: EnqueueCause[];
}

const lessWaitFor = <T>(a: WaitFor<T>, b: WaitFor<T>): boolean =>
  a.readyAt !== b.readyAt ? a.readyAt < b.readyAt : a.seq < b.seq;

/** The delaying queue (client-go delayingType). */
export class DelayingQueue<T> extends WorkQueue<T> implements TypedDelayingInterface<T> {
  private readonly waiting = new Heap<WaitFor<T>>(lessWaitFor);
  private readonly waitingByKey = new Map<string, WaitFor<T>>();
  private seq = 0;
  private timer?: TimerHandle;
  private timerAt = Infinity;

  constructor(opts: DelayingQueueOptions<T> = {}) {
    super(opts);
  }

  addAfter(item: T, delayMs: number, cause?: EnqueueCause): void {
    this.addAfterWithRequeues(item, delayMs, cause, undefined);
  }

  /** addAfter, with the limiter's requeue count for the probe event when the delay came from a rate limiter. */
  protected addAfterWithRequeues(
    item: T,
    delayMs: number,
    cause: EnqueueCause | undefined,
    requeues: number | undefined,
  ): void {
    if (this.shuttingDown()) return;
    // client-go counts every call as a retry, even one that adds at once.
    if (this.metricsEnabled) this.metrics.retry();
    if (delayMs <= 0) {
      this.add(item, cause);
      return;
    }
    const key = this.keyOf(item);
    const readyAt = this.clock.now() + delayMs;
    let entry = this.waitingByKey.get(key);
    if (entry) {
      // A later addAfter never postpones an earlier one.
      if (readyAt < entry.readyAt) {
        entry.readyAt = readyAt;
        this.waiting.fix(entry);
      }
    } else {
      entry = { item, key, readyAt, seq: this.seq++, causes: [], heapIndex: -1 };
      this.waiting.push(entry);
      this.waitingByKey.set(key, entry);
    }
    if (this.trackingCauses()) entry.causes.push(cause ?? UNKNOWN_CAUSE);
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'queue.addAfter',
        queue: this.name,
        key,
        cause: cause ?? UNKNOWN_CAUSE,
        delayMs,
        readyAt: entry.readyAt,
        ...(requeues === undefined ? {} : { requeues }),
        depth: this.depth(),
      });
    }
    this.armTimer();
  }

  protected override waitingCount(): number {
    return this.waiting.size;
  }

  protected override stopped(): void {
    super.stopped();
    // Waiting items are discarded at shutdown; nothing could be added anyway.
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
    while (this.waiting.pop());
    this.waitingByKey.clear();
  }

  /** Keeps exactly one timer, armed for the earliest ready time. */
  private armTimer(): void {
    const next = this.waiting.peek();
    const at = next ? next.readyAt : Infinity;
    if (at === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = at;
    if (next) this.timer = this.clock.setTimer(() => this.fire(), at - this.clock.now());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    for (let next = this.waiting.peek(); next && next.readyAt <= now; next = this.waiting.peek()) {
      this.waiting.pop();
      this.waitingByKey.delete(next.key);
      this.enqueue(next.item, next.causes, true);
    }
    this.armTimer();
  }
}

/** NewTypedDelayingQueueWithConfig. */
export function newTypedDelayingQueueWithConfig<T>(opts: DelayingQueueOptions<T>): DelayingQueue<T> {
  return new DelayingQueue<T>(opts);
}
