import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../../shared/models/object';
import type { ListerWatcher } from '../client/lister-watcher';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ScriptedWatch, internalErrorStatus } from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { FIFO } from './fifo';
import { metaNamespaceKeyFunc } from './keys';
import { Reflector, type ReflectorOptions } from './reflector';
import type { ReflectorStore } from './reflector-store';
import { newStore, type CacheStore } from './store';
import { funcLW, listOf, pod, rvs } from '../testing/reflector-fixtures';

let clock: FakeClock;
let ctl: AbortController;
afterEach(() => ctl?.abort());

function reflector(
  lw: ListerWatcher,
  store: ReflectorStore<KubeObject>,
  extra: Partial<ReflectorOptions<KubeObject>> = {},
) {
  clock ??= new FakeClock();
  return new Reflector<KubeObject>({
    listerWatcher: lw,
    store,
    name: 'test',
    expectedGVK: 'v1/Pod',
    clock,
    random: () => 0,
    ...extra,
  });
}
const fresh = (): CacheStore => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('reflector_test', () => {
  afterEach(() => {
    clock = undefined as unknown as FakeClock;
  });

  it('TestRunUntil: an ERROR event ends ListAndWatch and stops the watcher', async () => {
    ctl = new AbortController();
    const w = new ScriptedWatch();
    const r = reflector(
      funcLW(
        () => listOf('1'),
        () => w,
      ),
      fresh(),
    );
    const done = r.listAndWatch(ctl.signal);
    await flushMicrotasks();
    w.push({ type: 'ERROR', object: internalErrorStatus('oops') });
    await done;
    expect(w.stopped).toBe(true);
  });

  it('TestReflectorStopWatch: aborting while watching stops the watcher and Run returns', async () => {
    ctl = new AbortController();
    const w = new ScriptedWatch();
    const r = reflector(
      funcLW(
        () => listOf('1'),
        () => w,
      ),
      fresh(),
    );
    const done = r.run(ctl.signal);
    await flushMicrotasks();
    expect(r.state).toBe('watching');
    ctl.abort();
    await done;
    expect(w.stopped).toBe(true);
    expect(r.state).toBe('stopped');
  });

  it('TestReflectorWatchStoppedBefore: an already-cancelled signal lists and watches nothing', async () => {
    ctl = new AbortController();
    ctl.abort();
    const lw = funcLW(
      () => listOf('1'),
      () => new ScriptedWatch(),
    );
    await reflector(lw, fresh()).listAndWatch(ctl.signal);
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls).toHaveLength(0);
  });

  it('TestReflectorHandleWatchResultChanClosedBefore: an empty watch closed at once is a very short watch → relist', async () => {
    ctl = new AbortController();
    const probe = new RecordingProbe();
    const lw = funcLW(
      () => listOf('1'),
      () => {
        const w = new ScriptedWatch();
        w.end();
        return w;
      },
    );
    await reflector(lw, fresh(), { probe }).listAndWatch(ctl.signal);
    expect(lw.watchCalls).toHaveLength(1);
    expect(probe.ofKind('reflector.watchEnd')[0]?.reason).toBe('too-short');
    expect(probe.ofKind('reflector.watchEnd')[0]?.error).toMatch(/^very short watch: test: Unexpected watch close/);
  });

  it('a watch that lasts at least a second closes normally → re-watch from the last RV, no relist', async () => {
    ctl = new AbortController();
    const watches: ScriptedWatch[] = [];
    const lw = funcLW(
      () => listOf('5'),
      () => {
        const w = new ScriptedWatch();
        watches.push(w);
        return w;
      },
    );
    const r = reflector(lw, fresh());
    void r.run(ctl.signal);
    await flushMicrotasks();
    await clock.advance(1000);
    watches[0]?.end();
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(1);
    expect(rvs(lw.watchCalls)).toEqual(['5', '5']);
  });

  it('TestReflectorWatchHandler: wrong types are dropped; adds, updates, deletes reach the store; RV tracked', async () => {
    ctl = new AbortController();
    const store = fresh();
    store.add(pod('foo', '1'));
    store.add(pod('bar', '1'));
    const w = new ScriptedWatch();
    const r = reflector(
      funcLW(
        () => listOf('1', [pod('foo', '1'), pod('bar', '1')]),
        () => w,
      ),
      store,
    );
    const done = r.listAndWatch(ctl.signal);
    await flushMicrotasks();
    w.push({ type: 'ADDED', object: pod('rejected', '2', 'Service') });
    w.push({ type: 'DELETED', object: pod('foo', '3') });
    w.push({ type: 'MODIFIED', object: pod('bar', '55') });
    w.push({ type: 'ADDED', object: pod('baz', '32') });
    await flushMicrotasks();
    expect(store.getByKey('ns/foo')).toBeUndefined();
    expect(store.getByKey('ns/rejected')).toBeUndefined();
    expect(store.getByKey('ns/bar')?.metadata.resourceVersion).toBe('55');
    expect(store.getByKey('ns/baz')?.metadata.resourceVersion).toBe('32');
    expect(r.lastSyncResourceVersion()).toBe('32');
    ctl.abort();
    await done;
  });

  it('a watch stream whose stop throws still ends: the watch finishes with that error', async () => {
    ctl = new AbortController();
    const w = new ScriptedWatch();
    w.stop = () => {
      throw new Error('stop failed');
    };
    const r = reflector(
      funcLW(
        () => listOf('1'),
        () => w,
      ),
      fresh(),
    );
    let settled = false;
    const done = r.listAndWatch(ctl.signal).then(
      () => (settled = true),
      () => (settled = true),
    );
    await flushMicrotasks();
    ctl.abort();
    await flushMicrotasks();
    expect(settled).toBe(true);
    await done;
  });

  it('the type filter compares apiVersion and kind whole; an object declaring neither is kept', async () => {
    ctl = new AbortController();
    const store = fresh();
    const w = new ScriptedWatch();
    const r = reflector(
      funcLW(
        () => listOf('1'),
        () => w,
      ),
      store,
    );
    const done = r.listAndWatch(ctl.signal);
    await flushMicrotasks();
    const named = (name: string, apiVersion: string | undefined, kind: string | undefined): KubeObject => ({
      ...(apiVersion !== undefined ? { apiVersion } : {}),
      ...(kind !== undefined ? { kind } : {}),
      metadata: { namespace: 'ns', name, resourceVersion: '2' },
    });
    w.push({ type: 'ADDED', object: named('apps', 'apps/v1', 'Pod') });
    w.push({ type: 'ADDED', object: named('longer', 'v1', 'Pods') });
    w.push({ type: 'ADDED', object: named('split', 'v1/P', 'od') });
    w.push({ type: 'ADDED', object: named('bare', undefined, undefined) });
    w.push({ type: 'ADDED', object: named('no-kind', 'v1', undefined) });
    w.push({ type: 'ADDED', object: named('match', 'v1', 'Pod') });
    await flushMicrotasks();
    expect(store.listKeys().sort()).toEqual(['ns/bare', 'ns/match', 'ns/no-kind']);
    ctl.abort();
    await done;
  });

  it('TestReflectorListAndWatch: list {RV "0", limit 500}, watch {RV of the list, bookmarks}', async () => {
    ctl = new AbortController();
    const w = new ScriptedWatch();
    const lw = funcLW(
      () => listOf('1'),
      () => w,
    );
    const store = new FIFO<KubeObject>();
    const done = reflector(lw, store).listAndWatch(ctl.signal);
    await flushMicrotasks();
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }]);
    expect(lw.watchCalls[0]).toMatchObject({ resourceVersion: '1', allowWatchBookmarks: true });
    const ids = [
      ['foo', '2'],
      ['bar', '3'],
      ['baz', '4'],
      ['qux', '5'],
      ['zoo', '6'],
    ];
    ids.forEach(([n, rv], i) =>
      w.push({ type: i === 0 ? 'MODIFIED' : 'ADDED', object: pod(n as string, rv as string) }),
    );
    await flushMicrotasks();
    for (const [n, rv] of ids) {
      const got = await store.pop(() => {});
      expect([got.metadata.name, got.metadata.resourceVersion]).toEqual([n, rv]);
    }
    ctl.abort();
    await done;
  });

  it('TestReflectorListAndWatchWithErrors: each list replaces exactly what the previous run left', async () => {
    const store = new FIFO<KubeObject>();
    const runs: { list: KubeObject[]; event?: WatchEvent; listErr?: boolean; watchErr?: boolean }[] = [
      { list: [], event: { type: 'ADDED', object: pod('foo', '2') } },
      { list: [pod('foo', '2')], event: { type: 'ADDED', object: pod('bar', '3') } },
      { list: [pod('foo', '2'), pod('bar', '3')], event: { type: 'DELETED', object: pod('foo', '4') } },
      { list: [pod('bar', '3')], listErr: true },
      { list: [pod('bar', '3')], watchErr: true },
    ];
    for (const run of runs) {
      ctl = new AbortController();
      clock = new FakeClock();
      const w = new ScriptedWatch();
      const lw = funcLW(
        () => {
          expect(new Set(store.listKeys())).toEqual(new Set(run.list.map((o) => metaNamespaceKeyFunc(o))));
          if (run.listErr) throw new ApiError(500, 'InternalError', 'list failed');
          return listOf('1', run.list);
        },
        () => {
          if (run.watchErr) throw new ApiError(500, 'InternalError', 'watch failed');
          return w;
        },
      );
      const done = reflector(lw, store).listAndWatch(ctl.signal);
      if (run.listErr || run.watchErr) {
        await expect(done).rejects.toThrow(run.listErr ? 'list failed' : 'watch failed');
        continue;
      }
      await flushMicrotasks();
      if (run.event) w.push(run.event);
      await flushMicrotasks();
      ctl.abort();
      await done;
    }
  });
});
