import { describe, expect, it } from 'vitest';
import { ErrFIFOClosed, ErrRequeue, FIFO } from './fifo';

interface TObj {
  name: string;
  val: number;
}
const mk = (name: string, val: number): TObj => ({ name, val });
const fifo = (): FIFO<TObj> => new FIFO<TObj>({ keyFunction: (o) => (o as TObj).name });
const pop = (f: FIFO<TObj>): Promise<TObj> => f.pop(() => {});

describe('fifo_test', () => {
  it('TestFIFO_basic: latest object per key, first-arrival order', async () => {
    const f = fifo();
    f.add(mk('a', 1));
    f.add(mk('b', 2));
    f.update(mk('a', 3));
    expect(await pop(f)).toEqual(mk('a', 3));
    expect(await pop(f)).toEqual(mk('b', 2));
  });

  it('TestFIFO_addUpdate + delete: a deleted key is skipped at pop', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    f.delete(mk('foo', 10));
    f.add(mk('bar', 1));
    expect(await pop(f)).toEqual(mk('bar', 1));
    expect(f.listKeys()).toEqual([]);
  });

  it('TestFIFO_requeueOnPop', async () => {
    const f = fifo();
    f.add(mk('foo', 10));
    await f.pop(() => {
      throw new ErrRequeue();
    });
    expect(f.getByKey('foo')).toEqual(mk('foo', 10));
    await expect(
      f.pop(() => {
        throw new ErrRequeue(new Error('test error'));
      }),
    ).rejects.toThrow('test error');
    expect(f.getByKey('foo')).toBeDefined();
    await pop(f);
    expect(f.getByKey('foo')).toBeUndefined();
  });

  it('TestFIFO_addIfNotPresent', async () => {
    const f = fifo();
    f.add(mk('a', 1));
    f.add(mk('b', 2));
    f.addIfNotPresent(mk('b', 3));
    f.addIfNotPresent(mk('c', 4));
    expect((await Promise.all([pop(f), pop(f), pop(f)])).map((o) => o.val)).toEqual([1, 2, 4]);
  });

  it('Replace swaps contents and requeues every key; HasSynced after the initial batch', async () => {
    const f = fifo();
    f.replace([mk('a', 1), mk('b', 2)], '1');
    expect(f.hasSynced()).toBe(false);
    await pop(f);
    expect(f.hasSynced()).toBe(false);
    await pop(f);
    expect(f.hasSynced()).toBe(true);
  });

  it('Resync does not queue a key twice', async () => {
    const f = fifo();
    f.add(mk('a', 1));
    expect(f.resync()).toBe(0);
    expect(await pop(f)).toEqual(mk('a', 1));
    expect(f.resync()).toBe(0);
    let popped = false;
    const next = f.pop(() => (popped = true)).catch((e: unknown) => e);
    await Promise.resolve();
    expect(popped).toBe(false);
    f.close();
    expect(await next).toBe(ErrFIFOClosed);
  });

  it('close unblocks pops', async () => {
    const f = fifo();
    const p = pop(f).catch((e: unknown) => e);
    f.close();
    expect(await p).toBe(ErrFIFOClosed);
  });
});
