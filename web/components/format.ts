// Formatting shared by every panel: numbers, durations, times and rates in the compact forms a dense
// dashboard needs. Pure functions, so builders and tests can use them without React.

// One formatter for every count: toLocaleString builds a new one per call, which a panel full of numbers
// re-rendering under a busy stream pays thousands of times a second.
const GROUPED = new Intl.NumberFormat('en-US');

/** 1234 → "1,234" (the value as toLocaleString('en-US') writes it, from one shared formatter). */
export function fmtGrouped(n: number): string {
  return GROUPED.format(n);
}

/** 1234 → "1,234"; 12345678 → "12.3M". */
export function fmtCount(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  const a = Math.abs(n);
  if (a >= 10_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (a >= 100_000) return `${(n / 1000).toFixed(0)}k`;
  return fmtGrouped(Math.round(n));
}

/** A rate per second with a precision that suits its size. */
export function fmtRate(perSecond: number | undefined): string {
  if (perSecond === undefined || !Number.isFinite(perSecond)) return '–';
  if (perSecond === 0) return '0/s';
  if (perSecond < 0.1) return `${perSecond.toFixed(2)}/s`;
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`;
  return `${fmtCount(perSecond)}/s`;
}

/**
 * Milliseconds as "<1ms", "6ms", "12.4ms", "1.25s", "3m 05s", "2h 10m". Every duration the dashboard shows is a
 * difference of millisecond clock readings, so nothing below 1 ms is claimed, and whole values stay whole.
 */
export function fmtDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 0) ms = 0;
  if (ms < 1) return '<1ms';
  if (ms < 10) return Number.isInteger(ms) ? `${ms}ms` : `${ms.toFixed(1)}ms`;
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Seconds for histogram bucket labels: 0.005 → "5ms", 2.5 → "2.5s". */
export function fmtBucket(seconds: number): string {
  if (!Number.isFinite(seconds)) return '+Inf';
  return seconds < 1 ? `${Math.round(seconds * 1000)}ms` : `${seconds}s`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Wall-clock time "12:03:41" (local time). */
export function fmtClock(ts: number | undefined): string {
  if (!ts) return '–';
  const d = new Date(ts);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** Wall-clock time with milliseconds "12:03:41.207", for event ordering. */
export function fmtClockMs(ts: number | undefined): string {
  if (!ts) return '–';
  return `${fmtClock(ts)}.${String(new Date(ts).getMilliseconds()).padStart(3, '0')}`;
}

/** How long ago, relative to now: "4s ago", "3m 05s ago". */
export function fmtAgo(ts: number | undefined, now: number): string {
  if (!ts) return '–';
  const d = now - ts;
  if (d < 1000) return 'just now';
  return `${fmtDuration(d)} ago`;
}

/** Time left until ts: "in 4.20s"; "due" once passed. */
export function fmtCountdown(ts: number | undefined, now: number): string {
  if (!ts) return '–';
  const d = ts - now;
  if (d <= 0) return 'due';
  return `in ${fmtDuration(d)}`;
}

export function fmtPercent(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '–';
  return `${Math.round(ratio * 100)}%`;
}
