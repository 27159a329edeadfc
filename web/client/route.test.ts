import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute } from './route';

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
});
