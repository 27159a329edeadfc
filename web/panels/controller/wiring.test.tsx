// The Controller header and Learn's queue block say what the runtime reported about the controller's wiring
// and queue, on the recorded session plus the lifecycle event a runtime that reports them sends.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import type { RuntimeView } from '../../../shared/protocol/view';
import { recordedView } from '../../fixtures/recorded-view';
import { renderText, storeWith } from '../../fixtures/render';
import { Learn } from '../learn/Learn';
import { Trace } from '../trace/Trace';
import { Controller } from './Controller';

const base = recordedView();

function withEvents(evs: RuntimeEvent[]): RuntimeView {
  let seq = base.lastSeq;
  const ts = base.lastTs;
  return reduce(
    base,
    evs.map((e) => ({ ...e, seq: ++seq, ts }) as StampedEvent),
  );
}

const wired = (queue: 'priority' | 'rateLimiting' | 'custom', rateLimiter: 'default' | 'custom' = 'default') =>
  withEvents([
    {
      kind: 'controller.lifecycle',
      controller: 'replicaset-owner',
      phase: 'started',
      forKind: 'apps/v1/ReplicaSet',
      sources: [
        { role: 'for', kind: 'apps/v1/ReplicaSet', handler: 'EnqueueRequestForObject' },
        { role: 'owns', kind: 'v1/Pod', handler: 'EnqueueRequestForOwner' },
        { role: 'watches', kind: 'apps/v1/Deployment', handler: 'EnqueueRequestsFromMapFunc' },
      ],
      queueKind: queue,
      rateLimiter,
    },
  ]);

const render = (view: RuntimeView, el: 'controller' | 'learn' | 'trace') => {
  const props = { view, now: view.lastTs, route: { panel: el, controller: 'replicaset-owner' } as const };
  const node =
    el === 'controller' ? <Controller {...props} /> : el === 'learn' ? <Learn {...props} /> : <Trace {...props} />;
  return renderText(node, storeWith(view));
};

describe('the Controller header', () => {
  it('shows For, Owns and Watches and the queue kind, as the runtime reported them', () => {
    const t = render(wired('priority'), 'controller');
    expect(t).toContain('For(apps/v1/ReplicaSet) · Owns(v1/Pod) · Watches(apps/v1/Deployment)');
    expect(t).toContain('priority queue');
    expect(t).not.toContain('not reported');
  });

  it('says Owns / Watches are not reported rather than showing For() as if it were all', () => {
    const t = render(base, 'controller');
    expect(t).toContain('For(apps/v1/ReplicaSet)');
    expect(t).toContain('Owns / Watches not reported');
    expect(t).toContain('queue not reported');
  });
});

describe('Learn’s builder block', () => {
  it('lists each controller’s builder calls as reported, not a sentence written for one example', () => {
    const t = render(wired('priority'), 'learn');
    expect(t).toContain('replicaset-owner : For(apps/v1/ReplicaSet).Owns(v1/Pod).Watches(apps/v1/Deployment)');
    expect(t).toContain('pod-counter : For(v1/Pod) (Owns / Watches not reported)');
    expect(t).not.toContain('map to its ReplicaSets');
  });
});

describe('NotFound reads', () => {
  it('are counted apart from client errors, not in red', () => {
    const view = withEvents([
      {
        kind: 'client.request',
        controller: 'replicaset-owner',
        verb: 'get',
        ref: { gvk: 'apps/v1/ReplicaSet', namespace: 'demo', name: 'gone' },
        cached: true,
        durationMs: 0,
        code: 404,
        error: 'replicasets.apps "gone" not found',
      },
    ]);
    const before = base.controllers['replicaset-owner']?.client;
    const after = view.controllers['replicaset-owner']?.client;
    expect(after?.errors).toBe(before?.errors);
    expect(after?.notFound).toBe((before?.notFound ?? 0) + 1);
    const t = render(view, 'controller');
    expect(t).toMatch(new RegExp(`reads not found ${after?.notFound}`));
  });
});

describe('the rate limiter a failed key goes through', () => {
  it('on the priority queue: the per-key exponential only, no token bucket (Learn and the trace agree)', () => {
    for (const panel of ['learn', 'trace'] as const) {
      const t = render(wired('priority'), panel);
      expect(t, panel).toContain('ItemExponentialFailureRateLimiter(5ms, 1000s)');
      expect(t, panel).toContain('no overall token bucket');
    }
  });

  it('on the classic rate-limiting queue: the max of the exponential and the 10 qps / 100 burst bucket', () => {
    const t = render(wired('rateLimiting'), 'learn');
    expect(t).toContain('DefaultTypedControllerRateLimiter');
    expect(t).toContain('an overall token bucket (10 per second, bursts of 100)');
  });

  it('claims neither when the limiter is custom or the queue kind was not reported', () => {
    for (const view of [wired('priority', 'custom'), wired('custom'), base]) {
      const t = render(view, 'learn');
      expect(t).toContain('Which rate limiter this controller’s queue has was not reported');
      expect(t).not.toContain('Its queue’s rate limiter is');
    }
  });
});
