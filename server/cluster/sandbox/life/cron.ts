// Standard 5-field cron schedules (minute hour day-of-month month day-of-week), as the CronJob
// controller reads spec.schedule (robfig/cron's standard parser): `*`, numbers, ranges `a-b`, steps
// `*/n` and `a-b/n`, lists, month and weekday names, and the @yearly/@monthly/@weekly/@daily/@hourly
// macros. Times are UTC (spec.timeZone is not applied).

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const NAMES: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  sun: 0,
  mon: 1,
  tue: 2,
  wed: 3,
  thu: 4,
  fri: 5,
  sat: 6,
};

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Day-of-month and day-of-week both restricted: either may match (cron's rule). */
  eitherDay: boolean;
}

function field(text: string, min: number, max: number, what: string): Set<number> {
  const out = new Set<number>();
  const value = (s: string): number => {
    const n = NAMES[s.toLowerCase()] ?? (/^\d+$/.test(s) ? Number(s) : NaN);
    if (Number.isNaN(n) || n < min || n > max) throw new Error(`invalid ${what} "${s}" in cron schedule`);
    return n;
  };
  for (const part of text.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`invalid step "${stepText ?? ''}" in cron schedule`);
    let [lo, hi] = [min, max];
    if (range !== '*' && range !== '?') {
      const [a = '', b] = range.split('-');
      lo = value(a);
      hi = b === undefined ? (stepText === undefined ? lo : max) : value(b);
    }
    for (let n = lo; n <= hi; n += step) out.add(what === 'day of week' && n === 7 ? 0 : n);
  }
  return out;
}

export function parseCron(schedule: string): CronSchedule {
  const text = MACROS[schedule.trim()] ?? schedule.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new Error(`expected exactly 5 fields, found ${parts.length}: ${schedule}`);
  const [m, h, dom, mon, dow] = parts as [string, string, string, string, string];
  return {
    minutes: field(m, 0, 59, 'minute'),
    hours: field(h, 0, 23, 'hour'),
    days: field(dom, 1, 31, 'day of month'),
    months: field(mon, 1, 12, 'month'),
    weekdays: field(dow, 0, 7, 'day of week'),
    eitherDay: !/^[*?]/.test(dom) && !/^[*?]/.test(dow),
  };
}

function matches(s: CronSchedule, d: Date): boolean {
  if (!s.minutes.has(d.getUTCMinutes()) || !s.hours.has(d.getUTCHours()) || !s.months.has(d.getUTCMonth() + 1))
    return false;
  const dom = s.days.has(d.getUTCDate());
  const dow = s.weekdays.has(d.getUTCDay());
  return s.eitherDay ? dom || dow : dom && dow;
}

/** The first scheduled minute strictly after `afterMs` (searches up to about five years ahead). */
export function nextAfter(s: CronSchedule, afterMs: number): number | undefined {
  let t = Math.floor(afterMs / 60_000) * 60_000 + 60_000;
  for (let i = 0; i < 5 * 366 * 24 * 60; i++, t += 60_000) if (matches(s, new Date(t))) return t;
  return undefined;
}
