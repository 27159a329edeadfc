import { describe, expect, it } from 'vitest';
import type { ControllerView, InformerView } from '../../../shared/protocol/view';
import { newController } from '../../../shared/protocol/reduce-controller';
import { recordedView } from '../../fixtures/recorded-view';
import { newInformer } from '../../../shared/protocol/reduce-informer';
import { activitySeries, buildPipeline, controllerLane, controllerSources, informerLane } from './overview-series';

describe('buildPipeline', () => {
  const view = recordedView();
  const p = buildPipeline(view);

  it('has one lane per informer and per controller, sorted by name', () => {
    expect(p.informers.map((l) => l.id)).toEqual(Object.keys(view.informers).sort());
    expect(p.controllers.map((l) => l.name)).toEqual(['flaky', 'hot-loop', 'pod-counter', 'replicaset-owner']);
  });

  it('wires each controller to the informer it watches', () => {
    for (const c of p.controllers) expect(c.sources).toContain(view.controllers[c.name]?.forKind);
    expect(p.controllers.find((c) => c.name === 'flaky')?.sources).toEqual(['v1/ConfigMap']);
  });

  it('carries live counts and flow rates for the boxes and arrows', () => {
    const pods = p.informers.find((l) => l.id === 'v1/Pod');
    expect(pods?.synced).toBe(true);
    expect(pods?.storeSize).toBe(view.informers['v1/Pod']?.storeSize);
    expect(pods?.watchRate).toBeGreaterThan(0);
    expect(pods?.handlers.map((h) => h.split(' / ')[0])).toEqual(['pod-counter', 'replicaset-owner']);
    const hot = p.controllers.find((c) => c.name === 'hot-loop');
    expect(hot?.hotLoops).toBe(1);
    expect(hot?.tone).toBe('err');
    expect(p.totals.hotLoops).toBe(1);
    expect(p.totals.synced).toBe(Object.keys(view.informers).length);
  });

  it('marks a controller with errors but no hot loop as a warning', () => {
    expect(p.controllers.find((c) => c.name === 'flaky')?.tone).toBe('warn');
  });
});

describe('controllerSources', () => {
  it('uses For(), the informer handler list and the kinds handlers saw', () => {
    // Synthetic: a controller that watches a kind no informer reports; the recorded manager has none such.
    const c: ControllerView = {
      ...newController('x', 0),
      forKind: 'v1/Pod',
      watches: ['apps/v1/ReplicaSet', 'v1/Secret'],
    };
    const informers = [
      { id: 'v1/Pod', handlers: [] },
      { id: 'apps/v1/ReplicaSet', handlers: [] },
    ] as unknown as InformerView[];
    expect(controllerSources(c, informers)).toEqual(['v1/Pod', 'apps/v1/ReplicaSet']);
  });

  it('uses the Owns / Watches kinds the controller reported, before any event of them arrived', () => {
    const c: ControllerView = {
      ...newController('x', 0),
      forKind: 'v1/Pod',
      sources: [
        { role: 'for', kind: 'v1/Pod' },
        { role: 'owns', kind: 'v1/Secret' },
      ],
    };
    const informers = [
      { id: 'v1/Pod', handlers: [] },
      { id: 'v1/Secret', handlers: [] },
    ] as unknown as InformerView[];
    expect(controllerSources(c, informers)).toEqual(['v1/Pod', 'v1/Secret']);
  });

  it("links a lane's controller to the same lane's informers, never to another process's", () => {
    // With two replicas attached, names carry the process: "[op-0] mirror" is fed by "[op-0] v1/ConfigMap",
    // whose handler list names the process's own controller name. Before, no link was found at all.
    const c: ControllerView = { ...newController('[op-0] mirror', 0), forKind: 'v1/ConfigMap', watches: ['v1/Secret'] };
    const informers = [
      { id: '[op-0] v1/ConfigMap', handlers: ['mirror'] },
      { id: '[op-0] v1/Secret', handlers: [] },
      { id: '[op-1] v1/ConfigMap', handlers: ['mirror'] },
      { id: 'v1/ConfigMap', handlers: [] },
    ] as unknown as InformerView[];
    expect(controllerSources(c, informers)).toEqual(['[op-0] v1/ConfigMap', '[op-0] v1/Secret']);
  });
});

describe('rates', () => {
  it('fall to zero once a controller has been idle for a whole window', () => {
    const view = recordedView();
    const c = Object.values(view.controllers).find((x) => x.series.some((p) => p.reconciles > 0))!;
    const busy = controllerLane(c, [], view, c.lastTs);
    expect(busy.reconcileRate).toBeGreaterThan(0);
    const idle = controllerLane(c, [], view, c.lastTs + view.limits.rateWindowMs + 1000);
    expect(idle.reconcileRate).toBe(0);
    expect(idle.addRate).toBe(0);
  });
});

describe('activitySeries', () => {
  it('aligns every controller’s reconciles and all watch events per bucket', () => {
    const view = recordedView();
    const pts = activitySeries(view);
    const sum = (k: string) => pts.reduce((s, p) => s + (p[k] ?? 0), 0);
    expect(sum('flaky')).toBe(view.controllers['flaky']?.series.reduce((s, p) => s + p.reconciles, 0));
    const watchEvents = Object.values(view.informers).reduce((s, i) => s + i.counters.watchEvents, 0);
    expect(sum('watchEvents')).toBe(watchEvents);
    expect(pts.every((p, i) => i === 0 || (pts[i - 1]?.t ?? 0) < p.t)).toBe(true);
    expect(pts.every((p) => 'pod-counter' in p)).toBe(true);
  });
});

describe('informerLane', () => {
  it('names the error that keeps a cache from syncing (e.g. 403 on missing RBAC)', () => {
    // Synthetic: an informer that never synced for a 403 (missing RBAC); every recorded informer synced, and
    // the sandbox's error fault, injected after start, would hit only a relist.
    const inf = { ...newInformer('v1/Secret', 0), state: 'backoff' as const };
    inf.lastError = { ts: 1, code: 403, reason: 'Forbidden', message: 'secrets is forbidden' };
    expect(informerLane(inf, 10_000)).toMatchObject({ blockingError: '403 Forbidden', tone: 'err' });
    expect(informerLane({ ...inf, synced: true }, 10_000).blockingError).toBeUndefined();
  });
});
