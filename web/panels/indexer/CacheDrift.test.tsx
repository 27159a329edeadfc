import { describe, expect, it } from 'vitest';
import type { DriftReport } from '../../../shared/protocol/drift';
import { reduce } from '../../../shared/protocol/reduce';
import { newInformer } from '../../../shared/protocol/reduce-informer';
import type { StampedEvent } from '../../../shared/protocol/events';
import { createView } from '../../../shared/protocol/view';
import { Reflector } from '../reflector/Reflector';
import { renderText } from '../../fixtures/render';
import { DriftResult } from './CacheDrift';
import { explainDrift } from './drift-series';

const report: DriftReport = {
  informer: 'v1/Pod',
  comparedAt: Date.UTC(2026, 0, 1),
  listResourceVersion: '420',
  pages: 3,
  pageSize: 500,
  durationMs: 40,
  cacheCount: 1200,
  serverCount: 1201,
  matching: 1190,
  missing: [{ key: 'demo/new-pod', serverResourceVersion: '418' }],
  extra: [{ key: 'demo/deleted-pod', cacheResourceVersion: '300' }],
  stale: [{ key: 'demo/web-1', cacheResourceVersion: '301', serverResourceVersion: '410' }],
  newerInCache: 0,
  omitted: { missing: 0, extra: 0, stale: 9 },
};

// Synthetic: a drift report is the server's answer to a compare command, which a recording does not hold.
function stalledInformer() {
  const inf = newInformer('v1/Pod', 0);
  inf.state = 'watching';
  inf.lastResourceVersion = '302';
  inf.history = [
    {
      type: 'list',
      seq: 1,
      beginTs: 0,
      endTs: 5,
      resourceVersion: '290',
      relist: false,
      cause: 'initial',
      items: 1200,
    },
    { type: 'watch', seq: 2, startTs: 6, resourceVersion: '290', timeoutSeconds: 300, events: 12, bookmarks: 0 },
  ];
  return inf;
}

describe('cache drift', () => {
  it('lists missing, extra and stale keys with both resourceVersions and says how many there are', () => {
    const t = renderText(<DriftResult report={report} inf={stalledInformer()} />);
    expect(t).toContain('1 missing');
    expect(t).toContain('1 extra');
    expect(t).toContain('10 stale');
    expect(t).toContain('demo/new-pod');
    expect(t).toContain('demo/deleted-pod');
    expect(t).toMatch(/demo\/web-1 stale 301 410/);
    expect(t).toContain('3 of 12 keys that differ shown');
    expect(t).toContain('Open the reflector history');
  });

  it('points at the open watch that did not deliver the changes', () => {
    const why = explainDrift(report, stalledInformer());
    expect(why.text).toContain('The watch open since rv 290 has delivered 12 events');
    expect(why.text).toContain('stalled watch');
    expect(why.entries.map((e) => e.type)).toEqual(['list', 'watch']);
  });

  it('says in sync when nothing differs', () => {
    const ok = { ...report, missing: [], extra: [], stale: [], omitted: { missing: 0, extra: 0, stale: 0 } };
    expect(explainDrift(ok, stalledInformer()).text).toMatch(/^In sync/);
  });
});

describe('cache drift beside the reflector history', () => {
  it('the Reflector panel offers the comparison too', () => {
    const view = reduce(createView(), [
      { kind: 'reflector.state', informer: 'v1/Pod', from: 'idle', to: 'listing', reason: 'initial', seq: 1, ts: 1 },
    ] as StampedEvent[]);
    const t = renderText(<Reflector view={view} now={2} route={{ panel: 'reflector', informer: 'v1/Pod' }} />);
    expect(t).toContain('Compare with the API server');
  });
});
