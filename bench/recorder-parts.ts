// The Recorder's two largest parts measured alone, on the very events a workload emits: the shared reducer
// (which every browser runs too) and the ring. The probe-cost rows measure the whole Recorder by difference
// against NOOP_PROBE, in a live process where the parts' allocations meet the informer's and the collector
// copies what the Recorder keeps; here the events are captured once and replayed into each part with
// nothing else running. The gap between the two is what the parts cost together in a live process rather
// than what their own code costs. The reducer is timed twice: on a warm heap, and right after a full
// collection (a young generation that has to grow again, as after the collector's work in a live process).
import { EventRing } from '../server/dashboard/recorder/event-ring';
import type { Probe } from '../server/runtime';
import type { RuntimeEvent, StampedEvent } from '../shared/protocol/events';
import { reduce, ReduceSession } from '../shared/protocol/reduce';
import { createView } from '../shared/protocol/view';
import { median, settle, startTimer } from './harness';

/** Stamps events as the Recorder does and keeps them. */
class CapturingProbe implements Probe {
  readonly enabled = true;
  readonly events: StampedEvent[] = [];
  emit(event: RuntimeEvent): void {
    const e = event as StampedEvent;
    e.seq = this.events.length + 1;
    (e as { ts: unknown }).ts = null;
    e.ts = Date.now();
    this.events.push(e);
  }
}

/** The Recorder's default batch: it reduces at most this many pending events at once (maxPending). */
const BATCH = 5000;

function cpuUsPerEvent(events: number, fn: () => void): number {
  const timer = startTimer();
  fn();
  return (timer.stop().cpuMs * 1000) / events;
}

export interface RecorderParts {
  events: number;
  /** reduce() over the events in the Recorder's batches, with its ReduceSession, trusted (µs CPU per event). */
  reducer: number;
  /** The same, each repetition right after a forced full collection. */
  reducerAfterGc: number;
  /** EventRing.push of every event under the default budget (µs CPU per event). */
  ring: number;
}

/** Runs the workload once with a capturing probe, then times each part alone over its events, `reps` times. */
export async function measureRecorderParts(
  run: (probe: Probe) => Promise<unknown>,
  reps: number,
): Promise<RecorderParts> {
  const probe = new CapturingProbe();
  await run(probe);
  const events = probe.events;
  const reducer: number[] = [];
  const reducerAfterGc: number[] = [];
  const ring: number[] = [];
  const reduceAll = (): void => {
    let view = createView();
    const session = new ReduceSession();
    for (let i = 0; i < events.length; i += BATCH) {
      view = reduce(view, events.slice(i, i + BATCH), session, { trusted: true });
    }
  };
  // One warm-up round, so both parts are optimised before they are timed.
  for (let r = 0; r <= reps; r++) {
    await settle();
    const us = cpuUsPerEvent(events.length, reduceAll);
    await settle();
    globalThis.gc?.();
    const afterGc = cpuUsPerEvent(events.length, reduceAll);
    await settle();
    const ringUs = cpuUsPerEvent(events.length, () => {
      const buffer = new EventRing();
      for (const ev of events) buffer.push(ev);
    });
    if (r === 0) continue;
    reducer.push(us);
    reducerAfterGc.push(afterGc);
    ring.push(ringUs);
  }
  return {
    events: events.length,
    reducer: median(reducer),
    reducerAfterGc: median(reducerAfterGc),
    ring: median(ring),
  };
}
