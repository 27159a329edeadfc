// Ports client-go util/flowcontrol/throttle.go (NewTokenBucketRateLimiter): the client-side QPS/burst limit
// a rest.Config asks for. Time comes from an injected Clock.
import type { Clock } from '../util/clock';
import { realClock } from '../util/clock';

export interface TokenBucketOptions {
  /** Tokens added per second. */
  qps: number;
  /** Bucket size: how many requests may go at once after an idle period. */
  burst: number;
  /** Default realClock. */
  clock?: Clock;
}

export class TokenBucketRateLimiter {
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private last: number;

  constructor(opts: TokenBucketOptions) {
    if (opts.qps <= 0) throw new Error('TokenBucketRateLimiter needs qps > 0');
    this.qps = opts.qps;
    this.burst = Math.max(1, opts.burst);
    this.clock = opts.clock ?? realClock;
    this.tokens = this.burst;
    this.last = this.clock.now();
  }

  /** Takes a token without waiting; false when none is left. */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /**
   * Waits for a token. Tokens are reserved up front (the balance may go negative), so concurrent callers
   * queue behind each other in arrival order, as golang.org/x/time/rate's Wait does.
   */
  async wait(signal?: AbortSignal): Promise<void> {
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    const delayMs = (-this.tokens / this.qps) * 1000;
    try {
      await this.clock.sleep(delayMs, signal);
    } catch (err) {
      this.tokens += 1; // give the reservation back
      throw err;
    }
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }
}
