import { describe, expect, it } from 'vitest';
import { ThreadSafeStore } from './thread-safe-store';

const split = (o: { v: string }): string[] => o.v.split(',');

describe('thread_safe_store_test', () => {
  it('TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex', () => {
    const s = new ThreadSafeStore<{ v: string }>({ idx: (o) => [o.v] });
    s.add('a', { v: 'V' });
    s.delete('a');
    expect(s.listIndexFuncValues('idx')).toEqual([]);
  });

  it('TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex', () => {
    const s = new ThreadSafeStore<{ v: string }>({ idx: (o) => [o.v] });
    s.add('a', { v: 'V' });
    s.add('b', { v: 'V' });
    s.delete('a');
    expect(s.indexKeys('idx', 'V')).toEqual(['b']);
  });

  it('TestThreadSafeStoreIndexingFunctionsWithMultipleValues', () => {
    const s = new ThreadSafeStore<{ v: string }>({ test: split });
    const keys = (v: string): string[] => s.indexKeys('test', v);
    s.add('key1', { v: 'foo' });
    s.add('key2', { v: 'bar' });
    s.update('key2', { v: 'foo,bar' });
    expect(keys('foo')).toEqual(['key1', 'key2']);
    expect(keys('bar')).toEqual(['key2']);
    s.update('key1', { v: 'foo,bar' });
    expect(keys('bar')).toEqual(['key1', 'key2']);
    s.add('key3', { v: 'foo,bar,baz' });
    s.update('key1', { v: 'foo' });
    expect(keys('bar')).toEqual(['key2', 'key3']);
    s.update('key2', { v: 'bar' });
    expect(keys('foo')).toEqual(['key1', 'key3']);
    s.delete('key1');
    expect(keys('foo')).toEqual(['key3']);
    s.delete('key3');
    expect(keys('foo')).toEqual([]);
    expect(keys('baz')).toEqual([]);
    expect(keys('bar')).toEqual(['key2']);
  });

  it('replace rebuilds all indices and sets the store RV', () => {
    const s = new ThreadSafeStore<{ v: string }>({ test: split });
    s.add('old', { v: 'x' });
    s.replace(new Map([['n', { v: 'y,z' }]]), '7');
    expect(s.listIndexFuncValues('test').sort()).toEqual(['y', 'z']);
    expect(s.lastStoreSyncResourceVersion()).toBe('7');
    expect(s.size).toBe(1);
  });

  it('an index function that throws propagates (upstream panics)', () => {
    const s = new ThreadSafeStore<{ v: string }>({
      bad: () => {
        throw new Error('boom');
      },
    });
    expect(() => s.add('a', { v: '' })).toThrow('boom');
  });

  it('TestThreadSafeStoreRV (resource version tracking)', () => {
    interface M {
      metadata?: { resourceVersion?: string };
    }
    const s = new ThreadSafeStore<M>();
    const m = (rv: string): M => ({ metadata: { resourceVersion: rv } });
    expect(s.lastStoreSyncResourceVersion()).toBe('');
    s.add('key1', m('10'));
    expect(s.lastStoreSyncResourceVersion()).toBe('10');
    s.add('key2', m('10'));
    expect(s.lastStoreSyncResourceVersion()).toBe('10');
    s.add('key3', m('20'));
    expect(s.lastStoreSyncResourceVersion()).toBe('20');
    s.deleteWithObject('key4', m('30'));
    expect(s.lastStoreSyncResourceVersion()).toBe('30');
    s.add('key5', {});
    expect(s.lastStoreSyncResourceVersion()).toBe('30');
    s.add('key6', m('40'));
    expect(s.lastStoreSyncResourceVersion()).toBe('40');
    s.delete('key1');
    expect(s.lastStoreSyncResourceVersion()).toBe('40');
    s.transaction([
      { type: 'add', key: 'a', obj: m('40') },
      { type: 'update', key: 'b', obj: m('30') },
      { type: 'add', key: 'c', obj: m('50') },
    ]);
    expect(s.lastStoreSyncResourceVersion()).toBe('50');
    s.replace(new Map([['x', m('1')]]), '50');
    expect(s.lastStoreSyncResourceVersion()).toBe('50');
  });
});
