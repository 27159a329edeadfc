import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from './events';
import { walkReconcile } from './object-walk';

const T0 = Date.UTC(2026, 0, 1);
const depth = { ready: 0, waiting: 0, processing: 0 };
const pod = (rv: string) => ({ gvk: 'v1/ConfigMap', namespace: 'demo', name: 'cm', uid: 'u1', resourceVersion: rv });

/** One change of demo/cm as the TS runtime reports it, in its emission order (watch event after its delta, pop after the cache op, handler after the add). */
function change(type: 'MODIFIED' | 'DELETED', rv: string): RuntimeEvent[] {
  const ref = pod(rv);
  const del = type === 'DELETED';
  const eventType = del ? 'delete' : 'update';
  const cause = { type: 'event' as const, eventType, source: ref } as const;
  return [
    {
      kind: 'fifo.delta',
      informer: 'v1/ConfigMap',
      delta: del ? 'Deleted' : 'Updated',
      key: 'demo/cm',
      ref,
      pendingForKey: 1,
      queueLength: 1,
    },
    { kind: 'reflector.event', informer: 'v1/ConfigMap', type, ref },
    { kind: 'indexer.update', informer: 'v1/ConfigMap', op: del ? 'delete' : 'update', key: 'demo/cm', ref, size: 1 },
    {
      kind: 'fifo.pop',
      informer: 'v1/ConfigMap',
      key: 'demo/cm',
      deltas: [del ? 'Deleted' : 'Updated'],
      queueLength: 0,
      durationMs: 0,
    },
    {
      kind: 'informer.notify',
      informer: 'v1/ConfigMap',
      handler: 'watcher / EnqueueRequestForObject',
      type: del ? 'delete' : 'update',
      ref,
    },
    { kind: 'queue.add', queue: 'watcher', key: 'demo/cm', cause, queued: true, dirtyWhileProcessing: false, depth },
    { kind: 'queue.get', queue: 'watcher', key: 'demo/cm', waitMs: 0, depth },
    {
      kind: 'handler.event',
      controller: 'watcher',
      handler: 'EnqueueRequestForObject',
      eventType,
      ref,
      keys: ['demo/cm'],
    },
    { kind: 'reconcile.start', controller: 'watcher', key: 'demo/cm', worker: 0, causes: [cause], attempt: 1 },
    { kind: 'reconcile.end', controller: 'watcher', key: 'demo/cm', worker: 0, durationMs: 1, outcome: 'success' },
    { kind: 'queue.done', queue: 'watcher', key: 'demo/cm', processingMs: 1, requeued: false, depth },
  ];
}

const stamp = (evs: RuntimeEvent[]): StampedEvent[] =>
  evs.map((e, i) => ({ ...e, seq: i + 1, ts: T0 + i }) as StampedEvent);

const lastEnd = (log: StampedEvent[]) => log.findLastIndex((e) => e.kind === 'reconcile.end');

/** What each step carried: the watch type, delta type, cache op, notification, and the RV of each. */
function story(log: StampedEvent[]): string[] {
  return walkReconcile(log, lastEnd(log)).steps.map(({ event: e }) => {
    switch (e.kind) {
      case 'reflector.event':
        return `watch ${e.type} ${e.ref.resourceVersion}`;
      case 'reflector.listBegin':
        return `list ${e.relist ? 'relist' : 'initial'}`;
      case 'fifo.delta':
        return `delta ${e.delta} ${e.ref.resourceVersion}`;
      case 'fifo.pop':
        return `pop ${e.deltas.join(',')}`;
      case 'indexer.update':
        return `cache ${e.op} ${e.ref.resourceVersion}`;
      case 'informer.notify':
        return `notify ${e.type} ${e.ref.resourceVersion}`;
      case 'handler.event':
        return `handler ${e.eventType} ${e.ref.resourceVersion}`;
      default:
        return e.kind;
    }
  });
}

describe('walkReconcile', () => {
  it('walks a delete back through the delete’s own events, never the update before it', () => {
    // The update was dropped by a predicate after the informer told the handler: no reconcile in between.
    const log = stamp([...change('MODIFIED', '196').slice(0, 5), ...change('DELETED', '197')]);
    expect(story(log)).toEqual([
      'watch DELETED 197',
      'delta Deleted 197',
      'pop Deleted',
      'cache delete 197',
      'notify delete 197',
      'handler delete 197',
      'queue.add',
      'queue.get',
      'reconcile.start',
      'reconcile.end',
      'queue.done',
    ]);
  });

  it('tells a relist tombstone as the relist that no longer had the object, not as an older watch event', () => {
    const ref = pod('87');
    const cause = { type: 'event' as const, eventType: 'delete' as const, source: ref };
    const log = stamp([
      ...change('MODIFIED', '87').slice(0, 11),
      {
        kind: 'reflector.listBegin',
        informer: 'v1/ConfigMap',
        resourceVersion: '140',
        relist: true,
        cause: 'watch expired (410)',
      },
      {
        kind: 'fifo.delta',
        informer: 'v1/ConfigMap',
        delta: 'Deleted',
        key: 'demo/cm',
        ref,
        pendingForKey: 1,
        queueLength: 1,
        tombstone: true,
      },
      {
        kind: 'reflector.listEnd',
        informer: 'v1/ConfigMap',
        resourceVersion: '150',
        items: 0,
        pages: 1,
        durationMs: 1,
        relist: true,
        deletedFromRelist: 1,
      },
      { kind: 'indexer.update', informer: 'v1/ConfigMap', op: 'delete', key: 'demo/cm', ref, size: 0 },
      {
        kind: 'fifo.pop',
        informer: 'v1/ConfigMap',
        key: 'demo/cm',
        deltas: ['Deleted'],
        queueLength: 0,
        durationMs: 0,
      },
      {
        kind: 'informer.notify',
        informer: 'v1/ConfigMap',
        handler: 'watcher / EnqueueRequestForObject',
        type: 'delete',
        ref,
      },
      { kind: 'queue.add', queue: 'watcher', key: 'demo/cm', cause, queued: true, dirtyWhileProcessing: false, depth },
      { kind: 'queue.get', queue: 'watcher', key: 'demo/cm', waitMs: 0, depth },
      { kind: 'reconcile.start', controller: 'watcher', key: 'demo/cm', worker: 0, causes: [cause], attempt: 1 },
      { kind: 'reconcile.end', controller: 'watcher', key: 'demo/cm', worker: 0, durationMs: 1, outcome: 'success' },
    ]);
    expect(story(log).slice(0, 5)).toEqual([
      'list relist',
      'delta Deleted 87',
      'pop Deleted',
      'cache delete 87',
      'notify delete 87',
    ]);
  });

  it('leaves out what the log does not hold instead of taking another change’s event', () => {
    // The delete's watch event and delta fell out of the log; the update's are still there.
    const log = stamp([...change('MODIFIED', '196'), ...change('DELETED', '197').slice(2)]);
    const s = story(log);
    expect(s.filter((x) => x.startsWith('watch') || x.startsWith('delta'))).toEqual([]);
    expect(s[0]).toBe('cache delete 197');
  });

  it('follows an owner cause to the owned object’s change', () => {
    const ref = { gvk: 'v1/Pod', namespace: 'demo', name: 'web-x', resourceVersion: '12' };
    const cause = { type: 'owner' as const, eventType: 'update' as const, source: ref };
    const log = stamp([
      {
        kind: 'fifo.delta',
        informer: 'v1/Pod',
        delta: 'Updated',
        key: 'demo/web-x',
        ref,
        pendingForKey: 1,
        queueLength: 1,
      },
      { kind: 'reflector.event', informer: 'v1/Pod', type: 'MODIFIED', ref },
      { kind: 'indexer.update', informer: 'v1/Pod', op: 'update', key: 'demo/web-x', ref, size: 1 },
      { kind: 'informer.notify', informer: 'v1/Pod', handler: 'rs / EnqueueRequestForOwner', type: 'update', ref },
      { kind: 'queue.add', queue: 'rs', key: 'demo/web', cause, queued: true, dirtyWhileProcessing: false, depth },
      { kind: 'queue.get', queue: 'rs', key: 'demo/web', waitMs: 0, depth },
      { kind: 'reconcile.start', controller: 'rs', key: 'demo/web', worker: 0, causes: [cause], attempt: 1 },
      { kind: 'reconcile.end', controller: 'rs', key: 'demo/web', worker: 0, durationMs: 1, outcome: 'success' },
    ]);
    expect(story(log).slice(0, 4)).toEqual([
      'watch MODIFIED 12',
      'delta Updated 12',
      'cache update 12',
      'notify update 12',
    ]);
  });
});
