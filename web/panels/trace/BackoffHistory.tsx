// Error backoff, visible: every rate-limited requeue of the key with the delay the limiter chose, beside the
// delay controller-runtime's default limiter gives for that requeue count. Read from the view's per-key
// history (the reducer keeps it from the events), so millisecond backoffs are as readable as long ones.
import type { BackoffStep, KeyView } from '../../../shared/protocol/view';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Stat';
import { fmtClockMs } from '../../components/format';
import { fmtMs, fmtMsCountdown } from './format-ms';

const BASE_MS = 5;
const MAX_MS = 1000 * 1000;

/** The default per-item limiter: 5 ms · 2^(n−1) for the n-th requeue in a row, capped at 1000 s. */
export function defaultBackoffMs(requeues: number): number {
  return Math.min(BASE_MS * 2 ** Math.max(0, requeues - 1), MAX_MS);
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

export function BackoffHistory({ k, now }: { k: KeyView; now: number }) {
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
        The default limiter waits <span className="mono">5ms · 2^(n−1)</span> before the n-th requeue in a row, capped
        at <span className="mono">1000s</span> (the legacy queue also takes the longer of that and a shared 10 qps /
        burst 100 bucket); a success makes the queue Forget the key and start again at 5 ms.
        {custom && ' Some delays differ from that formula: this controller sets its own rate limiter.'}
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
