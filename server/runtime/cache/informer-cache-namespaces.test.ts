// controller-runtime pkg/cache/cache_test.go, the multi-namespace cases (DefaultNamespaces and
// ByObject.Namespaces): one informer per namespace behind one reader, reads routed by namespace, lists
// across them, and the errors for a namespace the cache does not watch.
import { describe, expect, it } from 'vitest';
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { InformerCache, type InformerCacheOptions, type ListerWatcherRequest } from './informer-cache';
import { shutDownEventHandler } from './shared-informer';

const POD: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' };
const NODE: GroupVersionKind = { group: '', version: 'v1', kind: 'Node' };
const CM: GroupVersionKind = { group: '', version: 'v1', kind: 'ConfigMap' };

const obj = (kind: string, ns: string, name: string, sa = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { namespace: ns, name },
  spec: { serviceAccountName: sa },
});

/** Objects live in a fake server; each informer's list-watch sees what its request would select. */
function setup(o: Partial<InformerCacheOptions> = {}) {
  const clock = new FakeClock();
  const requests: ListerWatcherRequest[] = [];
  const lws: { req: ListerWatcherRequest; lw: ScriptedListWatch }[] = [];
  const excluded = (req: ListerWatcherRequest): string[] =>
    (req.fieldSelector ?? '')
      .split(',')
      .filter((t) => t.startsWith('metadata.namespace!='))
      .map((t) => t.slice('metadata.namespace!='.length));
  const selects = (req: ListerWatcherRequest, x: KubeObject): boolean =>
    x.kind === req.gvk.kind &&
    (req.namespace === undefined || x.metadata.namespace === req.namespace) &&
    !excluded(req).includes(x.metadata.namespace ?? '');
  const server: KubeObject[] = [];
  const cache = new InformerCache({
    clock,
    random: () => 0.5,
    newListerWatcher: async (req) => {
      requests.push(req);
      const lw = new ScriptedListWatch({ clock, kind: req.gvk.kind });
      for (const x of server) if (selects(req, x)) lw.add(x);
      lws.push({ req, lw });
      return lw;
    },
    isNamespaced: async (gvk) => gvk.kind !== 'Node',
    ...o,
  });
  const create = (x: KubeObject): void => {
    server.push(x);
    for (const { req, lw } of lws) if (selects(req, x)) lw.add(x);
  };
  const ac = new AbortController();
  return { clock, cache, requests, create, ac, start: () => cache.start(ac.signal) };
}

async function drive<T>(clock: FakeClock, p: Promise<T>): Promise<T> {
  let done = false;
  const out = p.finally(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) await clock.advance(100);
  return out;
}

const names = (l: { items: KubeObject[] }): string[] => l.items.map((x) => x.metadata.name ?? '').sort();

describe('InformerCache with several namespaces', () => {
  it('DefaultNamespaces: one informer per namespace; reads routed by namespace, lists across them', async () => {
    const { cache, start, ac, clock, create, requests } = setup({ defaultNamespaces: ['a', 'b'] });
    create(obj('Pod', 'a', 'pa'));
    create(obj('Pod', 'b', 'pb'));
    create(obj('Pod', 'c', 'pc'));
    const run = start();
    expect(names(await drive(clock, cache.list(POD)))).toEqual(['pa', 'pb']);
    expect(requests.map((r) => r.namespace)).toEqual(['a', 'b']);
    expect(names(await cache.list(POD, { namespace: 'b' }))).toEqual(['pb']);
    expect((await cache.get<KubeObject>(POD, { namespace: 'a', name: 'pa' })).metadata.name).toBe('pa');
    expect((await cache.get<KubeObject>(POD, { namespace: 'b', name: 'pb' })).metadata.name).toBe('pb');
    // A name that lives in another namespace is NotFound in this one.
    await expect(cache.get(POD, { namespace: 'a', name: 'pb' })).rejects.toThrow('Pod "pb" not found');
    await expect(cache.get(POD, { namespace: 'c', name: 'pc' })).rejects.toThrow(
      'unable to get: c/pc because of unknown namespace for the cache',
    );
    await expect(cache.list(POD, { namespace: 'c' })).rejects.toThrow(
      'unable to list: c because of unknown namespace for the cache',
    );
    const list = await cache.list(POD);
    expect(list.metadata.continue).toBe('continue-not-supported');
    ac.abort();
    await run;
  });

  it('cluster-scoped kinds get one cluster-wide informer (the cluster cache)', async () => {
    const { cache, start, ac, clock, create, requests } = setup({ defaultNamespaces: ['a', 'b'] });
    create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    const run = start();
    const node = await drive(clock, cache.get<KubeObject>(NODE, { name: 'n1' }));
    expect(node.metadata.name).toBe('n1');
    expect(requests.map((r) => [r.gvk.kind, r.namespace])).toEqual([['Node', undefined]]);
    ac.abort();
    await run;
  });

  it('"" (NamespaceAll) watches every namespace not listed, excluded by field selector', async () => {
    const { cache, start, ac, clock, create, requests } = setup({
      defaultNamespaces: ['a', ''],
      defaultFieldSelector: 'spec.x=y',
    });
    create(obj('Pod', 'a', 'pa'));
    create(obj('Pod', 'c', 'pc'));
    const run = start();
    expect(names(await drive(clock, cache.list(POD)))).toEqual(['pa', 'pc']);
    expect(requests.map((r) => [r.namespace, r.fieldSelector])).toEqual([
      ['a', 'spec.x=y'],
      [undefined, 'metadata.namespace!=a,spec.x=y'],
    ]);
    // A namespace without its own informer falls back to the "" one, as multiNamespaceCache's global cache.
    expect((await cache.get<KubeObject>(POD, { namespace: 'c', name: 'pc' })).metadata.name).toBe('pc');
    expect(names(await cache.list(POD, { namespace: 'c' }))).toEqual(['pc']);
    ac.abort();
    await run;
  });

  it('a limit counts across namespaces', async () => {
    const { cache, start, ac, clock, create } = setup({ defaultNamespaces: ['a', 'b'] });
    for (const n of ['1', '2']) create(obj('Pod', 'a', `a${n}`));
    for (const n of ['1', '2']) create(obj('Pod', 'b', `b${n}`));
    const run = start();
    await drive(clock, cache.list(POD));
    expect((await cache.list(POD, { limit: 3 })).items).toHaveLength(3);
    expect(names(await cache.list(POD, { limit: 2 }))).toEqual(['a1', 'a2']);
    ac.abort();
    await run;
  });

  it('field indexes are added to every namespace’s informer', async () => {
    const { cache, start, ac, clock, create } = setup({ defaultNamespaces: ['a', 'b'] });
    create(obj('Pod', 'a', 'pa', 'robot'));
    create(obj('Pod', 'b', 'pb', 'robot'));
    create(obj('Pod', 'b', 'pb2', 'human'));
    await cache.indexField(POD, 'spec.serviceAccountName', (o) => [
      String((o.spec as { serviceAccountName?: string }).serviceAccountName ?? ''),
    ]);
    const run = start();
    await drive(clock, cache.list(POD));
    expect(names(await cache.list(POD, { fieldSelector: 'spec.serviceAccountName=robot' }))).toEqual(['pa', 'pb']);
    ac.abort();
    await run;
  });

  it('ByObject namespaces give one kind its own namespaces; other kinds keep DefaultNamespaces', async () => {
    const { cache, start, ac, clock, create, requests } = setup({
      defaultNamespaces: ['a'],
      byObject: new Map([['v1/ConfigMap', { namespaces: ['x', 'y'] }]]),
    });
    create(obj('ConfigMap', 'x', 'cx'));
    create(obj('ConfigMap', 'y', 'cy'));
    create(obj('ConfigMap', 'a', 'ca'));
    create(obj('Pod', 'a', 'pa'));
    const run = start();
    expect(names(await drive(clock, cache.list(CM)))).toEqual(['cx', 'cy']);
    expect(names(await drive(clock, cache.list(POD)))).toEqual(['pa']);
    await expect(cache.get(CM, { namespace: 'a', name: 'ca' })).rejects.toThrow(
      'unable to get: a/ca because of unknown namespace for the cache',
    );
    expect(requests.map((r) => [r.gvk.kind, r.namespace])).toEqual([
      ['ConfigMap', 'x'],
      ['ConfigMap', 'y'],
      ['Pod', 'a'],
    ]);
    ac.abort();
    await run;
  });

  it('the informer fans handlers out to every namespace; removal stops all of them', async () => {
    const { cache, start, ac, clock, create } = setup({ defaultNamespaces: ['a', 'b'] });
    create(obj('Pod', 'a', 'pa'));
    create(obj('Pod', 'b', 'pb'));
    const inf = await cache.getInformer(POD);
    const seen: string[] = [];
    const reg = inf.addEventHandler({ onAdd: (o) => void seen.push(o.metadata.name ?? '') });
    expect(reg.hasSynced()).toBe(false);
    const run = start();
    expect(await drive(clock, cache.waitForCacheSync(ac.signal))).toBe(true);
    await flushMicrotasks();
    expect(seen.sort()).toEqual(['pa', 'pb']);
    expect(inf.hasSynced()).toBe(true);
    expect(reg.hasSynced()).toBe(true);
    expect(() => inf.removeEventHandler({ hasSynced: () => true })).toThrow(
      'registration is not a registration returned by multiNamespaceInformer',
    );
    await shutDownEventHandler(inf, reg);
    create(obj('Pod', 'a', 'pa2'));
    create(obj('Pod', 'b', 'pb2'));
    await flushMicrotasks();
    expect(seen.sort()).toEqual(['pa', 'pb']);
    expect(names(await cache.list(POD))).toEqual(['pa', 'pa2', 'pb', 'pb2']);
    expect(() => inf.getIndexer()).toThrow(/one store per namespace \(a, b\)/);
    ac.abort();
    await run;
  });

  it('refuses a namespace listed twice, and namespace together with defaultNamespaces', () => {
    expect(() => setup({ defaultNamespaces: ['a', 'a'] })).toThrow('defaultNamespaces: namespace "a" is listed twice');
    expect(() => setup({ byObject: new Map([['v1/Pod', { namespaces: ['x', 'x'] }]]) })).toThrow(
      'ByObject for v1/Pod: namespaces: namespace "x" is listed twice',
    );
    expect(() => setup({ namespace: 'a', defaultNamespaces: ['b'] })).toThrow(
      'give either namespace or defaultNamespaces, not both',
    );
  });
});
