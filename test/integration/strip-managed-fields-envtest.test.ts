// Against kube-apiserver: an informer with transformStripManagedFields() never parses the managedFields the
// server writes into every object (the cut at decode takes them out of the LIST body, the WatchList stream and
// each watch line), and stores what a GET followed by the strip gives.
import { afterEach, expect, it, vi } from 'vitest';
import type { KubeList, KubeObject } from '../../shared/models/object';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { getConfig } from '../../server/runtime/client';
import { HttpClient } from '../../server/runtime/client/http';
import { newListWatchFromClient } from '../../server/runtime/client/list-watch';
import { dropManagedFields, newSharedIndexInformer, transformStripManagedFields } from '../../server/runtime/cache';

const PATH = '/api/v1/namespaces/default/configmaps';

describeEnvtest('the strip transform skips parsing managedFields from kube-apiserver', () => {
  const plane = useControlPlane();
  afterEach(() => vi.restoreAllMocks());

  for (const useWatchList of [false, true]) {
    it(`${useWatchList ? 'WatchList' : 'LIST + WATCH'}: no managedFields parsed, objects as GET then strip`, async () => {
      const http = new HttpClient({ config: getConfig({ kubeconfig: plane().kubeconfigPath, argv: [], env: {} }) });
      const prefix = `strip-${useWatchList ? 'wl' : 'lw'}-`;
      const configMap = (n: number): KubeObject => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: `${prefix}${n}`,
          labels: { app: 'strip' },
          annotations: { note: '{"metadata":{"managedFields":[{"manager":"x"}]}}' },
        },
        data: { key: 'a "quoted" [value] with \\ and {braces}', json: '{"managedFields":[1,2]}' },
      });
      for (const n of [0, 1]) await http.request({ method: 'POST', path: PATH, body: configMap(n) });

      // What the informer's decoding parses (recording paused while the test itself creates an object).
      const texts: string[] = [];
      let recording = true;
      const parse = JSON.parse;
      vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
        if (recording && text.includes(`"name":"${prefix}`)) texts.push(text);
        return parse(text, reviver);
      });
      const informer = newSharedIndexInformer<KubeObject>({
        listerWatcher: newListWatchFromClient({
          http,
          gvr: { group: '', version: 'v1', resource: 'configmaps' },
          namespace: 'default',
          labelSelector: 'app=strip',
        }),
        objectType: 'v1/ConfigMap',
        useWatchList,
        transform: transformStripManagedFields(),
      });
      const added = new Set<string>();
      let sawThird!: () => void;
      const third = new Promise<void>((r) => (sawThird = r));
      informer.addEventHandler({
        onAdd: (o) => {
          if (o.metadata.name?.startsWith(prefix)) added.add(o.metadata.name);
          if (o.metadata.name === `${prefix}2`) sawThird();
        },
      });
      const ctl = new AbortController();
      const running = informer.run(ctl.signal);
      try {
        await vi.waitFor(() => expect(informer.hasSynced()).toBe(true), { timeout: 20_000 });
        recording = false;
        await http.request({ method: 'POST', path: PATH, body: configMap(2) });
        recording = true;
        await third;
      } finally {
        ctl.abort();
        await running;
        vi.restoreAllMocks();
      }
      expect([...added].sort()).toEqual([0, 1, 2].map((n) => `${prefix}${n}`));
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts) expect(t).not.toContain('"managedFields":[');

      // The server did send managedFields: a plain GET has them, and the informer holds that object stripped.
      const list = await http.request<KubeList>({ path: PATH, query: { labelSelector: 'app=strip' } });
      const mine = list.items.filter((o) => o.metadata.name?.startsWith(prefix));
      expect(mine.every((o) => Array.isArray(o.metadata.managedFields))).toBe(true);
      for (const o of mine) {
        const stored = informer.getStore().getByKey(`default/${o.metadata.name}`);
        expect(stored).toEqual(dropManagedFields({ ...o, apiVersion: 'v1', kind: 'ConfigMap' }));
      }
    });
  }
});
