import { describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../../shared/models/object';
import type { ListerWatcher } from '../client/lister-watcher';
import type { FakeClock } from '../testing/fake-clock';
import { flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ScriptedListWatch, ScriptedWatch, tooManyRequestsError } from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { FIFO } from './fifo';
import { metaNamespaceKeyFunc } from './keys';
import { Reflector, type ReflectorOptions } from './reflector';
import type { ReflectorStore } from './reflector-store';
import { funcLW, listOf, pod } from '../testing/reflector-fixtures';
import { newStore } from './store';
import { INITIAL_EVENTS_END_ANNOTATION } from './watch-handler';
import { freshClockEachTest } from '../testing/test-harness';

let clock: FakeClock;
let ctl: AbortController;
freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

const endBookmark = (rv: string, value = 'true'): WatchEvent => ({
  type: 'BOOKMARK',
  object: { metadata: { resourceVersion: rv, annotations: { [INITIAL_EVENTS_END_ANNOTATION]: value } } },
});
function reflector(
  lw: ListerWatcher,
  store: ReflectorStore<KubeObject> = newStore<KubeObject>(metaNamespaceKeyFunc),
  extra: Partial<ReflectorOptions<KubeObject>> = {},
) {
  return new Reflector<KubeObject>({
    listerWatcher: lw,
    store,
    name: 'test',
    clock,
    random: () => 0,
    useWatchList: true,
    ...extra,
  });
}

describe('reflector_watchlist_test', () => {
  it('TestReflectorListAndWatch with WatchList: one streaming watch, no LIST, same final store', async () => {
    const w = new ScriptedWatch();
    const lw = funcLW(
      () => listOf('1'),
      () => w,
    );
    const store = new FIFO<KubeObject>();
    const r = reflector(lw, store);
    void r.listAndWatch(ctl.signal);
    await flushMicrotasks();
    expect(lw.watchCalls).toEqual([
      {
        resourceVersion: '',
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        timeoutSeconds: 300,
      },
    ]);
    w.push({ type: 'ADDED', object: pod('foo', '1') });
    w.push(endBookmark('1'));
    w.push({ type: 'MODIFIED', object: pod('foo', '2') });
    for (const [n, rv] of [
      ['bar', '3'],
      ['baz', '4'],
      ['qux', '5'],
      ['zoo', '6'],
    ] as const)
      w.push({ type: 'ADDED', object: pod(n, rv) });
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls).toHaveLength(1);
    const got: string[] = [];
    while (store.listKeys().length > 0) {
      const o = await store.pop(() => {});
      got.push(`${o.metadata.name}@${o.metadata.resourceVersion}`);
    }
    expect(got).toEqual(['foo@2', 'bar@3', 'baz@4', 'qux@5', 'zoo@6']);
    expect(r.lastSyncResourceVersion()).toBe('6');
  });

  for (const err of [
    new ApiError(500, 'InternalError', 'streaming not supported'),
    new ApiError(422, 'Invalid', 'sendInitialEvents is forbidden'),
  ]) {
    it(`falls back to LIST + WATCH when the streaming request fails (${err.reason})`, async () => {
      const lw = funcLW(
        () => listOf('1'),
        (o) => {
          if (o.sendInitialEvents) throw err;
          return new ScriptedWatch();
        },
      );
      void reflector(lw).listAndWatch(ctl.signal);
      await flushMicrotasks();
      expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }]);
      expect(lw.watchCalls[1]).toMatchObject({ resourceVersion: '1', allowWatchBookmarks: true });
      expect(lw.watchCalls[1]?.sendInitialEvents).toBeUndefined();
    });
  }

  it('429 twice then success → three identical streaming requests, no LIST', async () => {
    const lw = funcLW(
      () => listOf('1'),
      (_o, n) => {
        if (n <= 2) throw tooManyRequestsError();
        const w = new ScriptedWatch();
        w.push(endBookmark('1'));
        return w;
      },
    );
    const r = reflector(lw);
    void r.listAndWatch(ctl.signal);
    await clock.advance(10_000);
    expect(lw.watchCalls.slice(0, 3).map((c) => JSON.stringify(c))).toEqual(
      Array(3).fill(JSON.stringify(lw.watchCalls[0])),
    );
    expect(lw.listCalls).toHaveLength(0);
    expect(r.state).toBe('watching');
  });

  it('a stream that ends before the initial-events-end bookmark is asked for again', async () => {
    const watches: ScriptedWatch[] = [];
    const lw = funcLW(
      () => listOf('1'),
      () => {
        const w = new ScriptedWatch();
        watches.push(w);
        return w;
      },
    );
    void reflector(lw).listAndWatch(ctl.signal);
    await flushMicrotasks();
    watches[0]?.push({ type: 'ADDED', object: pod('foo', '1') });
    await clock.advance(1000);
    watches[0]?.end();
    await flushMicrotasks();
    expect(lw.watchCalls).toHaveLength(2);
    expect(lw.watchCalls[1]?.sendInitialEvents).toBe(true);
  });

  it('after the sync the same stream is watched; when it closes, a normal watch from the last event RV', async () => {
    const watches: ScriptedWatch[] = [];
    const lw = funcLW(
      () => listOf('1'),
      () => {
        const w = new ScriptedWatch();
        watches.push(w);
        return w;
      },
    );
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    void reflector(lw, store).listAndWatch(ctl.signal);
    await flushMicrotasks();
    watches[0]?.push({ type: 'ADDED', object: pod('foo', '1') });
    watches[0]?.push(endBookmark('2'));
    watches[0]?.push({ type: 'MODIFIED', object: pod('foo', '3') });
    await clock.advance(1000);
    watches[0]?.end();
    await flushMicrotasks();
    expect(store.getByKey('ns/foo')?.metadata.resourceVersion).toBe('3');
    expect(lw.watchCalls[1]).toEqual({ resourceVersion: '3', timeoutSeconds: 300, allowWatchBookmarks: true });
  });

  it('a bookmark whose initial-events-end annotation is "false" does not complete the sync', async () => {
    const w = new ScriptedWatch();
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const r = reflector(
      funcLW(
        () => listOf('1'),
        () => w,
      ),
      store,
    );
    void r.listAndWatch(ctl.signal);
    await flushMicrotasks();
    w.push({ type: 'ADDED', object: pod('foo', '1') });
    w.push(endBookmark('1', 'false'));
    await flushMicrotasks();
    expect(store.listKeys()).toEqual([]);
    expect(r.lastSyncResourceVersion()).toBe('');
    expect(r.state).toBe('listing');
    w.push(endBookmark('1'));
    await flushMicrotasks();
    expect(store.listKeys()).toEqual(['ns/foo']);
    expect(r.lastSyncResourceVersion()).toBe('1');
    expect(r.state).toBe('watching');
  });

  it('against the scripted server: the sync is bracketed as a list; relists after 410 use WatchList again', async () => {
    const probe = new RecordingProbe();
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a', ''), pod('b', '')] });
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const r = reflector(lw, store, { probe });
    void r.run(ctl.signal);
    await flushMicrotasks();
    expect(store.listKeys().sort()).toEqual(['ns/a', 'ns/b']);
    expect(probe.ofKind('reflector.listEnd')[0]).toMatchObject({ items: 2, relist: false, resourceVersion: '2' });
    expect(probe.ofKind('reflector.event')).toEqual([]);
    lw.add(pod('c', ''));
    await flushMicrotasks();
    expect(probe.ofKind('reflector.event')).toHaveLength(1);
    lw.sendError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 410, reason: 'Expired' });
    await clock.advance(2000);
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls.filter((c) => c.sendInitialEvents).map((c) => c.resourceVersion)).toEqual(['', '3']);
    expect(probe.ofKind('reflector.listEnd')[1]).toMatchObject({ relist: true, items: 3 });
    // Each bracket says it was a stream, so the dashboard does not tell it as LIST then WATCH.
    expect(probe.ofKind('reflector.listBegin').map((e) => e.method)).toEqual(['watchList', 'watchList']);
  });

  it('a server without WatchList (422 Invalid) is listed instead, every time', async () => {
    const probe = new RecordingProbe();
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a', '')], rejectWatchList: true });
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    void reflector(lw, store, { probe }).run(ctl.signal);
    await flushMicrotasks();
    expect(store.listKeys()).toEqual(['ns/a']);
    expect(lw.listCalls).toHaveLength(1);
    // The refused stream, then the LIST that took its place: the one that ended well is a LIST.
    const begins = probe.ofKind('reflector.listBegin').map((e) => e.method);
    expect(begins[begins.length - 1]).toBe('list');
  });
});
