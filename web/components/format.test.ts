import { describe, expect, it } from 'vitest';
import { fmtBucket, fmtCount, fmtCountdown, fmtDuration, fmtRate } from './format';

describe('format', () => {
  it('formats durations across scales', () => {
    expect(fmtDuration(0.25)).toBe('<1ms');
    expect(fmtDuration(0)).toBe('<1ms');
    expect(fmtDuration(6)).toBe('6ms');
    expect(fmtDuration(4.2)).toBe('4.2ms');
    expect(fmtDuration(850)).toBe('850ms');
    expect(fmtDuration(1250)).toBe('1.25s');
    expect(fmtDuration(185_000)).toBe('3m 05s');
    expect(fmtDuration(7_800_000)).toBe('2h 10m');
    expect(fmtDuration(undefined)).toBe('–');
  });

  it('counts down to a retry and says due once passed', () => {
    expect(fmtCountdown(10_000 + 4200, 10_000)).toBe('in 4.20s');
    expect(fmtCountdown(9_000, 10_000)).toBe('due');
  });

  it('formats counts, rates and bucket bounds', () => {
    expect(fmtCount(3112)).toBe('3,112');
    expect(fmtCount(12_345_678)).toBe('12.3M');
    expect(fmtRate(0.05)).toBe('0.05/s');
    expect(fmtRate(4)).toBe('4.0/s');
    expect(fmtBucket(0.005)).toBe('5ms');
    expect(fmtBucket(2.5)).toBe('2.5s');
    expect(fmtBucket(Infinity)).toBe('+Inf');
  });
});
