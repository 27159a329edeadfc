import { describe, expect, it } from 'vitest';
import { fmtMs, fmtMsCountdown } from './format-ms';

describe('fmtMs', () => {
  it('says "<1ms" when both stamps fall in the same millisecond, never "0µs"', () => {
    expect(fmtMs(0)).toBe('<1ms');
    expect(fmtMs(-2)).toBe('<1ms');
  });

  it('shows whole milliseconds below 10 ms and defers to fmtDuration above', () => {
    expect(fmtMs(1)).toBe('1ms');
    expect(fmtMs(6)).toBe('6ms');
    expect(fmtMs(13)).toBe('13ms');
    expect(fmtMs(1250)).toBe('1.25s');
    expect(fmtMs(undefined)).toBe('–');
  });

  it('counts down at millisecond resolution', () => {
    expect(fmtMsCountdown(1_006, 1_000)).toBe('in 6ms');
    expect(fmtMsCountdown(5_200, 1_000)).toBe('in 4.20s');
    expect(fmtMsCountdown(1_000, 1_000)).toBe('due');
    expect(fmtMsCountdown(undefined, 1_000)).toBe('–');
  });
});
