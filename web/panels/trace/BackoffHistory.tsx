// Error backoff, visible: every rate-limited requeue of the key with the delay the limiter chose, beside the
// delay the default per-key exponential gives for that requeue count. Read from the view's per-key
// history (the reducer keeps it from the events), so millisecond backoffs are as readable as long ones.
import type { RateLimiterFacts } from '../../../shared/protocol/rate-limits';
import { DEFAULT_RATE_LIMITERS, exponentialDelayMs } from '../../../shared/protocol/rate-limits';
import type { BackoffStep, KeyView } from '../../../shared/protocol/view';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Stat';
import { fmtClockMs } from '../../components/format';
import { LimiterSentence } from '../../components/QueueKind';
import { fmtMs, fmtMsCountdown } from './format-ms';

const PER_ITEM = DEFAULT_RATE_LIMITERS.priority.perItem;

/**
 * The per-item part both default limiters share (rate-limits.ts): 5 ms · 2^(n−1) for the n-th requeue in a
 * row, capped at 1000 s.
 */
export function defaultBackoffMs(requeues: number): number {
  return exponentialDelayMs(PER_ITEM, Math.max(0, requeues - 1));
}

export interface BackoffRow extends BackoffStep {
  expectedMs: number;
  /** The delay the limiter chose is the default formula's (the shared token bucket can only add to it). */
  matchesDefault: boolean;
}

export function backoffRows(k: KeyView): BackoffRow[] {
  return (k.backoff ?? []).map((b) => {
    const expectedMs = defaultBackoffMs(b.requeues);
    return { ...b, expectedMs, matchesDefault: Math.abs(b.delayMs - expectedMs) <= 1 };
  });
}

export function BackoffHistory({
  k,
  now,
  limiter,
}: {
  k: KeyView;
  now: number;
  /** The controller's limiter, when its queue kind and limiter are known (rateLimiterOf). */
  limiter: RateLimiterFacts | undefined;
}) {
  const rows = backoffRows(k).reverse();
  const waiting = k.nextRetryAt !== undefined && k.nextRetryAt > now && k.requeues > 0;
  const custom = rows.some((r) => !r.matchesDefault);
  return (
    <Card
      title="Error backoff"
      right={
        waiting ? (
          <Badge tone="warn">
            retry {fmtMsCountdown(k.nextRetryAt, now)} · at {fmtClockMs(k.nextRetryAt)}
          </Badge>
        ) : (
          <span className="dim">{rows.length} rate-limited requeues kept</span>
        )
      }
      testId="backoff-history"
      flush
    >
      <p className="dim" style={{ margin: '8px 10px', fontSize: 12 }}>
        <LimiterSentence limiter={limiter} /> The formula column is the per-key part:{' '}
        <span className="mono">{fmtMs(PER_ITEM.baseDelayMs)} · 2^(n−1)</span> before the n-th requeue in a row, capped
        at <span className="mono">{fmtMs(PER_ITEM.maxDelayMs)}</span>; a success makes the queue Forget the key and
        start again at {fmtMs(PER_ITEM.baseDelayMs)}.
        {custom && ' Some delays differ from the per-key formula: a rate limiter of its own, or the token bucket.'}
        {k.backoffResetAt !== undefined && <> Last forgotten at {fmtClockMs(k.backoffResetAt)}.</>}
      </p>
      <DataTable
        rows={rows}
        empty="No rate-limited requeue of this key yet: it never failed, or never returned Requeue."
        head={
          <>
            <th>at</th>
            <th className="r">n</th>
            <th className="r">waited</th>
            <th className="r">formula</th>
            <th>ready at</th>
            <th>why</th>
          </>
        }
      >
        {(r) => (
          <tr key={r.seq}>
            <td className="num dim">{fmtClockMs(r.ts)}</td>
            <td className="r num">{r.requeues}</td>
            <td className="r num">{fmtMs(r.delayMs)}</td>
            <td className={`r num ${r.matchesDefault ? 'dim' : 'warn'}`}>{fmtMs(r.expectedMs)}</td>
            <td className="num dim">{fmtClockMs(r.readyAt)}</td>
            <td className="mono">
              <span className="trunc" style={{ maxWidth: 360 }} title={r.error}>
                {r.cause === 'requeue' ? 'Result{Requeue: true}' : (r.error ?? 'error')}
              </span>
            </td>
          </tr>
        )}
      </DataTable>
    </Card>
  );
}
