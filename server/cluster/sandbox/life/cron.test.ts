// Cron schedules as the CronJob controller reads them (robfig/cron standard parser cases).
import { describe, expect, it } from 'vitest';
import { nextAfter, parseCron } from './cron';

const at = (iso: string): number => Date.parse(iso);
const next = (schedule: string, after: string): string =>
  new Date(nextAfter(parseCron(schedule), at(after)) ?? NaN).toISOString();

describe('cron schedules', () => {
  it('finds the next minute for steps, ranges, lists and names', () => {
    expect(next('*/5 * * * *', '2026-01-01T00:03:10Z')).toBe('2026-01-01T00:05:00.000Z');
    expect(next('*/5 * * * *', '2026-01-01T00:05:00Z')).toBe('2026-01-01T00:10:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-01-01T10:00:00Z')).toBe('2026-01-01T13:00:00.000Z');
    expect(next('15,45 * * * *', '2026-01-01T00:20:00Z')).toBe('2026-01-01T00:45:00.000Z');
    expect(next('0 0 1 jan *', '2026-03-01T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('30 6 * * mon-fri', '2026-01-03T07:00:00Z')).toBe('2026-01-05T06:30:00.000Z'); // Sat → Mon
    expect(next('0 0 * * 7', '2026-01-01T00:00:00Z')).toBe('2026-01-04T00:00:00.000Z'); // 7 is Sunday
    expect(next('@hourly', '2026-01-01T00:00:00Z')).toBe('2026-01-01T01:00:00.000Z');
  });

  it('matches either day field when both are restricted', () => {
    // The 13th, or any Friday.
    expect(next('0 0 13 * 5', '2026-01-01T00:00:00Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(next('0 0 13 * 5', '2026-01-10T00:00:00Z')).toBe('2026-01-13T00:00:00.000Z');
  });

  it('refuses schedules that are not five valid fields', () => {
    expect(() => parseCron('* * * *')).toThrow(/expected exactly 5 fields/);
    expect(() => parseCron('61 * * * *')).toThrow(/invalid minute "61"/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/invalid step/);
  });
});
