// Ports client-go tools/cache/retry_with_deadline.go: retry a class of errors for a bounded time.
import type { Clock } from '../util/clock';

export class RetryWithDeadline {
  private firstErrorTime = 0;
  private lastErrorTime = 0;

  constructor(
    private readonly maxRetryDurationMs: number,
    private readonly resetDurationMs: number,
    private readonly isRetryable: (err: unknown) => boolean,
    private readonly clock: Clock,
  ) {}

  /** Records the outcome of an attempt (undefined = success, ignored). */
  after(err: unknown): void {
    if (err === undefined || !this.isRetryable(err)) return;
    const now = this.clock.now();
    if (now - this.lastErrorTime >= this.resetDurationMs) this.reset();
    if (this.firstErrorTime === 0) this.firstErrorTime = now;
    this.lastErrorTime = now;
  }

  shouldRetry(): boolean {
    if (this.maxRetryDurationMs <= 0) return false;
    if (this.clock.now() - this.firstErrorTime <= this.maxRetryDurationMs) return true;
    this.reset();
    return false;
  }

  private reset(): void {
    this.firstErrorTime = 0;
    this.lastErrorTime = 0;
  }
}
