import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { Controller, filteringResourceEventHandler, newIndexerInformer, processDeltas } from './controller';
import { DeltaFIFO, type Deltas } from './delta-fifo';
import type { Queue } from './fifo';
import { DeletedFinalStateUnknown, type ResourceEventHandler } from './interfaces';
import { newIndexer } from './indexer';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import { RealFIFO } from './real-fifo';
import { freshClockEachTest } from '../testing/test-harness';

const pod = (name: string, rv: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: { namespace: 'ns', name, resourceVersion: rv, labels },
});

function recorder(history: string[]): ResourceEventHandler<KubeObject> {
  return {
    onAdd: (o, initial) => history.push(`add ${o.metadata.name}${initial ? ' (initial)' : ''}`),
    onUpdate: (_o, n) => history.push(`update ${n.metadata.name}`),
    onDelete: (o) =>
      history.push(`delete ${o instanceof DeletedFinalStateUnknown ? o.key.split('/')[1] : o.metadata.name}`),
  };
}

describe('controller_test', () => {
  for (const kind of ['RealFIFO', 'DeltaFIFO'] as const) {
    describe(`TestReplaceEvents (${kind})`, () => {
      const setup = async (initial: KubeObject[]) => {
        const indexer = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {});
        const history: string[] = [];
        const handler = recorder(history);
        const fifo: Queue<Deltas<KubeObject>, KubeObject> = kind === 'RealFIFO'
          ? new RealFIFO({ knownObjects: indexer })
          : new DeltaFIFO({ knownObjects: indexer, emitDeltaTypeReplaced: true });
        const drainAll = async (): Promise<void> => {
          for (;;) {
            const n = kind === 'RealFIFO' ? (fifo as RealFIFO).length : (fifo as DeltaFIFO).listKeys().length;
            if (n === 0) return;
            await fifo.pop((d, init) => processDeltas(handler, indexer, d, init));
          }
        };
        if (initial.length > 0) {
          fifo.replace(initial, '3');
          await drainAll();
        }
        history.length = 0;
        return { indexer, history, fifo, drainAll };
      };
      const initial = [pod('pod-1', '1'), pod('pod-2', '2', { ver: '1' }), pod('pod-3', '3')];

      it('replace with changes: deletes, updates and adds', async () => {
        const { indexer, history, fifo, drainAll } = await setup(initial);
        const list = [pod('pod-1', '4'), pod('pod-2', '5', { ver: '2' }), pod('pod-4', '6')];
        fifo.replace(list, '6');
        await drainAll();
        const expected =
          kind === 'RealFIFO'
            ? ['delete pod-3', 'update pod-1', 'update pod-2', 'add pod-4']
            : ['update pod-1', 'update pod-2', 'add pod-4', 'delete pod-3'];
        expect(history).toEqual(expected);
        expect(indexer.list().map((o) => [o.metadata.name, o.metadata.resourceVersion])).toEqual(
          list.map((o) => [o.metadata.name, o.metadata.resourceVersion]),
        );
      });

      it('delete all', async () => {
        const { indexer, history, fifo, drainAll } = await setup(initial);
        fifo.replace([], '6');
        await drainAll();
        expect([...history].sort()).toEqual(['delete pod-1', 'delete pod-2', 'delete pod-3']);
        expect(indexer.list()).toEqual([]);
      });

      it('create with no initial objects', async () => {
        const { history, fifo, drainAll } = await setup([]);
        fifo.replace([pod('pod-1', '1')], '1');
        await drainAll();
        expect(history).toEqual(['add pod-1 (initial)']);
      });
    });
  }

  it('processDeltas: Sync/Replaced for an unknown key is an add; Added for a known key is an update; store first', () => {
    const indexer = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {});
    const seen: string[] = [];
    const handler: ResourceEventHandler<KubeObject> = {
      onAdd: (o) =>
        seen.push(`add ${o.metadata.name} stored=${indexer.getByKey('ns/' + o.metadata.name) !== undefined}`),
      onUpdate: (old, n) => seen.push(`update ${old.metadata.resourceVersion}→${n.metadata.resourceVersion}`),
      onDelete: (o) => seen.push(`delete ${o instanceof DeletedFinalStateUnknown ? 'tombstone ' + o.key : 'obj'}`),
    };
    processDeltas(
      handler,
      indexer,
      [
        { type: 'Sync', object: pod('a', '1') },
        { type: 'Added', object: pod('a', '2') },
        { type: 'Deleted', object: new DeletedFinalStateUnknown('ns/a', pod('a', '2')) },
      ],
      false,
    );
    expect(seen).toEqual(['add a stored=true', 'update 1→2', 'delete tombstone ns/a']);
    expect(indexer.list()).toEqual([]);
  });

  it('processDeltas on a store without upsert: get, then add for a new key and update for a known one', () => {
    const items = new Map<string, KubeObject>();
    const calls: string[] = [];
    const keyOf = (o: KubeObject): string => `ns/${o.metadata.name}`;
    const store = {
      get: (o: KubeObject) => (calls.push('get'), items.get(keyOf(o))),
      add: (o: KubeObject) => void (calls.push('add'), items.set(keyOf(o), o)),
      update: (o: KubeObject) => void (calls.push('update'), items.set(keyOf(o), o)),
      delete: () => void calls.push('delete'),
    };
    const seen: string[] = [];
    const handler: ResourceEventHandler<KubeObject> = {
      onAdd: (o) => seen.push(`add ${o.metadata.resourceVersion}`),
      onUpdate: (old, n) => seen.push(`update ${old.metadata.resourceVersion}→${n.metadata.resourceVersion}`),
    };
    processDeltas(
      handler,
      store,
      [
        { type: 'Added', object: pod('a', '1') },
        { type: 'Updated', object: pod('a', '2') },
      ],
      false,
    );
    expect(calls).toEqual(['get', 'add', 'get', 'update']);
    expect(seen).toEqual(['add 1', 'update 1→2']);
  });

  it('FilteringResourceEventHandler: updates crossing the filter become adds or deletes', () => {
    const history: string[] = [];
    const h = filteringResourceEventHandler<KubeObject>(
      (o) => !(o instanceof DeletedFinalStateUnknown) && o.metadata.labels?.keep === 'y',
      recorder(history),
    );
    const yes = (rv: string) => pod('p', rv, { keep: 'y' });
    const no = (rv: string) => pod('p', rv, { keep: 'n' });
    h.onAdd?.(no('1'), false);
    h.onAdd?.(yes('1'), true);
    h.onUpdate?.(yes('1'), yes('2'));
    h.onUpdate?.(no('2'), yes('3'));
    h.onUpdate?.(yes('3'), no('4'));
    h.onUpdate?.(no('4'), no('5'));
    h.onDelete?.(no('5'));
    h.onDelete?.(yes('6'));
    expect(history).toEqual(['add p (initial)', 'update p', 'add p', 'delete p', 'delete p']);
  });

  describe('with a scripted API server', () => {
    let clock: FakeClock;
    let ctl: AbortController;
    freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

    for (const fifo of ['RealFIFO', 'DeltaFIFO'] as const) {
      it(`TestResetWatch (${fifo}): changes missed by the watch arrive through the relist, not as initial adds`, async () => {
        const lw = new ScriptedListWatch({ clock, initialObjects: [pod('pod-1', '')] });
        const history: string[] = [];
        const { controller } = newIndexerInformer({ listerWatcher: lw, handler: recorder(history), clock, fifo });
        const done = controller.run(ctl.signal);
        await flushMicrotasks();
        expect(controller.hasSynced()).toBe(true);
        expect(history).toEqual(['add pod-1 (initial)']);
        await clock.advance(1000);
        lw.update(pod('pod-1', '', { changed: 'y' }), { dropWatch: true });
        lw.add(pod('pod-2', ''), { dropWatch: true });
        lw.compact();
        lw.closeWatches();
        await clock.advance(2000);
        expect(history).toEqual(['add pod-1 (initial)', 'update pod-1', 'add pod-2']);
        expect(controller.lastSyncResourceVersion()).toBe('3');
        ctl.abort();
        await done;
      });
    }

    it('TestUpdate: transitions seen are FROM→TO, TO→TO or FROM→FROM, and each object is deleted once', async () => {
      const lw = new ScriptedListWatch({ clock });
      const transitions = new Set<string>();
      const deletes = new Map<string, number>();
      const handler: ResourceEventHandler<KubeObject> = {
        onAdd: (o) => {
          if (o.metadata.labels?.state === 'FROM')
            lw.update({ ...o, metadata: { ...o.metadata, labels: { state: 'TO' } } });
        },
        onUpdate: (old, n) => {
          transitions.add(`${old.metadata.labels?.state}→${n.metadata.labels?.state}`);
          if (n.metadata.labels?.state === 'TO') lw.delete(n);
        },
        onDelete: (o) => {
          const name = o instanceof DeletedFinalStateUnknown ? o.key : `ns/${o.metadata.name}`;
          deletes.set(name, (deletes.get(name) ?? 0) + 1);
        },
      };
      const { controller } = newIndexerInformer({ listerWatcher: lw, handler, clock });
      void controller.run(ctl.signal);
      await flushMicrotasks();
      for (let i = 0; i < 20; i++) lw.add(pod(`p${i}`, '', { state: 'FROM' }));
      await flushMicrotasks(20);
      for (const t of transitions) expect(['FROM→TO', 'TO→TO', 'FROM→FROM']).toContain(t);
      expect(deletes.size).toBe(20);
      expect([...deletes.values()].every((n) => n === 1)).toBe(true);
    });
  });
});

describe('Controller.run', () => {
  it('once stopped, items still queued are not processed', async () => {
    const fifo = new DeltaFIFO<KubeObject>();
    fifo.add(pod('a', '1'));
    const seen: string[] = [];
    const c = new Controller<KubeObject>({
      queue: fifo,
      listerWatcher: new ScriptedListWatch({ clock: new FakeClock() }),
      process: (d) => void seen.push(String((d[0]?.object as KubeObject).metadata.name)),
      clock: new FakeClock(),
    });
    const stop = new AbortController();
    stop.abort();
    await c.run(stop.signal);
    expect(seen).toEqual([]);
    expect(fifo.isClosed()).toBe(true);
  });

  for (const kind of ['RealFIFO', 'DeltaFIFO'] as const) {
    it(`works through a backlog in order, letting other work run between batches (${kind})`, async () => {
      const indexer = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {});
      const fifo: Queue<Deltas<KubeObject>, KubeObject> = kind === 'RealFIFO'
        ? new RealFIFO({ knownObjects: indexer })
        : new DeltaFIFO({ knownObjects: indexer });
      const n = 2500;
      for (let i = 0; i < n; i++) fifo.add(pod(`p${i}`, String(i + 1)));
      const seen: string[] = [];
      let otherWorkRanAfter: number | undefined;
      const stop = new AbortController();
      const c = new Controller<KubeObject>({
        queue: fifo,
        listerWatcher: new ScriptedListWatch({ clock: new FakeClock() }),
        process: (d) => {
          seen.push(String((d[0]?.object as KubeObject).metadata.name));
          if (seen.length === 1) setImmediate(() => (otherWorkRanAfter = seen.length));
          if (seen.length === n) stop.abort();
        },
        clock: new FakeClock(),
      });
      await c.run(stop.signal);
      expect(seen).toEqual(Array.from({ length: n }, (_, i) => `p${i}`));
      // A macrotask queued by the first item (as a watch's next chunk or a socket's ping would be) ran before
      // the backlog was through: the loop gives the event loop a turn once per batch of 1000.
      expect(otherWorkRanAfter).toBeDefined();
      expect(otherWorkRanAfter).toBeLessThan(n);
    });

    it(`yields between batches even when processing throws (${kind})`, async () => {
      const indexer = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {});
      const fifo: Queue<Deltas<KubeObject>, KubeObject> = kind === 'RealFIFO'
        ? new RealFIFO({ knownObjects: indexer })
        : new DeltaFIFO({ knownObjects: indexer });
      const n = 2500;
      for (let i = 0; i < n; i++) fifo.add(pod(`p${i}`, String(i + 1)));
      let processed = 0;
      let otherWorkRanAfter: number | undefined;
      const stop = new AbortController();
      const c = new Controller<KubeObject>({
        queue: fifo,
        listerWatcher: new ScriptedListWatch({ clock: new FakeClock() }),
        process: () => {
          processed++;
          if (processed === 1) setImmediate(() => (otherWorkRanAfter = processed));
          if (processed === n) stop.abort();
          throw new Error('handler failed');
        },
        clock: new FakeClock(),
      });
      await c.run(stop.signal);
      expect(processed).toBe(n);
      expect(otherWorkRanAfter).toBeLessThan(n);
    });
  }
});
