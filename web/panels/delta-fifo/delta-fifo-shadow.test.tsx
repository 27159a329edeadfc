// A Go process's informer queue is followed from outside (the bridge's shadow): the panel must say so and
// claim no processing time. The TypeScript runtime cannot emit shadow events, so the events are scripted in
// the shape go/fifo.go sends (its own test checks them against client-go's informer).
import { describe, expect, it } from 'vitest';
import { FIFO_SHADOW_NOTE } from '../../../shared/protocol/events-cache';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { renderText, storeWith } from '../../fixtures/render';
import { DeltaFifo } from './DeltaFifo';
import { recentPops } from './delta-fifo-series';

function shadowView(shadow: boolean) {
  const s = new EventScript();
  const informer = 'v1/ConfigMap';
  const ref = { gvk: informer, namespace: 'ns', name: 'a', resourceVersion: '12' };
  s.emit({ kind: 'informer.lifecycle', informer, phase: 'started', fifo: 'RealFIFO' });
  s.emit({
    kind: 'fifo.delta',
    informer,
    delta: 'Added',
    key: 'ns/a',
    ref,
    pendingForKey: 1,
    queueLength: 1,
    ...(shadow ? { shadow } : {}),
  });
  s.advance(3);
  s.emit({
    kind: 'fifo.pop',
    informer,
    key: 'ns/a',
    deltas: ['Added'],
    queueLength: 0,
    ...(shadow ? { shadow } : { durationMs: 2 }),
  });
  return reduce(createView(), s.events);
}

describe('a queue followed from outside', () => {
  it('marks the informer, and its pops carry no processing time', () => {
    const view = shadowView(true);
    const inf = view.informers['v1/ConfigMap'];
    expect(inf?.fifoShadow).toBe(true);
    expect(inf?.counters.pops).toBe(1);
    expect(inf?.pendingKeys).toBe(0);
    const [pop] = recentPops(view.log, 'v1/ConfigMap');
    expect(pop?.deltas).toEqual(['Added']);
    expect(pop).not.toHaveProperty('durationMs');
  });

  it('the panel says how the queue is seen, and only then', () => {
    const route = { panel: 'delta-fifo' as const, informer: 'v1/ConfigMap' };
    const shadow = shadowView(true);
    const t = renderText(<DeltaFifo view={shadow} now={shadow.lastTs} route={route} />, storeWith(shadow));
    expect(t).toContain(FIFO_SHADOW_NOTE);
    const exact = shadowView(false);
    const u = renderText(<DeltaFifo view={exact} now={exact.lastTs} route={route} />, storeWith(exact));
    expect(u).not.toContain('Followed from outside');
    expect(u).toContain('2ms');
  });
});
