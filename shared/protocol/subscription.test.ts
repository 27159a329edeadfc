import { describe, expect, it } from 'vitest';
import { reduce } from './reduce';
import { filterView, matchesEvent } from './subscription';
import { EventScript } from './testing/synthetic';
import { createView } from './view';

describe('subscriptions', () => {
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 3, 'a');
  s.informerStartup('apps/v1/Deployment', 'apps/v1/Deployment', 2, 'b');
  s.reconcileCycle('pods', 'a/obj-0');
  s.reconcileCycle('pods', 'b/obj-1');
  s.reconcileCycle('deploys', 'b/obj-0');
  const view = reduce(createView(), s.events);

  it('matches everything when empty', () => {
    expect(s.events.every((e) => matchesEvent(e, {}))).toBe(true);
    expect(filterView(view, {})).toBe(view);
  });

  it('filters by controller, keeping informer events', () => {
    const got = s.events.filter((e) => matchesEvent(e, { controllers: ['pods'] }));
    expect(got.some((e) => 'controller' in e && e.controller === 'deploys')).toBe(false);
    expect(got.some((e) => e.kind === 'reflector.listBegin')).toBe(true);
    expect(Object.keys(filterView(view, { controllers: ['pods'] }).controllers)).toEqual(['pods']);
  });

  it('filters by kind with either the bare kind or the gvk', () => {
    for (const kinds of [['Pod'], ['v1/Pod']]) {
      const v = filterView(view, { kinds });
      expect(Object.keys(v.informers)).toEqual(['v1/Pod']);
      expect(v.log.every((e) => !('informer' in e) || e.informer === 'v1/Pod')).toBe(true);
    }
  });

  it('filters keys and pending deltas by namespace and key', () => {
    const v = filterView(view, { namespaces: ['b'] });
    expect(Object.keys(v.controllers.pods?.keys ?? {})).toEqual(['b/obj-1']);
    expect(v.controllers.pods?.keyCount).toBe(1);
    const k = filterView(view, { keys: ['a/obj-0'] });
    expect(Object.keys(k.controllers.pods?.keys ?? {})).toEqual(['a/obj-0']);
    expect(Object.keys(k.controllers.deploys?.keys ?? {})).toEqual([]);
    expect(
      s.events
        .filter((e) => matchesEvent(e, { keys: ['a/obj-0'] }) && 'key' in e)
        .every((e) => 'key' in e && e.key === 'a/obj-0'),
    ).toBe(true);
  });
});
