import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { objectSourceOver } from './cache-object-source';
import { cache as rcache, metaNamespaceKeyFunc, type InformerCache } from '../runtime';

describe('objectSourceOver', () => {
  it("shows objects without managedFields while the controller's cache keeps them", () => {
    const indexer = rcache.newIndexer<KubeObject>(metaNamespaceKeyFunc, {});
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'ns', name: 'a', managedFields: [{ manager: 'kubectl' }] },
    };
    indexer.add(obj);
    const cache = { indexerFor: (id: string) => (id === 'v1/ConfigMap' ? indexer : undefined) };
    const source = objectSourceOver(() => cache as unknown as InformerCache);
    expect(source.get('v1/ConfigMap', 'ns', 'a')?.metadata.managedFields).toBeUndefined();
    expect(indexer.getByKey('ns/a')?.metadata.managedFields).toHaveLength(1);
  });
});
