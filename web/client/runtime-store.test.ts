import { describe, expect, it, vi } from 'vitest';
import type { StampedEvent } from '../../shared/protocol/events';
import { lookup } from '../../shared/protocol/records';
import { reduce } from '../../shared/protocol/reduce';
import { eventsNaming, PROTOTYPE_NAMES } from '../../shared/protocol/testing/prototype-names';
import { createView } from '../../shared/protocol/view';
import type { RuntimeView } from '../../shared/protocol/view';
import { focusController, focusInformer, focusKey } from '../panels/focus';
import { recordedSession } from '../fixtures/recorded-view';
import { RuntimeStore } from './runtime-store';

describe('RuntimeStore', () => {
  it('applies batches with the shared reducer and ends where one big reduce ends', () => {
    const { view, events } = recordedSession();
    const store = new RuntimeStore({ now: () => 0 });
    for (let i = 0; i < events.length; i += 97) store.applyBatch(events.slice(i, i + 97));
    expect(store.getState().view.lastSeq).toBe(view.lastSeq);
    expect(store.getState().view.controllers['flaky']?.totalReconciles).toBe(
      view.controllers['flaky']?.totalReconciles,
    );
  });

  it('skips an overlapping batch after a resume without double counting', () => {
    const { events } = recordedSession();
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
    store.applyBatch(recordedSession().events.slice(0, 10));
    expect(calls).toBe(1);
    expect(store.getState()).not.toBe(s0);
    store.applyBatch([]);
    expect(calls).toBe(1);
  });

  it('freezes the displayed view while batches keep applying underneath', () => {
    const { events } = recordedSession();
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
    store.applyBatch(recordedSession().events.slice(0, 50));
    store.setSnapshot(createView());
    expect(store.getState().view.lastSeq).toBe(0);
    expect(store.getState().snapshots).toBe(1);
  });

  it('reports the event rate over the last five seconds of wall time', () => {
    let now = 0;
    const store = new RuntimeStore({ now: () => now });
    const { events } = recordedSession();
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
      const { events } = recordedSession();
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

describe('RuntimeStore with names of Object.prototype members', () => {
  it('takes a parsed snapshot naming constructor and __proto__ and keeps reducing it', () => {
    const events = PROTOTYPE_NAMES.flatMap((n) => eventsNaming(n, 'ns'));
    const stamped = events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent);
    const server = reduce(createView(), stamped.slice(0, 40));
    const store = new RuntimeStore();
    // What socket.io hands the page: plain parsed JSON.
    store.setSnapshot(JSON.parse(JSON.stringify(server)) as RuntimeView);
    store.setServerStatus(JSON.parse('{"recording":{"paused":false,"evicted":0},"steppers":{},"faults":[]}'));
    store.applyBatch(stamped.slice(40));
    const v = store.getState().view;
    for (const n of PROTOTYPE_NAMES) expect(v.controllers[n]?.keys[`ns/${n}`]?.reconciles).toBe(1);
    expect(v.droppedEvents ?? 0).toBe(0);
    expect(store.getState().serverStatus?.steppers.constructor).toBeUndefined();
    expect(focusController(v, { panel: 'controller', controller: 'valueOf' })?.name).toBe('valueOf');
    const none = store.getState().view;
    expect(focusKey(lookup(none.controllers, 'valueOf'), { panel: 'controller', key: 'toString' })?.key).toBe(
      'ns/valueOf',
    );
    expect(focusInformer(createView(), { panel: 'reflector', informer: 'constructor' })).toBeUndefined();
  });
});
