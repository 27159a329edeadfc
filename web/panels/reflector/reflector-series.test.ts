import { describe, expect, it } from 'vitest';
import type { InformerView } from '../../../shared/protocol/view';
import { fixtureView } from '../../fixtures/fixture-view';
import { diagramEdges } from './StateDiagram';
import { sessionRows, stateMachine, watchSeries } from './reflector-series';

describe('reflector builders', () => {
  const view = fixtureView();
  const pods = view.informers['v1/Pod'] as InformerView;
  const rs = view.informers['apps/v1/ReplicaSet'] as InformerView;

  it('shows a 410 as its own row and the relist that followed, newest first', () => {
    const rows = sessionRows(pods, view.lastTs);
    const kinds = rows.map((r) => r.kind);
    expect(kinds).toContain('RELIST');
    expect(kinds).toContain('410 GONE');
    expect(kinds.indexOf('RELIST')).toBeLessThan(kinds.indexOf('410 GONE'));
    const relist = rows.find((r) => r.kind === 'RELIST');
    expect(relist?.summary).toContain('2 deleted (tombstones)');
    expect(rows[rows.length - 1]?.kind).toBe('LIST');
  });

  it('shows an open watch as open with a running duration', () => {
    const open = sessionRows(pods, view.lastTs).find((r) => r.open);
    expect(open?.kind).toBe('WATCH');
    expect(open?.duration).toMatch(/…$/);
  });

  it('records backoffs with their delay', () => {
    const b = sessionRows(rs, view.lastTs).find((r) => r.kind === 'BACKOFF');
    expect(b?.summary).toBe('waiting 800ms before retrying');
  });

  it('marks the current and visited states', () => {
    const sm = stateMachine(rs);
    expect(sm.current).toBe('watching');
    expect(sm.visited.has('backoff')).toBe(true);
    expect(sm.visited.has('relisting')).toBe(true);
  });

  it('charts watch events per bucket', () => {
    expect(watchSeries(pods).reduce((s, p) => s + (p.watchEvents ?? 0), 0)).toBe(pods.counters.watchEvents);
  });
});

describe('state diagram', () => {
  it('counts transitions from the informer counters', () => {
    const pods = fixtureView().informers['v1/Pod'] as InformerView;
    const edges = diagramEdges(pods.counters);
    const byLabel = (from: string, to: string) => edges.find((e) => e.from === from && e.to === to)?.count;
    expect(byLabel('watching', 'relisting')).toBe(pods.counters.expired);
    expect(byLabel('relisting', 'watching')).toBe(pods.counters.relists);
    expect(byLabel('listing', 'watching')).toBe(1);
  });
});
