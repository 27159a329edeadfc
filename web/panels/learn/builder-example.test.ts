import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { builderExample } from './learn-series';

const T0 = Date.UTC(2026, 0, 1);
let seq = 0;
const add = (queue: string, key: string, cause: object) =>
  ({
    kind: 'queue.add',
    queue,
    key,
    cause,
    queued: true,
    dirtyWhileProcessing: false,
    depth: { ready: 1, waiting: 0, processing: 0 },
    seq: ++seq,
    ts: T0 + seq,
  }) as unknown as StampedEvent;

describe('builderExample', () => {
  // Synthetic: one add per cause type, so which example wins is decided by the rule under test alone; in a
  // recording every controller adds many keys and the newest example changes with each regeneration.
  const view = reduce(createView(), [
    add('pod-counter', 'demo/web-1', {
      type: 'event',
      eventType: 'update',
      source: { gvk: 'v1/Pod', namespace: 'demo', name: 'web-1' },
    }),
    add('replicaset-owner', 'demo/web-abc', {
      type: 'owner',
      eventType: 'update',
      source: { gvk: 'v1/Pod', namespace: 'demo', name: 'web-abc-x1' },
    }),
    add('replicaset-owner', 'demo/web-abc', {
      type: 'mapped',
      eventType: 'update',
      source: { gvk: 'apps/v1/Deployment', namespace: 'demo', name: 'web' },
    }),
  ]);

  it('an event on an owned Pod became a request for its ReplicaSet (Owns)', () => {
    expect(builderExample(view, 'owner', 'replicaset-owner')).toMatchObject({
      controller: 'replicaset-owner',
      request: 'demo/web-abc',
      source: { gvk: 'v1/Pod', key: 'demo/web-abc-x1', eventType: 'update' },
    });
  });

  it('a Deployment event mapped to its ReplicaSet (Watches with a map function)', () => {
    expect(builderExample(view, 'mapped')).toMatchObject({
      request: 'demo/web-abc',
      source: { gvk: 'apps/v1/Deployment', key: 'demo/web' },
    });
  });

  it('a Pod event became a request for that Pod (For)', () => {
    expect(builderExample(view, 'event', 'pod-counter')?.request).toBe('demo/web-1');
  });
});
