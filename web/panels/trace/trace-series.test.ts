import { describe, expect, it } from 'vitest';
import type { ControllerView, KeyView } from '../../../shared/protocol/view';
import { recordedView } from '../../fixtures/recorded-view';
import { focusController } from '../focus';
import { cadenceSeries, describeCause, groupCauses, interestingKeys, traceEntries, writesForKey } from './trace-series';

const pod = { gvk: 'v1/Pod', namespace: 'default', name: 'web-1', resourceVersion: '42' };

describe('causes', () => {
  it('describes a cause in one line', () => {
    expect(describeCause({ type: 'event', eventType: 'update', source: pod })).toBe(
      'event update v1/Pod default/web-1 @rv 42',
    );
    expect(describeCause({ type: 'errorBackoff', detail: 'boom' })).toBe('errorBackoff — boom');
  });

  it('keeps every cause, collapsing identical ones with a count', () => {
    const g = groupCauses([
      { type: 'event', eventType: 'update', source: pod },
      { type: 'requeueAfter' },
      { type: 'event', eventType: 'update', source: pod },
    ]);
    expect(g.map((x) => [x.type, x.count])).toEqual([
      ['event', 2],
      ['requeueAfter', 1],
    ]);
  });
});

describe('a hot-looping key in the recorded session', () => {
  const view = recordedView();
  const c = view.controllers['hot-loop'] as ControllerView;
  const key = c.hotLoops[0]?.key ?? 'the recording has no hot loop';
  const k = c.keys[key] as KeyView;

  it('is traced first', () => {
    expect(interestingKeys(c)[0]).toBe(key);
  });

  it('shows each reconcile newest first with its self-caused trigger marked', () => {
    const entries = traceEntries(k);
    expect(entries[0]?.rec.seq).toBeGreaterThan(entries[1]?.rec.seq ?? Infinity);
    const self = entries.find((e) => e.rec.selfCaused);
    expect(self?.causes.some((g) => g.self)).toBe(true);
  });

  it('lists the controller’s own writes to the object', () => {
    // The example hot loop patches an annotation on the object it reconciles.
    expect(writesForKey(c, k.key)[0]?.verb).toBe('patch');
  });

  it('charts the cadence with self-caused reconciles', () => {
    const pts = cadenceSeries(k);
    expect(pts.reduce((s, p) => s + (p.reconciles ?? 0), 0)).toBe(k.history.length);
    expect(pts.reduce((s, p) => s + (p.selfCaused ?? 0), 0)).toBeGreaterThan(0);
  });
});

describe('default focus', () => {
  it('traces the controller in most trouble and teaches with the calmest', () => {
    const view = recordedView();
    expect(focusController(view, { panel: 'trace' }, 'trouble')?.name).toBe('hot-loop');
    expect(focusController(view, { panel: 'learn' }, 'healthy')?.name).toBe('pod-counter');
    expect(focusController(view, { panel: 'trace', controller: 'flaky' }, 'trouble')?.name).toBe('flaky');
  });
});
