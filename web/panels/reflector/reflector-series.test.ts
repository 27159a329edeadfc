import { describe, expect, it } from 'vitest';
import type { InformerView } from '../../../shared/protocol/view';
import { recordedSession, recordedView } from '../../fixtures/recorded-view';
import { REFLECTOR_TRANSITIONS, isReflectorTransition, transitionId } from '../../../shared/protocol/reflector-machine';
import { diagramEdges, legendRows, rewatches } from './state-diagram-model';
import { sessionRows, stateMachine, watchSeries } from './reflector-series';

describe('reflector builders', () => {
  const view = recordedView();
  const pods = view.informers['v1/Pod'] as InformerView;

  it('shows a 410 as its own row and the relist that followed, newest first', () => {
    const rows = sessionRows(pods, view.lastTs);
    const kinds = rows.map((r) => r.kind);
    expect(kinds).toContain('RELIST');
    expect(kinds).toContain('410 GONE');
    expect(kinds.indexOf('RELIST')).toBeLessThan(kinds.indexOf('410 GONE'));
    const relist = rows.find((r) => r.kind === 'RELIST');
    // The recording script deletes a Pod while the reflector backs off, so the relist finds it gone.
    expect(relist?.summary).toMatch(/[1-9]\d* deleted \(tombstones\)/);
    expect(rows[rows.length - 1]?.kind).toBe('LIST');
  });

  it('shows an open watch as open with a running duration', () => {
    const open = sessionRows(pods, view.lastTs).find((r) => r.open);
    expect(open?.kind).toBe('WATCH');
    expect(open?.duration).toMatch(/…$/);
  });

  it('records backoffs with their delay', () => {
    const b = sessionRows(pods, view.lastTs).find((r) => r.kind === 'BACKOFF');
    expect(b?.summary).toMatch(/^waiting [\d.]+m?s before retrying$/);
  });

  it('marks the current and visited states', () => {
    const sm = stateMachine(pods);
    expect(sm.current).toBe('watching');
    expect(sm.visited.has('backoff')).toBe(true);
    expect(sm.visited.has('relisting')).toBe(true);
  });

  it('charts watch events per bucket', () => {
    expect(watchSeries(pods).reduce((s, p) => s + (p.watchEvents ?? 0), 0)).toBe(pods.counters.watchEvents);
  });
});

describe('state diagram', () => {
  const pods = recordedView().informers['v1/Pod'] as InformerView;

  it('the recorded stream changes state only along edges of the table, as the runtime does', () => {
    const changes = recordedSession().events.flatMap((e) => (e.kind === 'reflector.state' ? [e] : []));
    expect(changes.length).toBeGreaterThan(4);
    expect(changes.filter((e) => !isReflectorTransition(e.from, e.to))).toEqual([]);
  });

  it('draws every edge of the shared transition table, and nothing else', () => {
    const drawn = diagramEdges(pods.counters).flatMap((e) => e.edges.map((t) => transitionId(t.from, t.to)));
    expect(drawn.sort()).toEqual(REFLECTOR_TRANSITIONS.map((t) => transitionId(t.from, t.to)).sort());
  });

  it('counts each arrow from the reported state changes', () => {
    const edges = diagramEdges(pods.counters);
    const count = (from: string, to: string) => edges.find((e) => e.from === from && e.to === to)?.count;
    expect(count('watching', 'backoff')).toBe(pods.counters.transitions['watching→backoff']);
    expect(count('backoff', 'relisting')).toBe(pods.counters.relists);
    expect(count('relisting', 'watching')).toBe(pods.counters.relists);
    expect(count('listing', 'watching')).toBe(1);
    expect(edges.find((e) => e.from === 'watching' && e.to === 'relisting')).toBeUndefined();
  });

  it('counts watches opened again without a state change', () => {
    const c = { ...pods.counters, watches: pods.counters.watches + 3 };
    expect(rewatches(c)).toBe(rewatches(pods.counters) + 3);
  });

  it('explains each edge once, the arrows into stopped together', () => {
    const rows = legendRows();
    expect(rows.map((r) => r.edge)).toContain('watching → backoff');
    expect(rows.map((r) => r.edge)).toContain('any → stopped');
    expect(rows.filter((r) => r.edge.endsWith('stopped'))).toHaveLength(1);
  });
});
