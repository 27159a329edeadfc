// The queue a controller runs on, in words: its name, and what a failed key goes through, from the
// rate-limit table (shared/protocol/rate-limits.ts). Learn, the Controller header and the trace's backoff
// card say the same thing, chosen by the queue kind as the runtime reported it, and claim nothing when that
// is not known.
import type { ControllerQueueKind } from '../../shared/protocol/events';
import type { RateLimiterFacts } from '../../shared/protocol/rate-limits';
import { DEFAULT_RATE_LIMITERS } from '../../shared/protocol/rate-limits';

const QUEUE_NAMES: Record<ControllerQueueKind, string> = {
  priority: 'priority queue',
  rateLimiting: 'rate-limiting queue',
  custom: 'custom queue (NewQueue)',
};

/** "priority queue", or "queue not reported" for a producer that does not say. */
export function queueLabel(kind: ControllerQueueKind | undefined): string {
  return kind ? QUEUE_NAMES[kind] : 'queue not reported';
}

export function LimiterSentence({ limiter }: { limiter: RateLimiterFacts | undefined }) {
  if (limiter) {
    return (
      <span data-testid="limiter-sentence">
        Its queue’s rate limiter is <code>{limiter.name}</code>: {limiter.summary}.
      </span>
    );
  }
  const { priority, rateLimiting } = DEFAULT_RATE_LIMITERS;
  return (
    <span data-testid="limiter-sentence">
      Which rate limiter this controller’s queue has was not reported (a custom queue or limiter, or a producer that
      does not say). The defaults: on the priority queue, {priority.summary}; on the classic rate-limiting queue,{' '}
      {rateLimiting.summary}.
    </span>
  );
}
