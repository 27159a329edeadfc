import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../testing/fake-clock';
import type { Deltas } from './delta-fifo';
import { ErrFIFOClosed } from './fifo';
import type { KeyListerGetter } from './reflector-store';
import { literalLister, mk, nameKey, replaceMakesDeletionsCases, tomb, type TObj } from '../testing/fifo-fixtures';
import { RealFIFO } from './real-fifo';
import type { RuntimeEvent } from '../../../shared/protocol/events';

const fifo = (known: KeyListerGetter<TObj> = literalLister(), transformer?: (o: TObj) => TObj): RealFIFO<TObj> =>
  new RealFIFO<TObj>({ keyFunction: nameKey, knownObjects: known, ...(transformer ? { transformer } : {}) });
const pop = (f: RealFIFO<TObj>): Promise<Deltas<TObj>> => f.pop(() => {});
const val = (d: Deltas<TObj>): unknown => (d[0]?.object as TObj).val;

async function drain(f: RealFIFO<TObj>): Promise<Deltas<TObj>[]> {
  const out: Deltas<TObj>[] = [];
  while (f.length > 0) out.push(await pop(f));
  return out;
}
/** All popped deltas, flattened (each pop yields exactly one). */
const flat = async (f: RealFIFO<TObj>): Promise<Deltas<TObj>> => (await drain(f)).flat();

describe('the_real_fifo_test', () => {
  it('TestRealFIFO_replaceWithDeleteDeltaIn: a queued Delete, then a Replaced for the relisted object', async () => {
    const f = fifo(literalLister(mk('foo', 1)));
    f.delete(mk('foo', 1));
    f.replace([mk('foo', 2)], '');
    expect(await flat(f)).toEqual([
      { type: 'Deleted', object: mk('foo', 1) },
      { type: 'Replaced', object: mk('foo', 2) },
    ]);
  });

  it('popReady processes the head at once, as pop would, and does nothing when the queue is empty', () => {
    const f = fifo();
    const processed: unknown[] = [];
    const process = (d: Deltas<TObj>, initial: boolean): void => void processed.push([val(d), initial]);
    expect(f.popReady(process)).toBeUndefined();
    f.add(mk('foo', 1));
    f.update(mk('foo', 2));
    expect(f.popReady(process)?.map((d) => d.type)).toEqual(['Added']);
    expect(f.popReady(process)?.map((d) => d.type)).toEqual(['Updated']);
    expect(f.popReady(process)).toBeUndefined();
    expect(processed).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it('requires knownObjects', () => {
    expect(() => new RealFIFO<TObj>({ knownObjects: undefined as unknown as KeyListerGetter<TObj> })).toThrow();
  });

  it('TestRealFIFO_addUpdate: every change is delivered, one per pop', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.update(mk('foo', 12));
    f.delete(mk('foo', 15));
    const got = await drain(f);
    expect(got.map((d) => d.length)).toEqual([1, 1, 1]);
    expect(got.map((d) => [d[0]?.type, val(d)])).toEqual([
      ['Added', 10],
      ['Updated', 12],
      ['Deleted', 15],
    ]);
  });

  it('TestRealFIFO_enqueueingNoLister: deletes of never-seen keys are kept', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.update(mk('bar', 15));
    f.add(mk('qux', 17));
    f.delete(mk('qux', 18));
    f.delete(mk('baz', 20));
    expect((await drain(f)).map(val)).toEqual([10, 15, 17, 18, 20]);
  });

  it('TestRealFIFO_enqueueingWithLister', async () => {
    const f = fifo(literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7)));
    f.add(mk('foo', 10));
    f.update(mk('bar', 15));
    f.delete(mk('baz', 20));
    expect((await drain(f)).map(val)).toEqual([10, 15, 20]);
  });

  it('TestRealFIFO_detectLineJumpers: every event in order', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.add(mk('bar', 1));
    f.add(mk('foo', 11));
    f.add(mk('foo', 13));
    f.add(mk('zab', 30));
    expect(val(await pop(f))).toBe(10);
    f.add(mk('foo', 14));
    expect((await drain(f)).map(val)).toEqual([1, 11, 13, 30, 14]);
  });

  it('a replace whose list holds an object without a key queues nothing and says which object', () => {
    const f = new RealFIFO<TObj>({
      keyFunction: (o) => {
        const { name } = o as TObj;
        if (!name) throw new Error('object has no name');
        return name;
      },
      knownObjects: literalLister(),
    });
    expect(() => f.replace([mk('a', 1), mk('', 2)], '0')).toThrow(/no name/);
    expect(f.length).toBe(0);
  });

  it('TestRealFIFO_addReplace: deletions come before replacements', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.replace([mk('foo', 15)], '0');
    expect(await flat(f)).toEqual([
      { type: 'Added', object: mk('foo', 10) },
      { type: 'Replaced', object: mk('foo', 15) },
    ]);
  });

  it('TestRealFIFO_ResyncNonExisting / Resync / UpdateResyncRace', async () => {
    let f = fifo(literalLister(mk('foo', 5)));
    f.delete(mk('foo', 10));
    f.resync();
    expect(f.list().map((d) => d.type)).toEqual(['Deleted']);

    f = fifo(literalLister(mk('foo', 5)));
    f.resync();
    expect(f.list()).toEqual([{ type: 'Sync', object: mk('foo', 5) }]);

    f = fifo(literalLister(mk('foo', 5)));
    f.update(mk('foo', 6));
    f.resync();
    expect(await flat(f)).toEqual([{ type: 'Updated', object: mk('foo', 6) }]);
  });

  it('resync skips a key again once its queued deltas were popped only in part', async () => {
    const f = fifo(literalLister(mk('foo', 5), mk('bar', 6)));
    f.update(mk('foo', 6));
    f.update(mk('foo', 7));
    await pop(f);
    f.resync();
    expect(f.list().map((d) => [d.type, (d.object as TObj).name])).toEqual([
      ['Updated', 'foo'],
      ['Sync', 'bar'],
    ]);
  });

  it('pendingForKey counts what was queued before a probe started listening, and what is popped meanwhile', async () => {
    const probe = {
      enabled: false,
      events: [] as RuntimeEvent[],
      emit: (e: RuntimeEvent) => void probe.events.push(e),
    };
    const f = new RealFIFO<TObj>({ keyFunction: nameKey, knownObjects: literalLister(), probe });
    f.add(mk('foo', 1));
    f.update(mk('foo', 2));
    f.add(mk('bar', 1));
    probe.enabled = true;
    f.update(mk('foo', 3));
    await pop(f);
    f.update(mk('foo', 4));
    probe.enabled = false;
    await pop(f);
    f.add(mk('baz', 1));
    probe.enabled = true;
    f.update(mk('bar', 2));
    const pending = probe.events.flatMap((e) => (e.kind === 'fifo.delta' ? [[e.key, e.pendingForKey]] : []));
    expect(pending).toEqual([
      ['foo', 3],
      ['foo', 3],
      ['bar', 2],
    ]);
  });

  it('TestRealFIFO_ReplaceMakesDeletions', async () => {
    const known = (): KeyListerGetter<TObj> => literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7));
    let f = fifo(known());
    f.delete(mk('baz', 10));
    f.replace([mk('foo', 5)], '0');
    expect(await flat(f)).toEqual([
      { type: 'Deleted', object: mk('baz', 10) },
      { type: 'Deleted', object: tomb('bar', mk('bar', 6)) },
      { type: 'Replaced', object: mk('foo', 5) },
    ]);

    f = fifo(known());
    f.add(mk('baz', 10));
    f.replace([mk('foo', 5)], '0');
    expect(await flat(f)).toEqual([
      { type: 'Added', object: mk('baz', 10) },
      { type: 'Deleted', object: tomb('baz', mk('baz', 10)) },
      { type: 'Deleted', object: tomb('bar', mk('bar', 6)) },
      { type: 'Replaced', object: mk('foo', 5) },
    ]);
  });

  describe('TestRealFIFO_ReplaceMakesDeletionsForObjectsOnlyInQueue', () => {
    const cases = replaceMakesDeletionsCases('Replaced');
    for (const c of cases) {
      it(c.name, async () => {
        const f = fifo();
        c.ops(f);
        expect(await flat(f)).toEqual(c.want);
      });
    }
  });

  it('TestRealFIFO_HasSyncedCorrectOnDeletion: initial count covers deletions; decremented after processing', async () => {
    const f = fifo(literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7)));
    f.replace([mk('foo', 5)], '0');
    const seen: [string | undefined, boolean, boolean][] = [];
    for (let i = 0; i < 3; i++) {
      expect(f.hasSynced()).toBe(false);
      await f.pop((d, initial) => seen.push([d[0]?.type, initial, f.hasSynced()]));
    }
    expect(seen).toEqual([
      ['Deleted', true, false],
      ['Deleted', true, false],
      ['Replaced', true, false],
    ]);
    expect(f.hasSynced()).toBe(true);
  });

  it('HasSynced table', async () => {
    const run = async (actions: ((f: RealFIFO<TObj>) => unknown)[]): Promise<boolean> => {
      const f = fifo();
      for (const a of actions) await a(f);
      return f.hasSynced();
    };
    expect(await run([])).toBe(false);
    expect(await run([(f) => f.add(mk('a', 1))])).toBe(true);
    expect(await run([(f) => f.replace([], '0')])).toBe(true);
    expect(await run([(f) => f.replace([mk('a', 1), mk('b', 2)], '0')])).toBe(false);
    expect(await run([(f) => f.replace([mk('a', 1), mk('b', 2)], '0'), pop])).toBe(false);
    expect(await run([(f) => f.replace([mk('a', 1), mk('b', 2)], '0'), pop, pop])).toBe(true);
  });

  it('onSynced fires once, after the last initial item was processed', async () => {
    const events: string[] = [];
    const f = new RealFIFO<TObj>({
      keyFunction: nameKey,
      knownObjects: literalLister(),
      onSynced: () => events.push('synced'),
    });
    f.replace([mk('a', 1)], '1');
    await f.pop(() => events.push('process a'));
    f.replace([mk('a', 2)], '2');
    await pop(f);
    expect(events).toEqual(['process a', 'synced']);
  });

  it('TestRealFIFO_PopShouldUnblockWhenClosed', async () => {
    const f = fifo();
    const pops = Array.from({ length: 10 }, () =>
      pop(f).then(
        () => 'item',
        (e: unknown) => e,
      ),
    );
    await flushMicrotasks();
    f.close();
    for (const p of await Promise.all(pops)) expect(p).toBe(ErrFIFOClosed);
  });

  it('TestRealFIFO_transformer: tombstones wrap the transformed object, transformed once', async () => {
    const f = fifo(literalLister(), (o) => ({ ...o, val: `t(${String(o.val)})` }));
    f.add(mk('foo', 10));
    f.replace([], '1');
    expect(await flat(f)).toEqual([
      { type: 'Added', object: mk('foo', 't(10)') },
      { type: 'Deleted', object: tomb('foo', mk('foo', 't(10)')) },
    ]);
  });

  it('process errors are returned and the item is not requeued', async () => {
    const f = fifo();
    f.add(mk('a', 1));
    await expect(
      f.pop(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(f.length).toBe(0);
  });
});
