// Inspect answers are built synchronously and can be large (thousands of events serialised), so a burst of
// requests from many connections (20 × 100 kept /healthz unanswered for ~80 s) is served one per turn of the
// event loop, letting HTTP and socket I/O in between, and requests past the process-wide budget are refused at
// once (cheaply) instead of queued.
import type { ProcessBudgets } from './budgets';
import { refuse, type BudgetRefusal } from './budgets';

export class InspectQueue {
  private readonly waiting: (() => void)[] = [];
  private draining = false;

  constructor(private readonly budgets: Pick<ProcessBudgets, 'inspects'>) {}

  /** Queues job, or returns the refusal when the budget of waiting inspects is spent. */
  submit(job: () => void): BudgetRefusal | undefined {
    const size = this.budgets.inspects;
    if (this.waiting.length >= size) {
      return refuse(
        'inspect',
        'inspects',
        size,
        `${this.waiting.length} inspect requests from all viewers are waiting to be answered`,
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
    try {
      this.waiting.shift()?.();
    } finally {
      if (this.waiting.length > 0) setImmediate(() => this.drain());
      else this.draining = false;
    }
  }
}
