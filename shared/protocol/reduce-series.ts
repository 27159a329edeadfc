// Time-series rings for the charts: fixed-width buckets keyed by event time, gaps filled with empty points
// (gauges carried over) so a chart's x axis is honest about quiet periods.
import type { Draft } from './reduce-draft';

interface Point {
  t: number;
}

/**
 * Returns the writable point for the bucket holding ts in owner[field], appending (and gap-filling) as
 * needed. `blank(t, prev, owner)` builds an empty point that carries prev's gauges (or the owner's when there
 * is no prev). Events older than the newest bucket land in the newest bucket: late stamps must not rewrite
 * history the charts already drew. `blank` gets the owner as an argument so callers can pass one shared
 * function instead of a closure allocated on every event.
 */
export function seriesPoint<O extends object, K extends keyof O, P extends Point>(
  d: Draft,
  owner: O,
  field: K,
  ts: number,
  blank: (t: number, prev: P | undefined, owner: O) => P,
): P {
  const { seriesPoints: cap, seriesBucketMs: width } = d.view.limits;
  const series = d.ring(owner, field, cap) as unknown as P[];
  const t = Math.floor(ts / width) * width;
  const last = series[series.length - 1];
  if (last && last.t >= t) return ownLast(d, series);
  if (last) {
    const gap = Math.min((t - last.t) / width - 1, cap);
    let start = t - gap * width;
    for (let i = 0; i < gap; i++, start += width) series.push(d.made(blank(start, last, owner)));
  }
  series.push(d.made(blank(t, last, owner)));
  return series[series.length - 1] as P;
}

function ownLast<P extends object>(d: Draft, series: P[]): P {
  const i = series.length - 1;
  const p = d.own(series[i] as P);
  series[i] = p;
  return p;
}

/** Sum of field over the points whose bucket starts within windowMs before now, per second. */
export function ratePerSecond<P extends Point>(
  series: readonly P[],
  field: keyof P,
  now: number,
  windowMs: number,
): number {
  let sum = 0;
  for (let i = series.length - 1; i >= 0; i--) {
    const p = series[i] as P;
    if (p.t <= now - windowMs) break;
    sum += p[field] as number;
  }
  return Math.round((sum / (windowMs / 1000)) * 100) / 100;
}
