// Ports the part of golang.org/x/time/rate that client-go's BucketRateLimiter uses: Limiter.Reserve().Delay().
// Reservations are never cancelled, so the balance may go negative and later callers wait for the debt.
import type { Clock } from '../util/clock';

export interface TokenBucketOptions {
  /** Tokens per second; Infinity allows everything. */
  limit: number;
  /** Capacity; the bucket starts full. */
  burst: number;
  clock: Clock;
}

export class TokenBucket {
  private readonly limit: number;
  private burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private last?: number;

  constructor(opts: TokenBucketOptions) {
    this.limit = opts.limit;
    this.burst = opts.burst;
    this.clock = opts.clock;
    this.tokens = opts.burst;
  }

  /** Takes one token now and returns how long (ms) the caller should wait before acting on it. */
  reserveDelayMs(): number {
    if (this.limit === Infinity) return 0;
    if (this.limit <= 0) {
      // A zero limit only ever hands out what the burst allows, then nothing (rate: an infinite delay).
      if (this.burst >= 1) {
        this.burst -= 1;
        return 0;
      }
      return Infinity;
    }
    const now = this.clock.now();
    let tokens = this.tokens;
    if (this.last !== undefined) {
      const last = Math.min(this.last, now);
      tokens = Math.min(this.burst, tokens + ((now - last) / 1000) * this.limit);
    }
    tokens -= 1;
    this.tokens = tokens;
    this.last = now;
    if (tokens >= 0) return 0;
    // time.Duration(float64(time.Second) * seconds): truncated to whole nanoseconds.
    return Math.trunc((-tokens / this.limit) * 1e9) / 1e6;
  }
}
