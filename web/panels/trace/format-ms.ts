// Durations the trace and workqueue panels show are differences of millisecond timestamps (event stamps,
// Date.now-based reconcile timings): they cannot resolve less than 1 ms, so the shared fmtDuration's "0µs"
// for two events in the same millisecond, or "6.0ms" for a whole 6 ms, claims a precision nobody measured.
import { fmtDuration } from '../../components/format';

/** Whole milliseconds: 0 → "<1 ms", 6 → "6ms", 1250 → "1.25s" (fmtDuration from 10 ms up). */
export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1) return '<1 ms';
  if (ms < 10) return `${Math.round(ms)}ms`;
  return fmtDuration(ms);
}

/** Time left until ts at millisecond resolution: "in 6ms", "in 4.20s"; "due" once reached. */
export function fmtMsCountdown(ts: number | undefined, now: number): string {
  if (ts === undefined || !Number.isFinite(ts)) return '–';
  const d = ts - now;
  return d <= 0 ? 'due' : `in ${fmtMs(d)}`;
}
