import { describe, expect, it, vi } from 'vitest';
import { createView } from '../../shared/protocol/view';
import { fixtureSession } from '../fixtures/fixture-view';
import { RuntimeStore } from './runtime-store';

describe('RuntimeStore', () => {
  it('applies batches with the shared reducer and ends where one big reduce ends', () => {
    const { view, events } = fixtureSession(5000);
    const store = new RuntimeStore({ now: () => 0 });
    for (let i = 0; i < events.length; i += 97) store.applyBatch(events.slice(i, i + 97));
    expect(store.getState().view.lastSeq).toBe(view.lastSeq);
    expect(store.getState().view.controllers['flaky']?.totalReconciles).toBe(
      view.controllers['flaky']?.totalReconciles,
    );
  });

  it('skips an overlapping batch after a resume without double counting', () => {
    const { events } = fixtureSession(5000);
    const store = new RuntimeStore();
    store.applyBatch(events.slice(0, 200));
    const before = store.getState().view.eventCount;
    store.applyBatch(events.slice(100, 200));
    expect(store.getState().view.eventCount).toBe(before);
  });

  it('notifies once per change and replaces the state object', () => {
    const store = new RuntimeStore();
    let calls = 0;
    store.subscribe(() => calls++);
    const s0 = store.getState();
    store.applyBatch(fixtureSession(5000).events.slice(0, 10));
    expect(calls).toBe(1);
    expect(store.getState()).not.toBe(s0);
    store.applyBatch([]);
    expect(calls).toBe(1);
  });

  it('freezes the displayed view while batches keep applying underneath', () => {
    const { events } = fixtureSession(5000);
    const store = new RuntimeStore();
    store.applyBatch(events.slice(0, 50));
    store.setFrozen(true);
    store.applyBatch(events.slice(50, 100));
    expect(store.getState().view.lastSeq).toBe(50);
    expect(store.liveView.lastSeq).toBe(100);
    store.setFrozen(false);
    expect(store.getState().view.lastSeq).toBe(100);
  });

  it('replaces the view on a snapshot and counts snapshots', () => {
    const store = new RuntimeStore();
    store.applyBatch(fixtureSession(5000).events.slice(0, 50));
    store.setSnapshot(createView());
    expect(store.getState().view.lastSeq).toBe(0);
    expect(store.getState().snapshots).toBe(1);
  });

  it('reports the event rate over the last five seconds of wall time', () => {
    let now = 0;
    const store = new RuntimeStore({ now: () => now });
    const { events } = fixtureSession(5000);
    store.applyBatch(events.slice(0, 100));
    now = 1000;
    store.applyBatch(events.slice(100, 200));
    expect(store.getState().eventsPerSecond).toBe(40);
    now = 7000;
    store.applyBatch(events.slice(200, 210));
    expect(store.getState().eventsPerSecond).toBe(2);
  });

  it('coalesces a busy stream into one render per interval', () => {
    vi.useFakeTimers();
    try {
      const store = new RuntimeStore({ publishEveryMs: 250 });
      let calls = 0;
      store.subscribe(() => calls++);
      const { events } = fixtureSession(5000);
      store.applyBatch(events.slice(0, 50));
      store.applyBatch(events.slice(50, 100));
      expect(calls).toBe(0);
      vi.advanceTimersByTime(250);
      expect(calls).toBe(1);
      expect(store.getState().view.lastSeq).toBe(100);
      store.setStatus({ state: 'live' });
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
