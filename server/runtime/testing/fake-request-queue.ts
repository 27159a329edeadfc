// A controllable queue of reconcile requests for handler and controller tests (controller-runtime's
// controller_test uses a counting fake in the same way): it records every call, keeps a FIFO with
// de-duplication, and can pretend to be the priority queue.
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { requestKey, type Request } from '../reconcile/reconcile';
import type { AddOpts, GetResult, PriorityGetResult } from '../workqueue/interfaces';

export interface FakeQueueCall {
  op: 'add' | 'addAfter' | 'addRateLimited' | 'addWithOpts' | 'forget' | 'done';
  key: string;
  cause?: EnqueueCause;
  delayMs?: number;
  opts?: AddOpts;
}

export class FakeRequestQueue {
  readonly calls: FakeQueueCall[] = [];
  /** add() minus forget(), as upstream's fake counts "Trying". */
  trying = 0;
  private readonly items: { req: Request; priority: number; causes: EnqueueCause[] }[] = [];
  private readonly processing = new Set<string>();
  private readonly requeues = new Map<string, number>();
  private waiters: (() => void)[] = [];
  private shutdown = false;
  /** Keys handed out by get(), in order. */
  readonly gotten: string[] = [];

  /** Present only when pretending to be the priority queue (handlers check for it). */
  addWithOpts?: (opts: AddOpts, ...items: Request[]) => void;

  constructor(private readonly opts: { priority?: boolean; requeueDelayed?: boolean } = {}) {
    if (opts.priority) this.addWithOpts = (o, ...items) => items.forEach((req) => this.addWithOptsImpl(o, req));
  }

  count(op: FakeQueueCall['op']): number {
    return this.calls.filter((c) => c.op === op).length;
  }

  private push(req: Request, cause: EnqueueCause | undefined, priority = 0): void {
    if (this.shutdown) return;
    const key = requestKey(req);
    const existing = this.items.find((i) => requestKey(i.req) === key);
    if (existing) {
      if (cause) existing.causes.push(cause);
      existing.priority = Math.max(existing.priority, priority);
    } else {
      this.items.push({ req, priority, causes: cause ? [cause] : [] });
    }
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  add(req: Request, cause?: EnqueueCause): void {
    this.trying++;
    this.calls.push({ op: 'add', key: requestKey(req), cause });
    this.push(req, cause);
  }

  addAfter(req: Request, delayMs: number, cause?: EnqueueCause): void {
    this.calls.push({ op: 'addAfter', key: requestKey(req), cause, delayMs });
    if (this.opts.requeueDelayed !== false) this.push(req, cause);
  }

  addRateLimited(req: Request, cause?: EnqueueCause): void {
    const key = requestKey(req);
    this.requeues.set(key, (this.requeues.get(key) ?? 0) + 1);
    this.calls.push({ op: 'addRateLimited', key, cause });
    if (this.opts.requeueDelayed !== false) this.push(req, cause);
  }

  private addWithOptsImpl(opts: AddOpts, req: Request): void {
    const cause = opts.cause;
    const key = requestKey(req);
    if (opts.ratelimited) this.requeues.set(key, (this.requeues.get(key) ?? 0) + 1);
    this.calls.push({ op: 'addWithOpts', key, cause, opts });
    if (!opts.ratelimited && !opts.after) this.trying++;
    if ((!opts.ratelimited && !opts.after) || this.opts.requeueDelayed !== false) {
      this.push(req, cause, opts.priority ?? 0);
    }
  }

  forget(req: Request): void {
    this.trying--;
    this.requeues.delete(requestKey(req));
    this.calls.push({ op: 'forget', key: requestKey(req) });
  }

  numRequeues(req: Request): number {
    return this.requeues.get(requestKey(req)) ?? 0;
  }

  len(): number {
    return this.items.length;
  }

  /** Queued requests in the order get() would return them. */
  queued(): Request[] {
    return this.ordered().map((i) => i.req);
  }

  private ordered(): FakeRequestQueue['items'] {
    return [...this.items].sort((a, b) => b.priority - a.priority);
  }

  async getWithPriority(): Promise<PriorityGetResult<Request>> {
    for (;;) {
      if (this.shutdown) return { shutdown: true, priority: 0 };
      const next = this.ordered().find((i) => !this.processing.has(requestKey(i.req)));
      if (next) {
        this.items.splice(this.items.indexOf(next), 1);
        const key = requestKey(next.req);
        this.processing.add(key);
        this.gotten.push(key);
        return { shutdown: false, item: next.req, causes: next.causes, priority: next.priority };
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  async get(): Promise<GetResult<Request>> {
    const r = await this.getWithPriority();
    return r.shutdown ? { shutdown: true } : { shutdown: false, item: r.item, causes: r.causes };
  }

  done(req: Request): void {
    this.calls.push({ op: 'done', key: requestKey(req) });
    this.processing.delete(requestKey(req));
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  shutDown(): void {
    this.shutdown = true;
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
  }

  shuttingDown(): boolean {
    return this.shutdown;
  }
}
