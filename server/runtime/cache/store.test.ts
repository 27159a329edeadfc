import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { RecordingProbe } from '../testing/recording-probe';
import { FIFO } from './fifo';
import type { Store } from './interfaces';
import { newStore, CacheStore, TransactionError } from './store';

interface TestObj {
  id: string;
  val: string;
}
const mk = (id: string, val: string): TestObj => ({ id, val });
const idKey = (o: unknown): string => (o as TestObj).id;

/** The store contract (doTestStore). */
function doTestStore(store: Store<TestObj>): void {
  store.add(mk('foo', 'bar'));
  expect(store.get(mk('foo', ''))?.val).toBe('bar');
  store.update(mk('foo', 'baz'));
  expect(store.get(mk('foo', ''))?.val).toBe('baz');
  store.delete(mk('foo', ''));
  expect(store.get(mk('foo', ''))).toBeUndefined();

  store.add(mk('a', 'b'));
  store.add(mk('c', 'd'));
  store.add(mk('e', 'e'));
  expect(new Set(store.list().map((o) => o.val))).toEqual(new Set(['b', 'd', 'e']));

  store.replace([mk('foo', 'foo'), mk('bar', 'bar')], '0');
  expect(new Set(store.list().map((o) => o.val))).toEqual(new Set(['foo', 'bar']));
}

describe('store_test', () => {
  it('TestCache', () => doTestStore(newStore<TestObj>(idKey)));

  it('upsert stores the object and returns what its key held before', () => {
    const store = newStore<TestObj>(idKey, { indexers: {} });
    expect(store.upsert(mk('foo', 'a'))).toBeUndefined();
    expect(store.upsert(mk('foo', 'b'))).toEqual(mk('foo', 'a'));
    expect(store.getByKey('foo')).toEqual(mk('foo', 'b'));
    expect(store.size).toBe(1);
  });

  it('TestCache with a transformer', () => {
    const store = new CacheStore<TestObj>({ keyFunc: idKey, transformer: (o) => ({ ...o }) });
    doTestStore(store);
  });

  it('TestFIFOCache', () => doTestStore(new FIFO<TestObj>({ keyFunction: idKey })));

  it('a key error aborts Replace and leaves the store untouched', () => {
    const store = newStore<TestObj>((o) => {
      if ((o as TestObj).id === 'bad') throw new Error('no key');
      return (o as TestObj).id;
    });
    store.add(mk('keep', 'x'));
    expect(() => store.replace([mk('a', 'a'), mk('bad', 'b')], '1')).toThrow(/couldn't create key/);
    expect(store.listKeys()).toEqual(['keep']);
  });

  it('transformer errors are reported as "transforming: ..."', () => {
    const store = new CacheStore<TestObj>({
      keyFunc: idKey,
      transformer: () => {
        throw new Error('nope');
      },
    });
    expect(() => store.add(mk('a', 'b'))).toThrow('transforming: nope');
  });

  describe('TestTransaction', () => {
    const failing = (o: unknown): string => {
      if ((o as TestObj).val === 'fail') throw new Error('bad key');
      return (o as TestObj).id;
    };
    it('reports the indices that succeeded', () => {
      const store = newStore<TestObj>(failing);
      let err: unknown;
      try {
        store.transaction([
          { type: 'add', object: mk('a', 'ok') },
          { type: 'add', object: mk('b', 'fail') },
          { type: 'add', object: mk('c', 'ok') },
          { type: 'add', object: mk('d', 'fail') },
        ]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TransactionError);
      expect((err as TransactionError).successfulIndices).toEqual([0, 2]);
      expect((err as TransactionError).message).toMatch(/^failed to execute \(2\/4\) transactions failed due to/);
      expect(store.listKeys().sort()).toEqual(['a', 'c']);
    });
    it('all failing → empty list', () => {
      const store = newStore<TestObj>(failing);
      try {
        store.transaction([{ type: 'add', object: mk('b', 'fail') }]);
        expect.unreachable();
      } catch (e) {
        expect((e as TransactionError).successfulIndices).toEqual([]);
      }
    });
    it('all ok → no error', () => {
      const store = newStore<TestObj>(failing);
      expect(() => store.transaction([{ type: 'add', object: mk('a', 'ok') }])).not.toThrow();
    });
  });

  it('emits indexer.update and indexer.replace with refs, not objects', () => {
    const probe = new RecordingProbe();
    const store = newStore<KubeObject>((o) => (o as KubeObject).metadata.name ?? '', {
      probe,
      informer: 'v1/Pod',
      gvk: 'v1/Pod',
    });
    store.add({ metadata: { name: 'a', resourceVersion: '1' } });
    store.update({ metadata: { name: 'a', resourceVersion: '2' } });
    store.delete({ metadata: { name: 'a' } });
    store.replace([{ metadata: { name: 'b' } }], '3');
    expect(probe.ofKind('indexer.update').map((e) => [e.op, e.key, e.size])).toEqual([
      ['add', 'a', 1],
      ['update', 'a', 1],
      ['delete', 'a', 0],
    ]);
    expect(probe.ofKind('indexer.update')[1]?.ref).toEqual({ gvk: 'v1/Pod', name: 'a', resourceVersion: '2' });
    expect(probe.ofKind('indexer.replace')).toEqual([{ kind: 'indexer.replace', informer: 'v1/Pod', size: 1 }]);
    expect(store.size).toBe(1);
  });
});
