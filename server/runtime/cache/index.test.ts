import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { DeletedFinalStateUnknown } from './interfaces';
import { NAMESPACE_INDEX, metaNamespaceIndexFunc, newIndexer } from './indexer';
import { deletionHandlingMetaNamespaceKeyFunc, metaNamespaceKeyFunc } from './keys';

const pod = (
  name: string,
  labels: Record<string, string> = {},
  annotations: Record<string, string> = {},
): KubeObject => ({
  metadata: { namespace: 'ns', name, labels, annotations },
});
const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata.name ?? '').sort();

describe('index_test', () => {
  it('index contract: Index returns objects sharing the value', () => {
    interface O {
      id: string;
      val: string;
    }
    const idx = newIndexer<O>((o) => (o as O).id, { by_val: (o) => [o.val] });
    for (const [id, val] of [
      ['a', 'b'],
      ['c', 'b'],
      ['e', 'f'],
      ['g', 'h'],
    ] as const)
      idx.add({ id, val });
    expect(
      idx
        .index('by_val', { id: 'x', val: 'b' })
        .map((o) => o.id)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(idx.index('by_val', { id: 'x', val: 'f' }).map((o) => o.id)).toEqual(['e']);
    expect(idx.index('by_val', { id: 'x', val: 'h' }).map((o) => o.id)).toEqual(['g']);
  });

  it('TestGetIndexFuncValues', () => {
    const idx = newIndexer<KubeObject>(metaNamespaceKeyFunc, { testmodes: (o) => [o.metadata.labels?.foo ?? ''] });
    idx.add(pod('one', { foo: 'bar' }));
    idx.add(pod('two', { foo: 'bar' }));
    idx.add(pod('tre', { foo: 'biz' }));
    expect(idx.listIndexFuncValues('testmodes').sort()).toEqual(['bar', 'biz']);
  });

  it('TestMultiIndexKeys', () => {
    const byUser = (o: KubeObject): string[] => (o.metadata.annotations?.users ?? '').split(',');
    const idx = newIndexer<KubeObject>(metaNamespaceKeyFunc, { byUser });
    idx.add(pod('one', {}, { users: 'ernie,bert' }));
    idx.add(pod('two', {}, { users: 'bert,oscar' }));
    idx.add(pod('tre', {}, { users: 'ernie,elmo' }));
    expect(names(idx.byIndex('byUser', 'ernie'))).toEqual(['one', 'tre']);
    expect(names(idx.byIndex('byUser', 'bert'))).toEqual(['one', 'two']);
    expect(names(idx.byIndex('byUser', 'elmo'))).toEqual(['tre']);
    expect(names(idx.byIndex('byUser', 'oscar'))).toEqual(['two']);
    expect(idx.byIndex('byUser', 'elmo1')).toEqual([]);
    expect(idx.indexKeys('byUser', 'ernie')).toEqual(['ns/one', 'ns/tre']);

    idx.delete(pod('tre'));
    expect(names(idx.byIndex('byUser', 'ernie'))).toEqual(['one']);
    expect(idx.byIndex('byUser', 'elmo')).toEqual([]);

    idx.update(pod('two', {}, { users: 'oscar' }));
    expect(names(idx.byIndex('byUser', 'bert'))).toEqual(['one']);
  });

  it('unknown index names error in Index/ByIndex/IndexKeys but not ListIndexFuncValues', () => {
    const idx = newIndexer<KubeObject>(metaNamespaceKeyFunc, {});
    expect(() => idx.byIndex('nope', 'x')).toThrow('Index with name nope does not exist');
    expect(() => idx.index('nope', pod('a'))).toThrow('Index with name nope does not exist');
    expect(() => idx.indexKeys('nope', 'x')).toThrow('Index with name nope does not exist');
    expect(idx.listIndexFuncValues('nope')).toEqual([]);
  });

  it('namespace index', () => {
    const idx = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {
      [NAMESPACE_INDEX]: metaNamespaceIndexFunc,
    });
    idx.add({ metadata: { namespace: 'a', name: 'x' } });
    idx.add({ metadata: { namespace: 'b', name: 'y' } });
    idx.add({ metadata: { name: 'node' } });
    expect(idx.indexKeys(NAMESPACE_INDEX, 'a')).toEqual(['a/x']);
    expect(idx.indexKeys(NAMESPACE_INDEX, '')).toEqual(['node']);
    idx.delete(new DeletedFinalStateUnknown('a/x', { metadata: { namespace: 'a', name: 'x' } }));
    expect(idx.listIndexFuncValues(NAMESPACE_INDEX).sort()).toEqual(['', 'b']);
  });

  it('AddIndexers indexes existing items and refuses a taken name', () => {
    const idx = newIndexer<KubeObject>(metaNamespaceKeyFunc, { [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
    idx.add(pod('one', { app: 'x' }));
    idx.addIndexers({ app: (o) => [o.metadata.labels?.app ?? ''] });
    expect(idx.indexKeys('app', 'x')).toEqual(['ns/one']);
    expect(() => idx.addIndexers({ app: () => [] })).toThrow('indexer conflict: app');
    expect(Object.keys(idx.getIndexers()).sort()).toEqual(['app', 'namespace']);
  });
});
