import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import type { KubeObject } from '../../../shared/models/object';

function runtimeEvents(): RuntimeEvent[] {
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 4);
  s.reconcileCycle('pods', 'default/obj-1');
  return s.events.map(({ seq: _s, ts: _t, ...ev }) => ev as RuntimeEvent);
}

describe('Recorder', () => {
  it('stamps consecutive seqs with clock time and batches per flush window', () => {
    const clock = new FakeClock();
    const rec = new Recorder({ clock, flushIntervalMs: 50, serverEpoch: 'e1' });
    const batches: StampedEvent[][] = [];
    rec.onBatch((b) => batches.push(b));
    const evs = runtimeEvents();
    for (const e of evs.slice(0, 5)) rec.emit(e);
    clock.step(10);
    for (const e of evs.slice(5)) rec.emit(e);
    expect(batches).toHaveLength(0);
    clock.step(50);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.map((e) => e.seq)).toEqual(evs.map((_, i) => i + 1));
    expect(batches[0]?.[0]?.ts).toBe(Date.UTC(2026, 0, 1));
    expect(rec.seq).toBe(evs.length);
    expect(rec.serverEpoch).toBe('e1');
  });

  it('refuses a malformed event from emit() unless emits are trusted, and from ingest() always', () => {
    const bad = { kind: 'queue.get', queue: 'pods' } as unknown as RuntimeEvent;
    const checked = new Recorder({ clock: new FakeClock() });
    checked.emit(bad);
    expect(checked.view.droppedEvents).toBe(1);
    expect(checked.view.reducerErrors?.[0]?.error).toContain('"key"');

    const trusted = new Recorder({ clock: new FakeClock(), trustedEmits: true });
    for (const e of runtimeEvents()) trusted.emit(e);
    const seq = trusted.seq;
    trusted.ingest([{ ...bad, seq: seq + 1, ts: 1 } as StampedEvent]);
    for (const e of runtimeEvents()) trusted.emit(e);
    const v = trusted.view;
    expect(v.droppedEvents).toBe(1);
    expect(v.reducerErrors?.[0]).toMatchObject({ seq: seq + 1, kind: 'queue.get' });
    expect(v.reducerErrors?.[0]?.error).toContain('"key"');
    expect(v).toEqual(reduce(createView(), trusted.eventsAfter(0) ?? []));
  });

  it('holds the same view the shared reducer builds from its events', () => {
    const rec = new Recorder({ clock: new FakeClock(), viewLimits: { maxLogEntries: 7 } });
    for (const e of runtimeEvents()) rec.emit(e);
    const all = rec.eventsAfter(0) ?? [];
    expect(all).toHaveLength(rec.seq);
    expect(rec.view).toEqual(reduce(createView({ maxLogEntries: 7 }), all));
    expect(rec.view.controllers.pods?.totalReconciles).toBe(1);
  });

  it('flushes early when too many events are pending, keeping memory bounded', () => {
    const rec = new Recorder({ clock: new FakeClock(), maxPending: 3, flushIntervalMs: 1_000_000 });
    const batches: number[] = [];
    rec.onBatch((b) => batches.push(b.length));
    for (const e of runtimeEvents().slice(0, 7)) rec.emit(e);
    expect(batches).toEqual([3, 3]);
  });

  it('replays from the ring only while the events are still kept', () => {
    const rec = new Recorder({ clock: new FakeClock(), capacity: 5 });
    for (const e of runtimeEvents().slice(0, 8)) rec.emit(e);
    expect(rec.eventsAfter(3)?.map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(rec.eventsAfter(2)).toBeUndefined();
    expect(rec.recordingState().evicted).toBe(3);
  });

  it('keeps past events within its byte budget, oldest out first, while the view counts every event', () => {
    const budget = 16 * 1024;
    const rec = new Recorder({ clock: new FakeClock(), ringBytes: budget, maxPending: 50 });
    const got: StampedEvent[] = [];
    rec.onBatch((b) => got.push(...b));
    const s = new EventScript();
    for (let i = 0; i < 40; i++) s.reconcileCycle('pods', `default/obj-${i}`);
    const evs = s.events.map(({ seq: _s, ts: _t, ...ev }) => ev as RuntimeEvent);
    for (const e of evs) {
      rec.emit(e);
      expect(rec.ringBounds().bytes).toBeLessThanOrEqual(budget);
    }
    rec.flush();
    const bounds = rec.ringBounds();
    expect(bounds.maxBytes).toBe(budget);
    expect(bounds.evicted).toBeGreaterThan(0);
    expect(bounds.size + bounds.evicted).toBe(evs.length);
    expect(rec.recordingState().evicted).toBe(bounds.evicted);
    // What is kept is the newest run: a resume from just before it replays exactly those, older ones cannot.
    const kept = rec.eventsAfter(bounds.firstSeq - 1) ?? [];
    expect(kept.map((e) => e.seq)).toEqual(got.slice(-bounds.size).map((e) => e.seq));
    expect(kept[kept.length - 1]?.seq).toBe(rec.seq);
    expect(rec.eventsAfter(bounds.firstSeq - 2)).toBeUndefined();
    // Eviction forgets events, never their effect on the view: it is what replaying all of them builds.
    expect(rec.view.eventCount).toBe(evs.length);
    expect(rec.view).toEqual(reduce(createView(), got));
  });

  it('stops stamping while paused and reports it through enabled', () => {
    const rec = new Recorder({ clock: new FakeClock() });
    const evs = runtimeEvents();
    rec.emit(evs[0] as RuntimeEvent);
    expect(rec.pause().paused).toBe(true);
    expect(rec.enabled).toBe(false);
    rec.emit(evs[1] as RuntimeEvent);
    expect(rec.seq).toBe(1);
    rec.resume();
    rec.emit(evs[1] as RuntimeEvent);
    expect(rec.seq).toBe(2);
  });

  it('keeps redacted versions of objects the informer cached, with diffs', () => {
    const clock = new FakeClock();
    const cache = new Map<string, KubeObject>();
    const rec = new Recorder({ clock, objectSource: { get: (_g, ns, n) => cache.get(`${ns}/${n}`) } });
    const secret = (rv: string, pw: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default', resourceVersion: rv },
      data: { password: pw },
    });
    const ref = { gvk: 'v1/Secret', namespace: 'default', name: 's' };
    cache.set('default/s', secret('1', 'c2VjcmV0LW9uZQ=='));
    rec.emit({
      kind: 'indexer.update',
      informer: 'v1/Secret',
      op: 'add',
      key: 'default/s',
      ref: { ...ref, resourceVersion: '1' },
      size: 1,
    });
    clock.step(100);
    cache.set('default/s', {
      ...secret('2', 'c2VjcmV0LXR3bw=='),
      metadata: { ...secret('2', '').metadata, labels: { a: 'b' } },
    });
    rec.emit({
      kind: 'indexer.update',
      informer: 'v1/Secret',
      op: 'update',
      key: 'default/s',
      ref: { ...ref, resourceVersion: '2' },
      size: 1,
    });
    clock.step(100);
    const got = rec.inspectObject(ref);
    expect(got.object?.metadata.resourceVersion).toBe('2');
    expect(got.versions.map((v) => v.resourceVersion)).toEqual(['1', '2']);
    expect(got.versions[1]?.diff).toContainEqual({ op: 'add', path: '/metadata/labels', value: { a: 'b' } });
    const text = JSON.stringify(got);
    expect(text).not.toContain('c2VjcmV0');
  });

  it('stamps events in place, but copies one it cannot write or that another recorder stamped', () => {
    const a = new Recorder({ clock: new FakeClock(), serverEpoch: 'a' });
    const b = new Recorder({ clock: new FakeClock(), serverEpoch: 'b' });
    const [first, second, third] = runtimeEvents() as [RuntimeEvent, RuntimeEvent, RuntimeEvent];
    a.emit(first);
    expect(a.eventsAfter(0)?.[0]).toBe(first);
    b.emit(second); // b's seq 1
    a.emit(second); // a's seq 2: a copy, so b's stamp stays
    expect(b.eventsAfter(0)?.[0]?.seq).toBe(1);
    expect(a.eventsAfter(1)?.[0]).toMatchObject({ ...second, seq: 2 });
    const frozen = Object.freeze({ ...third });
    expect(() => a.emit(frozen)).not.toThrow();
    expect(a.eventsAfter(2)?.[0]?.seq).toBe(3);
    expect('seq' in frozen).toBe(false);
  });

  it('updates its view in place between reads, but never changes a view it handed out', () => {
    const rec = new Recorder({ clock: new FakeClock(), maxPending: 2 });
    const evs = runtimeEvents();
    for (const e of evs.slice(0, 5)) rec.emit(e);
    const seen = rec.view;
    const json = JSON.stringify(seen);
    for (const e of evs.slice(5)) rec.emit(e);
    expect(JSON.stringify(seen)).toBe(json);
    expect(rec.view.lastSeq).toBe(evs.length);
    expect(rec.view).toEqual(reduce(createView(), rec.eventsAfter(0) ?? []));
  });

  it('reset starts a new epoch and seq space and tells listeners', () => {
    const rec = new Recorder({ clock: new FakeClock(), serverEpoch: 'a' });
    const reasons: string[] = [];
    rec.onReset((r) => reasons.push(r));
    for (const e of runtimeEvents().slice(0, 3)) rec.emit(e);
    rec.reset('seek', 'b');
    expect(rec.serverEpoch).toBe('b');
    expect(rec.seq).toBe(0);
    expect(rec.view.lastSeq).toBe(0);
    expect(reasons).toEqual(['seek']);
  });
});
