// Durations the trace and workqueue panels show are differences of millisecond timestamps (event stamps,
// Date.now-based reconcile timings): they cannot resolve less than 1 ms, so sub-millisecond values read "<1ms"
// and whole milliseconds stay whole.
import { fmtDuration } from '../../components/format';

/** Whole milliseconds: 0 → "<1ms", 6 → "6ms", 1250 → "1.25s". */
export function fmtMs(ms: number | undefined): string {
  return fmtDuration(ms === undefined || !Number.isFinite(ms) ? ms : Math.round(ms));
}

/** Time left until ts at millisecond resolution: "in 6ms", "in 4.20s"; "due" once reached. */
export function fmtMsCountdown(ts: number | undefined, now: number): string {
  if (ts === undefined || !Number.isFinite(ts)) return '–';
  const d = ts - now;
  return d <= 0 ? 'due' : `in ${fmtMs(d)}`;
}
