// Work from clients served a slice per turn of the event loop, so HTTP and socket I/O run in between: a burst
// of requests (20 connections × 100 inspects kept /healthz unanswered for ~80 s; 3,000 breakpoint adds in one
// burst stalled it for over half a second) is spread over many turns instead of run in one. Past the budget of
// waiting jobs a request is refused at once (cheaply) instead of queued, so the queue itself is bounded.
import type { BudgetName } from './budgets';
import { refuse, type BudgetRefusal } from './budgets';

export interface TurnQueueOptions {
  /** What a refusal calls one job, e.g. "inspect". */
  what: string;
  budget: BudgetName;
  /** Jobs that may wait at once. */
  size: number;
  /**
   * Time one turn may spend on jobs before yielding. 0: one job per turn (for jobs that may be long
   * themselves, as inspects serialising thousands of events are).
   */
  sliceMs: number;
}

export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private draining = false;

  constructor(private readonly opts: TurnQueueOptions) {}

  /** Queues job, or returns the refusal when the budget of waiting jobs is spent. */
  submit(job: () => void): BudgetRefusal | undefined {
    const { what, budget, size } = this.opts;
    if (this.waiting.length >= size) {
      return refuse(
        what,
        budget,
        size,
        `${this.waiting.length} ${what} requests from all viewers are waiting to be answered`,
        'wait for earlier answers before asking again',
      );
    }
    this.waiting.push(job);
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
    return undefined;
  }

  get length(): number {
    return this.waiting.length;
  }

  private drain(): void {
    const until = performance.now() + this.opts.sliceMs;
    try {
      do this.waiting.shift()?.();
      while (this.waiting.length > 0 && performance.now() < until);
    } finally {
      if (this.waiting.length > 0) setImmediate(() => this.drain());
      else this.draining = false;
    }
  }
}
