// Scenarios from controller-runtime pkg/cache/cache_test.go and informer_cache_test.go, against the real
// SharedIndexInformer over scripted list-watches on a FakeClock.
import { describe, expect, it } from 'vitest';
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { isNotFound } from '../util/errors';
import { InformerCache, type InformerCacheOptions, type ListerWatcherRequest } from './informer-cache';
import { transformStripManagedFields } from './transforms';

const POD: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' };
const NODE: GroupVersionKind = { group: '', version: 'v1', kind: 'Node' };

const pod = (ns: string, name: string, labels: Record<string, string> = {}, sa = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    namespace: ns,
    name,
    labels,
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
  },
  spec: { serviceAccountName: sa },
});

function setup(o: Partial<InformerCacheOptions> = {}) {
  const clock = new FakeClock();
  const lws = new Map<string, ScriptedListWatch>();
  const requests: ListerWatcherRequest[] = [];
  const lwFor = (kind: string): ScriptedListWatch => {
    let lw = lws.get(kind);
    if (!lw) lws.set(kind, (lw = new ScriptedListWatch({ clock, kind })));
    return lw;
  };
  const cache = new InformerCache({
    clock,
    random: () => 0.5,
    newListerWatcher: async (req) => {
      requests.push(req);
      return lwFor(req.gvk.kind);
    },
    isNamespaced: async (gvk) => gvk.kind !== 'Node',
    ...o,
  });
  const ac = new AbortController();
  return { clock, cache, lwFor, requests, ac, start: () => cache.start(ac.signal) };
}

/** Runs fn while the fake clock moves, so polls and syncs progress. */
async function drive<T>(clock: FakeClock, p: Promise<T>): Promise<T> {
  let done = false;
  const out = p.finally(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) await clock.advance(100);
  return out;
}

describe('InformerCache', () => {
  it('refuses reads before start and a second start', async () => {
    const { cache, start, ac } = setup();
    await expect(cache.get(POD, { namespace: 'a', name: 'b' })).rejects.toThrow(
      'the cache is not started, can not read objects',
    );
    const run = start();
    await expect(cache.start(ac.signal)).rejects.toThrow('informer already started');
    ac.abort();
    await run;
  });

  it('lazily starts an informer for a never-seen kind on first read and serves copies with a GVK', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    lwFor('Pod').add(pod('default', 'a'));
    const run = start();
    const got = await drive(clock, cache.get<KubeObject>(POD, { namespace: 'default', name: 'a' }));
    expect(got.metadata.name).toBe('a');
    expect(got.apiVersion).toBe('v1');
    expect(got.kind).toBe('Pod');
    got.metadata.labels = { mutated: 'yes' };
    const again = await cache.get<KubeObject>(POD, { namespace: 'default', name: 'a' });
    expect(again.metadata.labels).toEqual({});
    expect(cache.kinds()).toEqual(['v1/Pod']);
    ac.abort();
    await run;
  });

  it('reports a missing object as NotFound naming the kind', async () => {
    const { cache, start, ac, clock } = setup();
    const run = start();
    const err = await drive(
      clock,
      cache.get(POD, { namespace: 'default', name: 'nope' }).catch((e: unknown) => e),
    );
    expect(isNotFound(err)).toBe(true);
    expect((err as Error).message).toBe('Pod "nope" not found');
    ac.abort();
    await run;
  });

  it('lists with label selectors and limits; continue is not supported', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    for (let i = 0; i < 5; i++) lwFor('Pod').add(pod('default', `p${i}`, { tier: i % 2 ? 'odd' : 'even' }));
    lwFor('Pod').add(pod('other', 'x', { tier: 'even' }));
    const run = start();
    const all = await drive(clock, cache.list(POD));
    expect(all.items).toHaveLength(6);
    expect(all.metadata.continue).toBe('continue-not-supported');
    expect((await cache.list(POD, { limit: 3 })).items).toHaveLength(3);
    expect((await cache.list(POD, { labelSelector: 'tier=odd', limit: 1 })).items).toHaveLength(1);
    expect((await cache.list(POD, { namespace: 'default', labelSelector: 'tier=even' })).items).toHaveLength(3);
    await expect(cache.list(POD, { continue: 'continue-not-supported' })).rejects.toThrow(
      'continue list option is not supported by the cache',
    );
    ac.abort();
    await run;
  });

  it('serves exact field selectors through field indexes', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    lwFor('Pod').add(pod('default', 'a', {}, 'robot'));
    lwFor('Pod').add(pod('default', 'b', {}, 'human'));
    lwFor('Pod').add(pod('other', 'c', {}, 'robot'));
    await cache.indexField(POD, 'spec.serviceAccountName', (o) => [
      String((o.spec as { serviceAccountName?: string }).serviceAccountName ?? ''),
    ]);
    const run = start();
    const robots = await drive(clock, cache.list(POD, { fieldSelector: 'spec.serviceAccountName=robot' }));
    expect(robots.items.map((p) => p.metadata.name).sort()).toEqual(['a', 'c']);
    const nsRobots = await cache.list(POD, { namespace: 'default', fieldSelector: 'spec.serviceAccountName==robot' });
    expect(nsRobots.items.map((p) => p.metadata.name)).toEqual(['a']);
    await expect(cache.list(POD, { fieldSelector: 'spec.serviceAccountName!=robot' })).rejects.toThrow(
      'non-exact field matches are not supported by the cache',
    );
    await expect(cache.list(POD, { fieldSelector: 'spec.nodeName=n1' })).rejects.toThrow(
      'index with name field:spec.nodeName does not exist',
    );
    ac.abort();
    await run;
  });

  it('restricts to one namespace when asked', async () => {
    const { cache, start, ac, lwFor, clock, requests } = setup({ namespace: 'default' });
    lwFor('Pod').add(pod('default', 'a'));
    lwFor('Node').add({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    const run = start();
    await drive(clock, cache.list(POD, { namespace: 'default' }));
    await expect(cache.get(POD, { namespace: 'kube-system', name: 'a' })).rejects.toThrow(
      'unable to get: kube-system/a because of unknown namespace for the cache',
    );
    await expect(cache.list(POD, { namespace: 'kube-system' })).rejects.toThrow(
      'unable to list: kube-system because of unknown namespace for the cache',
    );
    const node = await drive(clock, cache.get<KubeObject>(NODE, { name: 'n1' }));
    expect(node.metadata.name).toBe('n1');
    expect(requests.map((r) => [r.gvk.kind, r.namespace])).toEqual([
      ['Pod', 'default'],
      ['Node', undefined],
    ]);
    ac.abort();
    await run;
  });

  it('with ReaderFailOnMissingInformer fails for kinds without an informer', async () => {
    const { cache, start, ac, clock } = setup({ readerFailOnMissingInformer: true });
    await cache.getInformer(POD, { blockUntilSynced: false });
    const run = start();
    await expect(cache.get(NODE, { name: 'n1' })).rejects.toThrow('v1/Node is not cached');
    await expect(drive(clock, cache.list(POD))).resolves.toMatchObject({ items: [] });
    ac.abort();
    await run;
  });

  it('fails GetInformer with a cancelled context, and times out waiting for sync', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(cache.getInformer(POD, { signal: cancelled.signal })).rejects.toThrow();
    lwFor('Node').setListError(new Error('boom'));
    const run = start();
    const deadline = new AbortController();
    const p = cache.getInformer(NODE, { signal: deadline.signal }).catch((e: Error) => e);
    await clock.advance(300);
    deadline.abort();
    const err = await p;
    expect((err as Error).message).toBe('failed waiting for *v1.Node Informer to sync');
    ac.abort();
    await run;
  });

  it('waits for every informer to sync, and can remove and re-create one', async () => {
    const { cache, start, ac, clock } = setup();
    const run = start();
    await drive(clock, cache.getInformer(POD));
    expect(await drive(clock, cache.waitForCacheSync(ac.signal))).toBe(true);
    cache.removeInformer(POD);
    expect(cache.kinds()).toEqual([]);
    const inf = await drive(clock, cache.getInformer(POD));
    expect(inf.hasSynced()).toBe(true);
    ac.abort();
    await run;
    await flushMicrotasks();
  });

  it('keeps managedFields by default: upstream sets no default transform', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    lwFor('Pod').add(pod('default', 'a'));
    const run = start();
    const got = await drive(clock, cache.get<KubeObject>(POD, { namespace: 'default', name: 'a' }));
    expect(got.metadata.managedFields).toHaveLength(1);
    ac.abort();
    await run;
  });

  it('drops managedFields when the user sets transformStripManagedFields()', async () => {
    const { cache, start, ac, lwFor, clock } = setup({ defaultTransform: transformStripManagedFields() });
    lwFor('Pod').add(pod('default', 'a'));
    const run = start();
    const got = await drive(clock, cache.get<KubeObject>(POD, { namespace: 'default', name: 'a' }));
    expect(got.metadata.managedFields).toBeUndefined();
    ac.abort();
    await run;
  });

  it('getInformer before the cache starts returns at once; handlers added then see the initial list', async () => {
    const { cache, start, ac, lwFor, clock } = setup();
    lwFor('Pod').add(pod('default', 'a'));
    let resolved = false;
    const got = cache.getInformer(POD).then((i) => ((resolved = true), i));
    await flushMicrotasks();
    expect(resolved).toBe(true); // no clock movement: nothing waited for a sync
    const inf = await got;
    expect(inf.hasSynced()).toBe(false);
    const added: string[] = [];
    inf.addEventHandler({ onAdd: (o, initial) => void added.push(`${o.metadata.name}:${String(initial)}`) });
    const run = start();
    expect(await drive(clock, cache.waitForCacheSync(ac.signal))).toBe(true);
    await flushMicrotasks();
    expect(added).toEqual(['a:true']);
    ac.abort();
    await run;
  });

  // cache_test.go "ByObject": per-kind selectors, namespace and transform; everything else cache-wide.
  it('ByObject gives one kind its own label and field selector, namespace, transform and deep-copy setting', async () => {
    const { cache, start, ac, lwFor, requests, clock } = setup({
      namespace: 'default',
      defaultLabelSelector: 'tier=web',
      defaultTransform: transformStripManagedFields(),
      byObject: new Map([
        ['v1/Pod', { namespaces: ['other'], label: 'app=x', field: 'spec.nodeName=n1', transform: null }],
      ]),
    });
    lwFor('Pod').add(pod('other', 'a'));
    lwFor('ConfigMap').add({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', name: 'c', managedFields: [{}] },
    });
    const run = start();
    const got = await drive(clock, cache.get<KubeObject>(POD, { namespace: 'other', name: 'a' }));
    expect(got.metadata.managedFields).toHaveLength(1); // this kind has no transform
    const cm = await drive(
      clock,
      cache.get<KubeObject>({ group: '', version: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: 'c' }),
    );
    expect(cm.metadata.managedFields).toBeUndefined(); // the cache-wide default transform
    expect(requests.map((r) => [r.gvk.kind, r.namespace, r.labelSelector, r.fieldSelector])).toEqual([
      ['Pod', 'other', 'app=x', 'spec.nodeName=n1'],
      ['ConfigMap', 'default', 'tier=web', undefined],
    ]);
    await expect(cache.get(POD, { namespace: 'default', name: 'a' })).rejects.toThrow(
      /unknown namespace for the cache/,
    );
    ac.abort();
    await run;
  });

  it('ByObject refuses namespaces for a cluster-scoped kind, as cache.New does', async () => {
    const { cache, start, ac, clock } = setup({ byObject: new Map([['v1/Node', { namespaces: ['x'] }]]) });
    const run = start();
    const err = await drive(
      clock,
      cache.getInformer(NODE).catch((e: unknown) => e),
    );
    expect((err as Error).message).toBe(
      'type v1/Node is not namespaced, but its ByObject.Namespaces setting is not nil',
    );
    ac.abort();
    await run;
  });
});
