import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ScriptedListWatch, expiredError } from '../testing/scripted-list-watch';
import { DeltaFIFO } from './delta-fifo';
import { Reflector } from './reflector';

const pod = (name: string): KubeObject => ({ metadata: { namespace: 'ns', name } });

let clock: FakeClock;
let ctl: AbortController;
let probe: RecordingProbe;
beforeEach(() => {
  clock = new FakeClock();
  ctl = new AbortController();
  probe = new RecordingProbe();
});
afterEach(() => ctl.abort());

function setup(initial: KubeObject[] = [pod('a'), pod('b')]) {
  const lw = new ScriptedListWatch({ clock, initialObjects: initial });
  const fifo = new DeltaFIFO<KubeObject>();
  const r = new Reflector<KubeObject>({
    listerWatcher: lw,
    store: fifo,
    name: 'pods',
    expectedGVK: 'v1/Pod',
    clock,
    probe,
    random: () => 0,
  });
  return { lw, fifo, r, done: r.run(ctl.signal) };
}
const states = (): string[] => probe.ofKind('reflector.state').map((e) => `${e.from}→${e.to}`);

describe('Reflector state machine and probes', () => {
  it('idle → listing → watching; the list is bracketed; watch events are reported by ref', async () => {
    const { lw, r } = setup();
    await flushMicrotasks();
    expect(r.state).toBe('watching');
    lw.add(pod('c'));
    await flushMicrotasks();
    expect(states()).toEqual(['idle→listing', 'listing→watching']);
    expect(probe.ofKind('reflector.listBegin')).toEqual([
      {
        kind: 'reflector.listBegin',
        informer: 'v1/Pod',
        resourceVersion: '0',
        relist: false,
        cause: 'initial',
        method: 'list',
      },
    ]);
    expect(probe.ofKind('reflector.listEnd')[0]).toMatchObject({
      resourceVersion: '2',
      items: 2,
      pages: 1,
      relist: false,
    });
    expect(probe.ofKind('reflector.watchStart')[0]).toMatchObject({ resourceVersion: '2', timeoutSeconds: 300 });
    expect(probe.ofKind('reflector.event')).toEqual([
      {
        kind: 'reflector.event',
        informer: 'v1/Pod',
        type: 'ADDED',
        ref: { gvk: 'v1/Pod', namespace: 'ns', name: 'c', uid: 'uid-ns/c', resourceVersion: '3' },
      },
    ]);
  });

  it('410 on re-watch after compaction → backoff → relist at the last RV, with inferred deletions counted', async () => {
    const { lw, r, fifo } = setup();
    await flushMicrotasks();
    lw.delete(pod('b'), { dropWatch: true });
    lw.add(pod('d'), { dropWatch: true });
    lw.compact();
    await clock.advance(1000);
    lw.closeWatches();
    await clock.advance(0);
    expect(r.state).toBe('backoff');
    expect(probe.ofKind('reflector.watchEnd').map((e) => e.reason)).toEqual(['closed', 'expired']);
    expect(probe.ofKind('reflector.backoff')[0]?.delayMs).toBe(800);
    await clock.advance(800);
    expect(r.state).toBe('watching');
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '2']);
    expect(states()).toEqual([
      'idle→listing',
      'listing→watching',
      'watching→backoff',
      'backoff→relisting',
      'relisting→watching',
    ]);
    const end = probe.ofKind('reflector.listEnd')[1];
    expect(end).toMatchObject({ relist: true, items: 2, deletedFromRelist: 1, resourceVersion: '4' });
    expect(probe.ofKind('reflector.listBegin')[1]?.cause).toBe('watch expired (410)');
    expect(fifo.listKeys()).toEqual(['ns/a', 'ns/b', 'ns/d']);
  });

  it('a relist whose RV has been compacted falls back to RV "" (relist after expired list)', async () => {
    const { lw } = setup();
    await flushMicrotasks();
    lw.update(pod('a'), { dropWatch: true });
    lw.compact();
    await clock.advance(1000);
    lw.closeWatches();
    // The concrete-RV relist fails as expired (as an etcd-served list would), forcing RV "".
    const realList = lw.list.bind(lw);
    let first = true;
    lw.list = async (o, s) => {
      if (first && o.resourceVersion === '2') {
        first = false;
        lw.listCalls.push({ ...o });
        throw expiredError();
      }
      return realList(o, s);
    };
    await clock.advance(5000);
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '2', '']);
  });

  it('stopping moves to stopped and ends the watch as "stopped"', async () => {
    const { r, done } = setup();
    await flushMicrotasks();
    ctl.abort();
    await done;
    expect(r.state).toBe('stopped');
    expect(probe.ofKind('reflector.watchEnd').at(-1)?.reason).toBe('stopped');
  });

  it('watch timeout: the server closes after timeoutSeconds; the reflector re-watches without relisting', async () => {
    const { lw } = setup();
    await flushMicrotasks();
    await clock.advance(300_000);
    expect(probe.ofKind('reflector.watchEnd')[0]?.reason).toBe('timeout');
    expect(lw.watchCalls).toHaveLength(2);
    expect(lw.listCalls).toHaveLength(1);
  });

  it('bookmarks update the RV and are reported', async () => {
    const { lw, r } = setup();
    await flushMicrotasks();
    lw.add(pod('c'), { dropWatch: true });
    lw.bookmark();
    await flushMicrotasks();
    expect(r.lastSyncResourceVersion()).toBe('3');
    expect(probe.ofKind('reflector.bookmark')).toEqual([
      { kind: 'reflector.bookmark', informer: 'v1/Pod', resourceVersion: '3' },
    ]);
  });
});

describe('Reflector with a ListerWatcher that ignores the abort signal', () => {
  it('run() still returns promptly when stopped during a hanging list or watch open', async () => {
    for (const hang of ['list', 'watch'] as const) {
      const stop = new AbortController();
      const never = new Promise<never>(() => {});
      const lw = new ScriptedListWatch({ clock: new FakeClock() });
      const realList = lw.list.bind(lw);
      const realWatch = lw.watch.bind(lw);
      lw.list = (o) => (hang === 'list' ? never : realList(o));
      lw.watch = (o) => (hang === 'watch' ? never : realWatch(o));
      const r = new Reflector<KubeObject>({
        listerWatcher: lw,
        store: new DeltaFIFO<KubeObject>(),
        clock: new FakeClock(),
      });
      const done = r.run(stop.signal);
      await flushMicrotasks();
      // The state moves to watching only once a watch is open.
      expect(r.state).toBe('listing');
      stop.abort();
      await done;
      expect(r.state).toBe('stopped');
    }
  });
});
