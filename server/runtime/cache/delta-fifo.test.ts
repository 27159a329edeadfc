import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../testing/fake-clock';
import { DeltaFIFO, ErrZeroLengthDeltasObject, type Deltas } from './delta-fifo';
import { ErrFIFOClosed, ErrRequeue } from './fifo';
import { DeletedFinalStateUnknown } from './interfaces';
import { KeyError, errorIs } from './keys';
import type { KeyListerGetter } from './reflector-store';
import { literalLister, mk, nameKey, tomb, type TObj } from '../testing/fifo-fixtures';

function fifo(opts: { known?: KeyListerGetter<TObj>; replaced?: boolean; transformer?: (o: TObj) => TObj } = {}) {
  return new DeltaFIFO<TObj>({
    keyFunction: nameKey,
    ...(opts.known ? { knownObjects: opts.known } : {}),
    ...(opts.replaced ? { emitDeltaTypeReplaced: true } : {}),
    ...(opts.transformer ? { transformer: opts.transformer } : {}),
  });
}

const pop = (f: DeltaFIFO<TObj>): Promise<Deltas<TObj>> => f.pop(() => {});
const newestVal = (d: Deltas<TObj>): unknown => (d[d.length - 1]?.object as TObj).val;

/** Pops everything queued (without blocking). */
async function drain(f: DeltaFIFO<TObj>): Promise<Deltas<TObj>[]> {
  const out: Deltas<TObj>[] = [];
  while (f.listKeys().length > 0) out.push(await pop(f));
  return out;
}

describe('delta_fifo_test', () => {
  it('TestDeltaFIFO_basic: two producers, per-producer order kept', async () => {
    const f = fifo();
    const produce = async (prefix: string, big: boolean): Promise<void> => {
      for (let i = 0; i < 500; i++) {
        f.add(mk(`${prefix}${i}`, big ? BigInt(i) : i));
        if (i % 50 === 0) await Promise.resolve();
      }
    };
    await Promise.all([produce('a', false), produce('b', true)]);
    let lastInt = -1;
    let lastBig = -1n;
    for (let i = 0; i < 1000; i++) {
      const v = newestVal(await pop(f));
      if (typeof v === 'bigint') {
        expect(v > lastBig).toBe(true);
        lastBig = v;
      } else {
        expect(v as number).toBeGreaterThan(lastInt);
        lastInt = v as number;
      }
    }
  });

  it('popReady processes the next key with all its deltas at once, and does nothing when none is queued', () => {
    const f = fifo();
    const processed: unknown[] = [];
    const process = (d: Deltas<TObj>): void => void processed.push(d.map((x) => (x.object as TObj).val));
    expect(f.popReady(process)).toBeUndefined();
    f.add(mk('foo', 1));
    f.add(mk('bar', 2));
    f.update(mk('foo', 3));
    expect(f.popReady(process)?.length).toBe(2);
    expect(f.popReady(process)?.length).toBe(1);
    expect(f.popReady(process)).toBeUndefined();
    expect(processed).toEqual([[1, 3], [2]]);
  });

  it('TestDeltaFIFO_requeueOnPop', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    await f.pop(() => {
      throw new ErrRequeue();
    });
    expect(f.getByKey('foo')).toBeDefined();
    await expect(
      f.pop(() => {
        throw new ErrRequeue(new Error('test error'));
      }),
    ).rejects.toThrow('test error');
    expect(f.getByKey('foo')).toBeDefined();
    await f.pop(() => {});
    expect(f.getByKey('foo')).toBeUndefined();
  });

  it('TestDeltaFIFO_addUpdate', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.update(mk('foo', 12));
    f.delete(mk('foo', 15));
    expect(f.list()).toEqual([mk('foo', 15)]);
    expect(f.listKeys()).toEqual(['foo']);
    expect(newestVal(await pop(f))).toBe(15);
    let second = false;
    const blocked = pop(f).then(
      () => (second = true),
      (e: unknown) => e,
    );
    await flushMicrotasks();
    expect(second).toBe(false);
    expect(f.getByKey('foo')).toBeUndefined();
    f.close();
    expect(await blocked).toBe(ErrFIFOClosed);
  });

  it('TestDeltaFIFO_enqueueingNoLister', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.update(mk('bar', 15));
    f.add(mk('qux', 17));
    f.delete(mk('qux', 18));
    f.delete(mk('baz', 20));
    expect((await drain(f)).map(newestVal)).toEqual([10, 15, 18]);
  });

  it('TestDeltaFIFO_enqueueingWithLister', async () => {
    const f = fifo({ known: literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7)) });
    f.add(mk('foo', 10));
    f.update(mk('bar', 15));
    f.delete(mk('baz', 20));
    expect((await drain(f)).map(newestVal)).toEqual([10, 15, 20]);
  });

  it('TestDeltaFIFO_addReplace', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.replace([mk('foo', 15)], '0');
    const got = await drain(f);
    expect(got.map(newestVal)).toEqual([15]);
  });

  it('TestDeltaFIFO_ResyncNonExisting', () => {
    const f = fifo({ known: literalLister(mk('foo', 5)) });
    f.delete(mk('foo', 10));
    f.resync();
    expect(f.getByKey('foo')?.map((d) => d.type)).toEqual(['Deleted']);
  });

  it('TestDeltaFIFO_Resync', () => {
    const f = fifo({ known: literalLister(mk('foo', 5)) });
    f.resync();
    expect(f.getByKey('foo')?.map((d) => d.type)).toEqual(['Sync']);
  });

  it('TestDeltaFIFO_UpdateResyncRace', async () => {
    const f = fifo({ known: literalLister(mk('foo', 5)) });
    f.update(mk('foo', 6));
    f.resync();
    expect(await pop(f)).toEqual([{ type: 'Updated', object: mk('foo', 6) }]);
    expect(f.listKeys()).toEqual([]);
  });

  it('TestDeltaFIFO_DeleteExistingNonPropagated', () => {
    const f = fifo({ known: literalLister() });
    f.add(mk('foo', 5));
    f.delete(mk('foo', 6));
    const d = f.getByKey('foo') ?? [];
    expect(d).toHaveLength(2);
    expect(d[1]?.type).toBe('Deleted');
  });

  it('TestDeltaFIFO_detectLineJumpers', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.add(mk('bar', 1));
    f.add(mk('foo', 11));
    f.add(mk('foo', 13));
    f.add(mk('zab', 30));
    expect(newestVal(await pop(f))).toBe(13);
    f.add(mk('foo', 14));
    expect((await drain(f)).map(newestVal)).toEqual([1, 30, 14]);
  });

  it('TestDeltaFIFO_KeyOf', () => {
    const f = fifo();
    expect(f.keyOf(mk('A', 1))).toBe('A');
    expect(f.keyOf(tomb('B', undefined))).toBe('B');
    expect(f.keyOf([{ type: 'Added', object: mk('C', 1) }])).toBe('C');
    expect(f.keyOf([{ type: 'Deleted', object: tomb('D', undefined) }])).toBe('D');
  });

  it('TestDeltaFIFO_HasSyncedCorrectOnDeletion', async () => {
    const f = fifo({ known: literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7)) });
    f.replace([mk('foo', 5)], '0');
    const want: Deltas<TObj>[] = [
      [{ type: 'Sync', object: mk('foo', 5) }],
      [{ type: 'Deleted', object: tomb('bar', mk('bar', 6)) }],
      [{ type: 'Deleted', object: tomb('baz', mk('baz', 7)) }],
    ];
    for (const w of want) {
      expect(f.hasSynced()).toBe(false);
      let initial: boolean | undefined;
      const got = await f.pop((_d, isInInitialList) => (initial = isInInitialList));
      expect(got).toEqual(w);
      expect(initial).toBe(true);
    }
    expect(f.hasSynced()).toBe(true);
  });

  describe('TestDeltaFIFO_HasSynced', () => {
    const cases: { name: string; actions: ((f: DeltaFIFO<TObj>) => unknown)[]; expected: boolean }[] = [
      { name: 'nothing', actions: [], expected: false },
      { name: 'Add', actions: [(f) => f.add(mk('a', 1))], expected: true },
      { name: 'Replace([])', actions: [(f) => f.replace([], '0')], expected: true },
      { name: 'Replace([a,b])', actions: [(f) => f.replace([mk('a', 1), mk('b', 2)], '0')], expected: false },
      {
        name: 'Replace([a,b]) + 1 pop',
        actions: [(f) => f.replace([mk('a', 1), mk('b', 2)], '0'), (f) => pop(f)],
        expected: false,
      },
      {
        name: 'Replace([a,b]) + 2 pops',
        actions: [(f) => f.replace([mk('a', 1), mk('b', 2)], '0'), (f) => pop(f), (f) => pop(f)],
        expected: true,
      },
      {
        name: 'Replace([a1,a2]) + 1 pop',
        actions: [(f) => f.replace([mk('a', 1), mk('a', 2)], '0'), (f) => pop(f)],
        expected: true,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const f = fifo();
        for (const a of c.actions) await a(f);
        expect(f.hasSynced()).toBe(c.expected);
      });
    }
  });

  it('TestDeltaFIFO_PopShouldUnblockWhenClosed', async () => {
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
    expect(f.isClosed()).toBe(true);
  });

  it('items still queued are returned after close, then ErrFIFOClosed', async () => {
    const f = fifo();
    f.add(mk('a', 1));
    f.close();
    expect(newestVal(await pop(f))).toBe(1);
    await expect(pop(f)).rejects.toBe(ErrFIFOClosed);
  });

  it('TestDeltaFIFO_transformer', async () => {
    interface Counted extends TObj {
      transformed: number;
    }
    const transformer = (o: TObj): TObj => ({ ...o, transformed: ((o as Counted).transformed ?? 0) + 1 }) as Counted;
    const f = fifo({ transformer });
    f.add(mk('foo', 10));
    f.add(mk('bar', 11));
    f.update(mk('foo', 12));
    f.delete(mk('foo', 15));
    f.replace([], '');
    f.add(mk('bar', 16));
    f.replace([], '');
    expect(f.listKeys()).toEqual(['foo', 'bar']);
    const foo = await pop(f);
    const fooNewest = foo[foo.length - 1];
    expect(fooNewest?.type).toBe('Deleted');
    expect(fooNewest?.object).toEqual({ name: 'foo', val: 15, transformed: 1 });
    const bar = await pop(f);
    const barNewest = bar[bar.length - 1]?.object;
    expect(barNewest).toBeInstanceOf(DeletedFinalStateUnknown);
    expect((barNewest as DeletedFinalStateUnknown<Counted>).obj).toEqual({ name: 'bar', val: 16, transformed: 1 });
  });

  it('transforms the objects Replace queues as Sync deltas (they come from a list), not a resync of cached ones', async () => {
    let calls = 0;
    const transformer = (o: TObj): TObj => (calls++, { ...o, val: (o.val as number) + 100 });
    const known = new Map<string, TObj>([['a', mk('a', 1)]]);
    const knownObjects: KeyListerGetter<TObj> = { listKeys: () => [...known.keys()], getByKey: (k) => known.get(k) };
    const f = fifo({ transformer, known: knownObjects });
    f.replace([mk('a', 2)], '2');
    expect(calls).toBe(1);
    const listed = await pop(f);
    expect(listed[0]).toMatchObject({ type: 'Sync', object: { name: 'a', val: 102 } });
    f.resync();
    expect(calls).toBe(1);
  });

  it('TestDeltaFIFO_addIfNotPresent', async () => {
    const f = fifo();
    let err: unknown;
    try {
      f.addIfNotPresent([]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KeyError);
    expect(errorIs(err, ErrZeroLengthDeltasObject)).toBe(true);

    f.add(mk('b', 3));
    const b3 = await pop(f);
    f.add(mk('c', 4));
    const c4 = await pop(f);
    expect(f.listKeys()).toEqual([]);

    f.add(mk('a', 1));
    f.add(mk('b', 2));
    f.addIfNotPresent(b3);
    f.addIfNotPresent(c4);
    expect(f.listKeys()).toHaveLength(3);
    expect((await drain(f)).map(newestVal)).toEqual([1, 2, 4]);
  });

  it('Get returns a copy', () => {
    const f = fifo();
    f.add(mk('a', 1));
    const got = f.getByKey('a') ?? [];
    got.push({ type: 'Updated', object: mk('a', 2) });
    expect(f.getByKey('a')).toHaveLength(1);
  });
});
