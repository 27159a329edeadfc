import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { ObjectStorage, type StoredEvent } from './storage';
import { StatusError } from './status-errors';

const cm = (name: string, ns = 'default', data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns },
  data,
});

describe('ObjectStorage', () => {
  it('stamps one global, strictly increasing resourceVersion across kinds', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    const a = s.create('/configmaps', 'default/a', cm('a'));
    const b = s.create('/secrets', 'default/b', { metadata: { name: 'b' } });
    const a2 = s.update('/configmaps', 'default/a', { ...a, data: { x: '1' } });
    expect([a.metadata.resourceVersion, b.metadata.resourceVersion, a2.metadata.resourceVersion]).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(s.currentRv).toBe(3);
  });

  it('copies objects in and out', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    const input = cm('a', 'default', { k: 'v' });
    const out = s.create('/configmaps', 'default/a', input);
    input.data.k = 'changed';
    out.data = { k: 'changed too' };
    const got = s.get('/configmaps', 'default/a');
    expect(got?.data).toEqual({ k: 'v' });
    (got as unknown as { data: Record<string, string> }).data.k = 'again';
    expect(s.get('/configmaps', 'default/a')?.data).toEqual({ k: 'v' });
  });

  it('lists in key order (namespace, then name) and filters by namespace', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    for (const [ns, n] of [
      ['b', 'x'],
      ['a-b', 'z'],
      ['a', 'y'],
      ['a', 'b'],
    ] as const)
      s.create('/configmaps', `${ns}/${n}`, cm(n, ns));
    expect(s.list('/configmaps').keys).toEqual(['a-b/z', 'a/b', 'a/y', 'b/x']);
    expect(s.list('/configmaps', { namespace: 'a' }).items.map((o) => o.metadata.name)).toEqual(['b', 'y']);
  });

  it('reconstructs the state at an older revision', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    const a = s.create('/configmaps', 'default/a', cm('a', 'default', { v: '1' }));
    s.update('/configmaps', 'default/a', { ...a, data: { v: '2' } });
    s.create('/configmaps', 'default/b', cm('b'));
    s.delete('/configmaps', 'default/a');
    expect(s.list('/configmaps', { atRv: 1 }).items.map((o) => o.data)).toEqual([{ v: '1' }]);
    expect(s.list('/configmaps', { atRv: 3 }).items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(s.list('/configmaps').items.map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('delivers DELETED with the last state stamped with the deletion revision', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    const seen: StoredEvent[] = [];
    s.subscribe((e) => seen.push(e));
    s.create('/configmaps', 'default/a', cm('a'));
    const last = s.delete('/configmaps', 'default/a');
    expect(last?.metadata.resourceVersion).toBe('2');
    expect(seen.map((e) => [e.type, e.rv])).toEqual([
      ['ADDED', 1],
      ['DELETED', 2],
    ]);
    expect(s.eventsSince(0).map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('compacts history by age so older revisions answer 410', () => {
    const clock = new FakeClock();
    const s = new ObjectStorage({ clock, compactionWindowMs: 60_000 });
    s.create('/configmaps', 'default/a', cm('a'));
    clock.step(30_000);
    s.create('/configmaps', 'default/b', cm('b'));
    expect(s.eventsSince(0)).toHaveLength(2);
    clock.step(40_000);
    expect(s.compactedRevision).toBe(1);
    expect(s.eventsSince(1).map((e) => e.rv)).toEqual([2]);
    try {
      s.eventsSince(0);
      expect.unreachable();
    } catch (e) {
      expect((e as StatusError).code).toBe(410);
      expect((e as StatusError).reason).toBe('Expired');
      expect((e as StatusError).message).toBe('too old resource version: 0 (2)');
    }
    expect(() => s.list('/configmaps', { atRv: 0 })).toThrow(/too old/);
  });

  it('compactNow drops everything up to the current revision', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    s.create('/configmaps', 'default/a', cm('a'));
    s.create('/configmaps', 'default/b', cm('b'));
    expect(s.compactNow()).toBe(2);
    expect(s.eventsSince(2)).toEqual([]);
    expect(() => s.eventsSince(1)).toThrow(StatusError);
  });
});

describe('ObjectStorage listeners', () => {
  it('deliver commits in revision order even when a listener writes', () => {
    const s = new ObjectStorage({ clock: new FakeClock() });
    const first: number[] = [];
    const second: number[] = [];
    s.subscribe((e) => {
      first.push(e.rv);
      if (e.rv === 1) s.create('/configmaps', 'default/echo', cm('echo'));
    });
    s.subscribe((e) => second.push(e.rv));
    s.create('/configmaps', 'default/a', cm('a'));
    expect(first).toEqual([1, 2]);
    expect(second).toEqual([1, 2]);
  });
});

describe('ObjectStorage history limit', () => {
  it('keeps at most historyLimit events', () => {
    const s = new ObjectStorage({ clock: new FakeClock(), historyLimit: 2 });
    for (const n of ['a', 'b', 'c']) s.create('/configmaps', `default/${n}`, cm(n));
    expect(s.eventsSince(1).map((e) => e.rv)).toEqual([2, 3]);
    expect(() => s.eventsSince(0)).toThrow(/too old resource version/);
  });

  it('keeps serving the window while thousands of commits slide through it', () => {
    const s = new ObjectStorage({ clock: new FakeClock(), historyLimit: 100 });
    s.create('/configmaps', 'default/a', cm('a'));
    for (let i = 1; i <= 5000; i++) {
      const cur = s.get('/configmaps', 'default/a');
      s.update('/configmaps', 'default/a', { ...cur!, data: { i: String(i) } });
      if (i % 997 === 0) {
        const rv = s.currentRv;
        expect(s.eventsSince(rv - 100).map((e) => e.rv)).toEqual(Array.from({ length: 100 }, (_, k) => rv - 99 + k));
        expect(() => s.eventsSince(rv - 101)).toThrow(/too old resource version/);
        expect(s.list('/configmaps', { atRv: rv - 50 }).items[0]?.data).toEqual({ i: String(i - 50) });
      }
    }
    expect(s.compactedRevision).toBe(s.currentRv - 100);
  });
});
