import { describe, expect, it } from 'vitest';
import { formatRoute, nextRoute, parseRoute } from './route';

describe('route', () => {
  it('round-trips a panel with its focus', () => {
    const r = { panel: 'trace' as const, controller: 'flaky', key: 'default/web-3' };
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(formatRoute(r)).toBe('#/trace?controller=flaky&key=default%2Fweb-3');
  });

  it('falls back to the overview for unknown or empty hashes', () => {
    expect(parseRoute('')).toEqual({ panel: 'overview' });
    expect(parseRoute('#/nope?informer=v1/Pod')).toEqual({ panel: 'overview', informer: 'v1/Pod' });
  });

  it("drops the key when a link changes the controller or informer, so it never shows another controller's key", () => {
    const cur = { panel: 'trace' as const, controller: 'flaky', key: 'demo/churn-1' };
    expect(nextRoute(cur, { panel: 'controller', controller: 'hot-loop' })).toEqual({
      panel: 'controller',
      controller: 'hot-loop',
    });
    expect(nextRoute(cur, { panel: 'trace', controller: 'hot-loop', key: 'demo/x' })).toEqual({
      panel: 'trace',
      controller: 'hot-loop',
      key: 'demo/x',
    });
    // Same controller, or a panel change alone: the focus follows the user.
    expect(nextRoute(cur, { panel: 'workqueue' })).toEqual({ ...cur, panel: 'workqueue' });
    expect(nextRoute(cur, { panel: 'workqueue', controller: 'flaky' })).toEqual({ ...cur, panel: 'workqueue' });
    const onInformer = { panel: 'indexer' as const, informer: 'v1/Pod', key: 'default/p' };
    expect(nextRoute(onInformer, { panel: 'indexer', informer: 'v1/ConfigMap' })).toEqual({
      panel: 'indexer',
      informer: 'v1/ConfigMap',
    });
    expect(nextRoute(cur, { panel: 'overview' }, false)).toEqual({ panel: 'overview' });
  });
});
