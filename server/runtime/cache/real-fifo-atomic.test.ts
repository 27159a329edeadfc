// client-go the_real_fifo_test.go, the atomic cases (TestRealFIFO_ReplaceAtomic, _ReplaceAtomicPop,
// _ResyncAtomic), and controller.go's processReplacedAllInfo through a shared informer: with AtomicFIFO a
// relist reaches the indexer in one step, then the handlers hear deletions first, then the list in order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { runtimeDefaults, setRuntimeDefaults, type RuntimeDefaults } from '../upstream';
import { DeletedFinalStateUnknown } from './interfaces';
import { RealFIFO, type AtomicEvent } from './real-fifo';
import { newSharedIndexInformer } from './shared-informer';

interface TObj {
  name: string;
  val: unknown;
}
const mk = (name: string, val: unknown): TObj => ({ name, val });
const nameKey = (o: unknown): string => (o as TObj).name;

/** An atomic FIFO whose pops are written down in order: deltas as "Type name", atomic entries as objects. */
function atomicFifo(transformer?: (o: TObj) => TObj) {
  const popped: unknown[] = [];
  const f = new RealFIFO<TObj>({
    keyFunction: nameKey,
    atomicEvents: true,
    processAtomic: (e: AtomicEvent<TObj>, initial) => void popped.push({ ...e, initial }),
    ...(transformer ? { transformer } : {}),
  });
  const drain = async (): Promise<unknown[]> => {
    while (f.length > 0) {
      await f.pop((ds, initial) => {
        for (const d of ds) popped.push(`${d.type} ${(d.object as TObj).name} ${String(initial)}`);
      });
    }
    return popped.splice(0);
  };
  return { f, drain };
}

describe('the_real_fifo_test (atomic)', () => {
  it('TestRealFIFO_ReplaceAtomic: one ReplacedAll per replace, after what was queued, in order', async () => {
    const obj = mk('foo', 2);
    const base = atomicFifo();
    base.f.replace([], '123');
    expect(await base.drain()).toEqual([{ type: 'ReplacedAll', resourceVersion: '123', objects: [], initial: true }]);

    const added = atomicFifo();
    added.f.add(obj);
    added.f.replace([], '123');
    expect(await added.drain()).toEqual([
      'Added foo false',
      { type: 'ReplacedAll', resourceVersion: '123', objects: [], initial: false },
    ]);

    const many = atomicFifo();
    many.f.add(obj);
    many.f.replace([obj], '10');
    many.f.replace([obj], '20');
    many.f.replace([], '56');
    expect(await many.drain()).toEqual([
      'Added foo false',
      { type: 'ReplacedAll', resourceVersion: '10', objects: [obj], initial: false },
      { type: 'ReplacedAll', resourceVersion: '20', objects: [obj], initial: false },
      { type: 'ReplacedAll', resourceVersion: '56', objects: [], initial: false },
    ]);
    expect(many.f.length).toBe(0);
  });

  it('TestRealFIFO_ReplaceAtomicPop: the add, then the one ReplacedAll with the new value, nothing more', async () => {
    const { f, drain } = atomicFifo();
    f.add(mk('foo', 10));
    f.replace([mk('foo', 15)], '20');
    expect(f.list()).toEqual([{ type: 'Added', object: mk('foo', 10) }]);
    expect(f.listAtomic()).toEqual([{ type: 'ReplacedAll', resourceVersion: '20', objects: [mk('foo', 15)] }]);
    expect(await drain()).toEqual([
      'Added foo false',
      { type: 'ReplacedAll', resourceVersion: '20', objects: [mk('foo', 15)], initial: false },
    ]);
    expect(f.length).toBe(0);
  });

  it('TestRealFIFO_ResyncAtomic: one SyncAll per resync, after what was queued', async () => {
    const base = atomicFifo();
    base.f.resync();
    expect(await base.drain()).toEqual([{ type: 'SyncAll', initial: true }]);
    const added = atomicFifo();
    added.f.add(mk('foo', 2));
    added.f.resync();
    expect(await added.drain()).toEqual(['Added foo false', { type: 'SyncAll', initial: false }]);
  });

  it('the first replace is the initial population: synced once its one entry is processed', async () => {
    const { f, drain } = atomicFifo();
    f.replace([mk('a', 1), mk('b', 1)], '5');
    expect(f.hasSynced()).toBe(false);
    await drain();
    expect(f.hasSynced()).toBe(true);
  });

  it('transforms the replaced objects as they enter the queue (addReplaceToItemsLocked)', async () => {
    const { f, drain } = atomicFifo((o) => ({ ...o, val: `t${String(o.val)}` }));
    f.replace([mk('a', 1)], '5');
    expect(await drain()).toEqual([
      { type: 'ReplacedAll', resourceVersion: '5', objects: [mk('a', 't1')], initial: true },
    ]);
  });

  it('refuses known objects with atomic events, and atomic events without a processor', () => {
    const known = { listKeys: () => [], getByKey: () => undefined };
    expect(() => new RealFIFO<TObj>({ atomicEvents: true, knownObjects: known, processAtomic: () => {} })).toThrow(
      'an atomic FIFO takes no knownObjects',
    );
    expect(() => new RealFIFO<TObj>({ atomicEvents: true })).toThrow('atomicEvents needs processAtomic');
    expect(() => new RealFIFO<TObj>({})).toThrow('RealFIFO requires knownObjects');
  });
});

const pod = (name: string, v = '1'): KubeObject => ({ metadata: { namespace: 'ns', name, labels: { v } } });

describe('processReplacedAllInfo through a shared informer (AtomicFIFO)', () => {
  let clock: FakeClock;
  let ctl: AbortController;
  let saved: RuntimeDefaults;
  beforeEach(() => {
    clock = new FakeClock();
    ctl = new AbortController();
    saved = setRuntimeDefaults({});
  });
  afterEach(() => {
    ctl.abort();
    setRuntimeDefaults(saved);
  });

  it('is off by default here; the gate turns it on for RealFIFO informers only', () => {
    expect(runtimeDefaults().atomicFIFO).toBe(false);
    const lw = new ScriptedListWatch({ clock });
    expect(newSharedIndexInformer({ listerWatcher: lw, clock }).atomicFIFO).toBe(false);
    setRuntimeDefaults({ atomicFIFO: true });
    expect(newSharedIndexInformer({ listerWatcher: lw, clock }).atomicFIFO).toBe(true);
    expect(newSharedIndexInformer({ listerWatcher: lw, clock, fifo: 'DeltaFIFO' }).atomicFIFO).toBe(false);
    expect(newSharedIndexInformer({ listerWatcher: lw, clock, atomicFIFO: false }).atomicFIFO).toBe(false);
  });

  for (const atomic of [true, false]) {
    it(`a relist: the store a handler sees during its first notification (atomic ${String(atomic)})`, async () => {
      const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a'), pod('b'), pod('c')] });
      const inf = newSharedIndexInformer<KubeObject>({
        listerWatcher: lw,
        objectType: 'v1/Pod',
        clock,
        random: () => 0,
        fifo: 'RealFIFO',
        atomicFIFO: atomic,
      });
      const seen: string[] = [];
      let storeAtFirst: string[] | undefined;
      const note = (what: string): void => {
        if (relisting && storeAtFirst === undefined) storeAtFirst = inf.getStore().listKeys().sort();
        seen.push(what);
      };
      let relisting = false;
      inf.addEventHandler({
        onAdd: (o, initial) => note(`add ${o.metadata.name ?? ''} ${String(initial)}`),
        onUpdate: (_o, n) => note(`update ${n.metadata.name ?? ''}`),
        onDelete: (o) =>
          note(`delete ${o instanceof DeletedFinalStateUnknown ? `tombstone ${o.key}` : (o.metadata.name ?? '')}`),
      });
      void inf.run(ctl.signal);
      await flushMicrotasks();
      expect(seen.splice(0)).toEqual(['add a true', 'add b true', 'add c true']);
      expect(inf.hasSynced()).toBe(true);
      // Missed while disconnected: a and c deleted, d created, b changed; then a relist.
      lw.delete(pod('a'), { dropWatch: true });
      lw.delete(pod('c'), { dropWatch: true });
      lw.add(pod('d'), { dropWatch: true });
      lw.update(pod('b', '2'), { dropWatch: true });
      relisting = true;
      lw.compact();
      lw.closeWatches();
      await clock.advance(2000);
      expect(seen).toEqual(['delete tombstone ns/a', 'delete tombstone ns/c', 'update b', 'add d false']);
      // Atomic: the indexer already holds the new list; otherwise it is changed one delta at a time.
      expect(storeAtFirst).toEqual(atomic ? ['ns/b', 'ns/d'] : ['ns/b', 'ns/c']);
      expect(inf.getStore().listKeys().sort()).toEqual(['ns/b', 'ns/d']);
    });
  }

  it('a resync (SyncAll) is an update with the same object for everything stored, to handlers due one', async () => {
    setRuntimeDefaults({ atomicFIFO: true });
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a'), pod('b')] });
    const inf = newSharedIndexInformer<KubeObject>({ listerWatcher: lw, clock, resyncPeriodMs: 1000, random: () => 0 });
    const resynced: string[] = [];
    const quiet: string[] = [];
    inf.addEventHandler(
      { onUpdate: (o, n) => void resynced.push(`${o.metadata.name ?? ''}:${String(o === n)}`) },
      { resyncPeriodMs: 1000 },
    );
    inf.addEventHandler({ onUpdate: (o) => void quiet.push(o.metadata.name ?? '') }, { resyncPeriodMs: 0 });
    void inf.run(ctl.signal);
    await flushMicrotasks();
    await clock.advance(1000);
    await flushMicrotasks();
    expect(resynced.sort()).toEqual(['a:true', 'b:true']);
    expect(quiet).toEqual([]);
  });
});
