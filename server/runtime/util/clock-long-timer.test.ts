// A delay past setTimeout's 32-bit limit (about 24.8 days, e.g. a huge Result.requeueAfterMs) must wait,
// not fire at once: setTimeout treats such a delay as 1 ms, which would turn it into a hot requeue loop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { realClock } from './clock';

afterEach(() => {
  vi.useRealTimers();
});

describe('realClock.setTimer', () => {
  it('waits the whole of a delay over 2^31-1 ms, and can be cancelled in any leg', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    realClock.setTimer(fired, 2 ** 31 + 1000);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();

    const cancelled = vi.fn();
    const t = realClock.setTimer(cancelled, 2 ** 32);
    vi.advanceTimersByTime(2 ** 31);
    t.cancel();
    vi.advanceTimersByTime(2 ** 32);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('still runs short and NaN delays', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    realClock.setTimer(fired, 5);
    realClock.setTimer(fired, Number.NaN);
    vi.advanceTimersByTime(5);
    expect(fired).toHaveBeenCalledTimes(2);
  });
});
