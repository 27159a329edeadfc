// The runtime's own informer stack (Reflector → FIFO → Indexer → handlers) over each server, in both of
// its start-up modes: LIST then WATCH, and one WatchList stream synced by the initial-events-end bookmark.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { DeletedFinalStateUnknown, newSharedIndexInformer } from '../../../server/runtime/cache';
import { newListWatchFromClient } from '../../../server/runtime/client';
import { configMap, CONFIGMAPS_GVR, eventually, newNamespace } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

export function informerCases(target: GetTarget, _targetName: TargetName): void {
  describe('shared informer', () => {
    for (const useWatchList of [false, true]) {
      it(`syncs, then follows adds, updates and deletes (${useWatchList ? 'WatchList' : 'LIST+WATCH'})`, async () => {
        const t = target();
        const ns = await newNamespace(t);
        await t.client.create(configMap(ns, 'pre-1'));
        await t.client.create(configMap(ns, 'pre-2'));
        const informer = newSharedIndexInformer<KubeObject>({
          listerWatcher: newListWatchFromClient({ http: t.http, gvr: CONFIGMAPS_GVR, namespace: ns }),
          objectType: 'v1/ConfigMap',
          useWatchList,
        });
        const seen: string[] = [];
        informer.addEventHandler({
          onAdd: (o, initial) => seen.push(`add ${o.metadata.name}${initial ? ' (initial)' : ''}`),
          onUpdate: (_old, o) => seen.push(`update ${o.metadata.name} ${String((o.data as { k?: string }).k)}`),
          onDelete: (o) => seen.push(`delete ${o instanceof DeletedFinalStateUnknown ? o.key : o.metadata.name}`),
        });
        const stop = new AbortController();
        const running = informer.run(stop.signal);
        try {
          await eventually('the informer to sync', async () => (informer.hasSynced() ? true : undefined));
          expect(informer.getStore().listKeys().sort()).toEqual([`${ns}/pre-1`, `${ns}/pre-2`]);
          expect([...seen].sort()).toEqual(['add pre-1 (initial)', 'add pre-2 (initial)']);

          const c = await t.client.create(configMap(ns, 'live'));
          await t.client.update({ ...c, data: { k: 'v2' } });
          await t.client.delete(configMap(ns, 'pre-1'));
          await eventually('the changes to reach the handler', async () => (seen.length >= 5 ? true : undefined));
          expect(seen.slice(2)).toEqual(['add live', 'update live v2', 'delete pre-1']);
          expect(informer.getStore().listKeys().sort()).toEqual([`${ns}/live`, `${ns}/pre-2`]);
          const live = informer
            .getStore()
            .list()
            .find((o) => o.metadata.name === 'live');
          expect(live?.data).toEqual({ k: 'v2' });
        } finally {
          stop.abort();
          await running;
        }
      });
    }
  });
}
