import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { managerNotReady } from './readiness';

function viewOf(events: RuntimeEvent[]) {
  return reduce(
    createView(),
    events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent),
  );
}

const managerStarted: RuntimeEvent = { kind: 'manager.lifecycle', phase: 'started' };
const informer = (phase: 'started'): RuntimeEvent => ({ kind: 'informer.lifecycle', informer: 'v1/Pod', phase });
const synced: RuntimeEvent = { kind: 'informer.synced', informer: 'v1/Pod', items: 3, durationMs: 5 };
const controller = (phase: string, error?: string): RuntimeEvent =>
  ({ kind: 'controller.lifecycle', controller: 'pods', phase, ...(error ? { error } : {}) }) as RuntimeEvent;

describe('/readyz from the view', () => {
  it('is not ready before the manager starts', () => {
    expect(managerNotReady(createView())).toBe('the manager has not started yet');
  });

  it('is not ready while a cache syncs, and ready once controllers run on synced caches', () => {
    const waiting = viewOf([managerStarted, informer('started'), controller('waitingForCacheSync')]);
    expect(managerNotReady(waiting)).toBe('controller pods is waitingForCacheSync; informer v1/Pod has not synced');
    const ready = viewOf([managerStarted, informer('started'), synced, controller('started')]);
    expect(managerNotReady(ready)).toBeUndefined();
  });

  it('tells a cache-sync timeout and a manager error apart', () => {
    const timedOut = viewOf([
      managerStarted,
      informer('started'),
      controller('cacheSyncTimeout', 'timed out waiting for cache to be synced for Kind *v1.ConfigMap'),
    ]);
    expect(managerNotReady(timedOut)).toBe(
      'controller pods timed out waiting for its caches to sync: timed out waiting for cache to be synced for ' +
        'Kind *v1.ConfigMap; informer v1/Pod has not synced',
    );
    const failed = viewOf([managerStarted, { kind: 'manager.lifecycle', phase: 'error', error: 'leader lost' }]);
    expect(managerNotReady(failed)).toBe('the manager is error: leader lost');
  });
});
