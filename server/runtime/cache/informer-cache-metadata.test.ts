// controller-runtime informer_cache_test.go / informers.go, the metadata cases: a PartialObjectMetadata
// kind gets its own informer (upstream keeps structured, unstructured and metadata informers apart), fed
// by a metadata list-watch.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { isMetadataOnly, partialObjectMetadata } from '../client/gvk';
import { FakeClock } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { InformerCache, type ListerWatcherRequest } from './informer-cache';

describe('InformerCache metadata informers', () => {
  it('partialObjectMetadata names the kind and marks it metadata-only', () => {
    expect(partialObjectMetadata('apps/v1/Deployment')).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadataOnly: true,
    });
    expect(isMetadataOnly(partialObjectMetadata('v1/Pod'))).toBe(true);
    expect(isMetadataOnly({ apiVersion: 'v1', kind: 'Pod' })).toBe(false);
  });

  it('keeps a kind’s metadata informer apart from its full one, each with its own list-watch', async () => {
    const clock = new FakeClock();
    const requests: ListerWatcherRequest[] = [];
    const cache = new InformerCache({
      clock,
      random: () => 0.5,
      readerFailOnMissingInformer: true,
      newListerWatcher: async (req) => {
        requests.push(req);
        return new ScriptedListWatch<KubeObject>({ clock, kind: req.gvk.kind });
      },
      isNamespaced: async () => true,
    });
    const ac = new AbortController();
    const run = cache.start(ac.signal);
    const meta = await cache.getInformer(partialObjectMetadata('v1/Pod'), { blockUntilSynced: false });
    expect(cache.kinds()).toEqual(['v1/Pod#metadata']);
    await expect(cache.get({ apiVersion: 'v1', kind: 'Pod' }, { namespace: 'a', name: 'b' })).rejects.toThrow(
      'v1/Pod is not cached',
    );
    const full = await cache.getInformer('v1/Pod', { blockUntilSynced: false });
    expect(full).not.toBe(meta);
    expect(await cache.getInformer(partialObjectMetadata('v1/Pod'), { blockUntilSynced: false })).toBe(meta);
    expect(requests.map((r) => [r.gvk.kind, r.metadataOnly ?? false])).toEqual([
      ['Pod', true],
      ['Pod', false],
    ]);
    cache.removeInformer(partialObjectMetadata('v1/Pod'));
    expect(cache.kinds()).toEqual(['v1/Pod']);
    ac.abort();
    await run;
  });
});
