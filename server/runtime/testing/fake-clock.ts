// A clock that moves only when told (k8s.io/utils/clock/testing.FakeClock).
import { sleepWith, type Clock, type TimerHandle } from '../util/clock';

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const t: PendingTimer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(t);
    return {
      cancel: () => {
        t.cancelled = true;
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** Timers not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward synchronously, firing due timers in time order. */
  step(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.time = Math.max(this.time, next.at);
      next.cancelled = true;
      next.fn();
    }
    this.time = target;
    this.timers = this.timers.filter((t) => !t.cancelled);
  }

  /**
   * Moves time forward, letting promise continuations run between timers, so async loops that
   * sleep on this clock make progress as they would in real time.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.time = Math.max(this.time, next.at);
      next.cancelled = true;
      next.fn();
      await flushMicrotasks();
    }
    this.time = target;
    this.timers = this.timers.filter((t) => !t.cancelled);
    await flushMicrotasks();
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers) {
      if (t.cancelled || t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** Lets queued promise callbacks run; a few macrotask turns cover chains of awaits. */
export async function flushMicrotasks(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}
