import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../shared/protocol/events';
import { App } from './App';
import { recordingUrl } from './components/RecordingControls';
import { RuntimeStore } from './client/runtime-store';
import { recordedView } from './fixtures/recorded-view';
import { renderText, storeWith } from './fixtures/render';

describe('App shell', () => {
  it('shows the live pill, stream numbers and nav badges for errors and hot loops', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'live' });
    const t = renderText(<App />, store);
    expect(t).toContain('LIVE');
    expect(t).toContain(`seq ${recordedView().lastSeq}`);
    expect(t).toContain('1 hot');
    expect(t).toContain('Pipeline');
  });

  it('opens the panel named by the hash', () => {
    const t = renderText(<App serverHash="#/workqueue?controller=flaky" />, storeWith(recordedView()));
    expect(t).toContain('workqueue “flaky”');
  });

  it('says so when there is no connection, keeping the last data', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'disconnected', since: Date.now(), error: 'transport close', attempt: 3 });
    const t = renderText(<App />, store);
    expect(t).toContain('OFFLINE');
    expect(t).toContain('No connection to the controller-scope server');
    expect(t).toContain('attempt 3');
    expect(t).toContain('Showing the last data received');
    expect(t).toContain('stream – ev/s');
  });

  it('asks for a reload on a protocol version mismatch', () => {
    const store = new RuntimeStore();
    store.setStatus({ state: 'incompatible', serverVersion: 2, clientVersion: 1, message: 'Reload the page.' });
    const t = renderText(<App />, store);
    expect(t).toContain('VERSION MISMATCH');
    expect(t).toContain('protocol v1, the server speaks v2');
    expect(t).toContain('Reload');
  });

  it('says how many events the reducer dropped, and why the latest was', () => {
    const store = new RuntimeStore();
    store.applyBatch([
      // A queue.add without depth would leave a controller no panel can draw: it is refused whole.
      { kind: 'queue.add', queue: 'c', key: 'k', cause: { type: 'manual' }, seq: 1, ts: 1 } as unknown as StampedEvent,
      { kind: 'queue.add', queue: 'c', key: 'k', cause: { type: 'manual' }, seq: 2, ts: 2 } as unknown as StampedEvent,
    ]);
    store.setStatus({ state: 'live' });
    const t = renderText(<App />, store);
    expect(t).toContain('2 events could not be applied');
    expect(t).toContain('Latest: #2 queue.add: field "depth" is missing or malformed');
  });

  it('marks a replay as recorded, not live', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'replaying', source: 'incident.jsonl' });
    const t = renderText(<App />, store);
    expect(t).toContain('REPLAY');
    expect(t).toContain('Replay of incident.jsonl');
  });

  it('offers play, speed and seek controls for a replay, and no recording control', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'replaying', source: 'incident.jsonl' });
    store.setServerStatus({
      recording: { paused: true, evicted: 0 },
      steppers: {},
      faults: [],
      replay: {
        playing: false,
        speed: 10,
        seq: 40,
        firstSeq: 1,
        lastSeq: 90,
        ts: 5000,
        firstTs: 1000,
        lastTs: 9000,
        finished: false,
      },
    });
    store.setSnapshot(recordedView(), {
      protocolVersion: 1,
      serverEpoch: 'r',
      mode: 'replay',
      cluster: { kind: 'replay', name: 'incident.jsonl', writable: false },
      controllers: [],
      startedAt: 0,
      capabilities: { step: false, requeue: false, faults: false, workload: false, replay: true, recording: true },
    });
    const t = renderText(<App />, store);
    expect(t).toContain('Paused.');
    expect(t).toContain('seq 40 / 90');
    expect(t).toContain('▶ Play');
    expect(t).toContain('10×');
    expect(t).toContain('4.00s / 8.00s');
    expect(t).toContain('recording incident.jsonl');
    // Nothing live to measure in a replay: no stream rate in the bar.
    expect(t).not.toContain('ev/s');
    // A replay records nothing new: no per-viewer Rec, and no server file to pause.
    expect(t).not.toContain('● Rec');
    expect(t).not.toContain('server file');
  });

  it('offers recording per viewer, and shows the server file only when there is one, never as a stream switch', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'live' });
    store.setSnapshot(recordedView(), {
      protocolVersion: 1,
      serverEpoch: 'e',
      mode: 'live',
      cluster: { kind: 'sandbox', writable: true },
      controllers: [],
      startedAt: 0,
      capabilities: { step: true, requeue: true, faults: true, workload: true, replay: false, recording: true },
    });
    const status = { recording: { paused: false, evicted: 0 }, steppers: {}, faults: [] };
    store.setServerStatus(status);
    let t = renderText(<App />, store);
    expect(t).toContain('● Rec');
    expect(t).not.toContain('server file');
    expect(t).not.toContain('Recording');
    store.setServerStatus({ ...status, recording: { paused: false, evicted: 0, file: 'session.jsonl' } });
    t = renderText(<App />, store);
    expect(t).toContain('● server file recording');
    expect(t).toContain('LIVE');
  });

  it("builds a viewer recording's download address with the span and the token", () => {
    expect(recordingUrl('http://127.0.0.1:7070/', 12, 340, 't0k')).toBe(
      'http://127.0.0.1:7070/api/recording?fromSeq=12&toSeq=340&token=t0k',
    );
  });

  it('says when the stream is filtered', () => {
    const store = storeWith(recordedView());
    store.setStatus({ state: 'live' });
    store.setSubscription({ namespaces: ['team-a'], controllers: ['flaky'] });
    const t = renderText(<App />, store);
    expect(t).toContain('Filtered to namespace team-a, controller flaky');
  });
});
