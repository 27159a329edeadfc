// Scenarios from controller-runtime pkg/source/source_test.go (with a fake informer).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { funcs, type EventHandler } from '../handler/eventhandler';
import { enqueueRequestForObject } from '../handler/enqueue';
import { predicateFuncs } from '../predicate/predicate';
import { FakeClock } from '../testing/fake-clock';
import { FakeInformerCache } from '../testing/fake-informer';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { RecordingProbe } from '../testing/recording-probe';
import { channelSource, EventChannel } from './channel';
import { childContext } from '../util/context';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../event/event';
import { informerSource } from './informer';
import { kindSource } from './kind';

const pod = (name: string, rv = '1'): KubeObject => ({
  metadata: { namespace: 'default', name, resourceVersion: rv },
});
const POD = { group: '', version: 'v1', kind: 'Pod' };

function recorder(): { h: EventHandler; seen: { type: string; e: unknown }[] } {
  const seen: { type: string; e: unknown }[] = [];
  const h = funcs({
    create: (_c, e: CreateEvent) => void seen.push({ type: 'create', e }),
    update: (_c, e: UpdateEvent) => void seen.push({ type: 'update', e }),
    delete: (_c, e: DeleteEvent) => void seen.push({ type: 'delete', e }),
    generic: (_c, e: GenericEvent) => void seen.push({ type: 'generic', e }),
  });
  return { h, seen };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Kind', () => {
  it('delivers create, update and delete events for pods', async () => {
    const cache = new FakeInformerCache();
    const { h, seen } = recorder();
    const src = kindSource({ cache, kind: 'v1/Pod', handler: h, clock: new FakeClock() });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    await src.waitForSync(ac.signal);
    const inf = cache.informerFor(POD);
    inf.add(pod('a'));
    inf.update(pod('a'), pod('a', '2'));
    inf.delete(pod('a', '2'));
    expect(seen.map((s) => s.type)).toEqual(['create', 'update', 'delete']);
    expect(seen[0]?.e).toMatchObject({ object: { metadata: { name: 'a' } }, isInInitialList: false, gvk: 'v1/Pod' });
    expect(seen[1]?.e).toMatchObject({ objectOld: { metadata: { resourceVersion: '1' } } });
    expect(seen[2]?.e).toMatchObject({ deleteStateUnknown: false });
  });

  it('unwraps tombstones with DeleteStateUnknown', async () => {
    const cache = new FakeInformerCache();
    const { h, seen } = recorder();
    const src = kindSource({ cache, kind: 'v1/Pod', handler: h });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    await src.waitForSync(ac.signal);
    cache.informerFor(POD).delete(pod('a'), true);
    expect(seen[0]?.e).toMatchObject({ object: { metadata: { name: 'a' } }, deleteStateUnknown: true });
  });

  it('rejects a missing cache, type or handler', async () => {
    const q = new FakeRequestQueue();
    const signal = new AbortController().signal;
    const { h } = recorder();
    await expect(
      kindSource({ cache: undefined as never, kind: 'v1/Pod', handler: h }).start({ signal, queue: q }),
    ).rejects.toThrow('must create Kind with a non-nil cache');
    await expect(
      kindSource({ cache: new FakeInformerCache(), kind: undefined as never, handler: h }).start({ signal, queue: q }),
    ).rejects.toThrow('must create Kind with a non-nil object');
    await expect(
      kindSource({ cache: new FakeInformerCache(), kind: 'v1/Pod', handler: undefined as never }).start({
        signal,
        queue: q,
      }),
    ).rejects.toThrow('must create Kind with non-nil handler');
  });

  it('starts, but WaitForSync reports "cache did not sync" when the cache cannot sync', async () => {
    const cache = new FakeInformerCache();
    cache.synced = false;
    const src = kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject() });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    await expect(src.waitForSync(ac.signal)).rejects.toThrow(/^cache did not sync$/);
  });

  it('keeps retrying GetInformer and times out under a deadline', async () => {
    const clock = new FakeClock();
    const cache = new FakeInformerCache();
    cache.getInformerError = new Error('no matches for kind "Widget"');
    const src = kindSource({ cache, kind: 'example.com/v1/Widget', handler: enqueueRequestForObject(), clock });
    const root = new AbortController();
    await src.start({ signal: root.signal, queue: new FakeRequestQueue() });
    const deadline = childContext(root.signal, clock, 2000);
    const waiting = src.waitForSync(deadline.signal);
    const outcome = waiting.then(
      () => 'ok',
      (e: Error) => e.message,
    );
    await clock.advance(2000);
    expect(await outcome).toBe('timed out waiting for cache to be synced for kind source: *v1.Widget');
    // As upstream's startCancel: once WaitForSync gave up, the source stops asking for the informer.
    const calls = cache.getInformerCalls;
    await clock.advance(60_000);
    expect(cache.getInformerCalls).toBe(calls);
    root.abort();
  });

  it('returns no error from WaitForSync when the context is cancelled', async () => {
    const cache = new FakeInformerCache();
    cache.blockGetInformer = true;
    const src = kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject() });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    const w = src.waitForSync(ac.signal);
    ac.abort();
    await expect(w).resolves.toBeUndefined();
  });

  it('waits until the handler has seen the initial list', async () => {
    const clock = new FakeClock();
    const cache = new FakeInformerCache();
    const inf = cache.informerFor(POD);
    inf.handlersSyncImmediately = false;
    const src = kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject(), clock });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    let synced = false;
    void src.waitForSync(ac.signal).then(() => (synced = true));
    await clock.advance(300);
    expect(synced).toBe(false);
    inf.markHandlersSynced();
    await clock.advance(100);
    expect(synced).toBe(true);
    ac.abort();
  });

  it('reports enqueued keys and predicate rejections to the probe', async () => {
    const cache = new FakeInformerCache();
    const probe = new RecordingProbe();
    const onlyA = predicateFuncs({ name: 'onlyA', create: (e) => e.object?.metadata.name === 'a' });
    const src = kindSource({ cache, kind: 'v1/Pod', handler: enqueueRequestForObject(), predicates: [onlyA] });
    const ac = new AbortController();
    const q = new FakeRequestQueue();
    await src.start({ signal: ac.signal, queue: q, controller: 'pods', probe });
    await src.waitForSync(ac.signal);
    cache.informerFor(POD).add(pod('a'));
    cache.informerFor(POD).add(pod('b'));
    expect(probe.ofKind('handler.event')).toEqual([
      {
        kind: 'handler.event',
        controller: 'pods',
        handler: 'EnqueueRequestForObject',
        eventType: 'create',
        ref: { gvk: 'v1/Pod', namespace: 'default', name: 'a', resourceVersion: '1' },
        keys: ['default/a'],
      },
      {
        kind: 'handler.event',
        controller: 'pods',
        handler: 'EnqueueRequestForObject',
        eventType: 'create',
        ref: { gvk: 'v1/Pod', namespace: 'default', name: 'b', resourceVersion: '1' },
        keys: [],
        filteredBy: 'onlyA',
      },
    ]);
    expect(q.queued()).toEqual([{ namespace: 'default', name: 'a' }]);
  });
});

describe('Channel', () => {
  it('delivers generic events that pass the predicates', async () => {
    const ch = new EventChannel();
    const { h, seen } = recorder();
    const src = channelSource({
      source: ch,
      handler: h,
      predicates: [predicateFuncs({ generic: (e) => e.object?.metadata.name !== 'skip' })],
    });
    const ac = new AbortController();
    await src.start({ signal: ac.signal, queue: new FakeRequestQueue() });
    ch.send({ object: pod('a') });
    ch.send({ object: pod('skip') });
    await settle();
    expect(seen.map((s) => (s.e as GenericEvent).object?.metadata.name)).toEqual(['a']);
  });

  it('processes events sent before start once started', async () => {
    const ch = new EventChannel();
    ch.send({ object: pod('early') });
    const { h, seen } = recorder();
    await channelSource({ source: ch, handler: h }).start({
      signal: new AbortController().signal,
      queue: new FakeRequestQueue(),
    });
    expect(seen).toHaveLength(1);
  });

  it('stops when the channel closes or the context ends', async () => {
    const ch = new EventChannel();
    const { h, seen } = recorder();
    const ac = new AbortController();
    await channelSource({ source: ch, handler: h }).start({ signal: ac.signal, queue: new FakeRequestQueue() });
    ac.abort();
    ch.send({ object: pod('late') });
    expect(seen).toHaveLength(0);
    ch.close();
    expect(() => ch.send({ object: pod('x') })).toThrow('send on closed channel');
  });

  it('requires a channel', async () => {
    const { h } = recorder();
    await expect(
      channelSource({ source: undefined as never, handler: h }).start({
        signal: new AbortController().signal,
        queue: new FakeRequestQueue(),
      }),
    ).rejects.toThrow('must specify Channel.Source');
  });
});

describe('Informer', () => {
  it('delivers events from a caller-run informer through predicates to the handler', async () => {
    const cache = new FakeInformerCache();
    const inf = cache.informerFor(POD);
    const { h, seen } = recorder();
    const src = informerSource({
      informer: inf,
      handler: h,
      gvk: 'v1/Pod',
      predicates: [predicateFuncs({ create: (e) => e.object?.metadata.name !== 'skip' })],
    });
    await src.start({ signal: new AbortController().signal, queue: new FakeRequestQueue() });
    inf.add(pod('a'));
    inf.add(pod('skip'));
    expect(seen.map((s) => (s.e as CreateEvent).object?.metadata.name)).toEqual(['a']);
    expect(src.toString()).toBe('informer source: v1/Pod');
  });

  it('requires an informer', async () => {
    const { h } = recorder();
    await expect(
      informerSource({ informer: undefined as never, handler: h }).start({
        signal: new AbortController().signal,
        queue: new FakeRequestQueue(),
      }),
    ).rejects.toThrow('must specify Informer.Informer');
  });
});
