import { describe, expect, it } from 'vitest';
import { compareResourceVersions, diffCache, inSync } from './drift';

const m = (o: Record<string, string>) => new Map(Object.entries(o));

describe('diffCache', () => {
  it('finds keys the cache misses, still holds and holds at an older version', () => {
    const d = diffCache(
      m({ 'ns/same': '5', 'ns/old': '7', 'ns/deleted': '3' }),
      m({ 'ns/same': '5', 'ns/old': '9', 'ns/created': '8' }),
      '10',
    );
    expect(d.matching).toBe(1);
    expect(d.missing).toEqual([{ key: 'ns/created', serverResourceVersion: '8' }]);
    expect(d.extra).toEqual([{ key: 'ns/deleted', cacheResourceVersion: '3' }]);
    expect(d.stale).toEqual([{ key: 'ns/old', cacheResourceVersion: '7', serverResourceVersion: '9' }]);
    expect(inSync(d)).toBe(false);
  });

  it('does not call a change that reached the cache after the LIST drift', () => {
    const d = diffCache(m({ 'ns/a': '12', 'ns/new': '11' }), m({ 'ns/a': '9' }), '10');
    expect(d.newerInCache).toBe(2);
    expect(inSync(d)).toBe(true);
  });

  it('lists at most maxEntries per kind and counts the rest', () => {
    const server = new Map(Array.from({ length: 30 }, (_, i) => [`ns/k${String(i).padStart(2, '0')}`, '1']));
    const d = diffCache(new Map(), server, '1', 10);
    expect(d.missing).toHaveLength(10);
    expect(d.missing[0]?.key).toBe('ns/k00');
    expect(d.omitted.missing).toBe(20);
  });

  it('compares integer resourceVersions only', () => {
    expect(compareResourceVersions('9', '10')).toBe(-1);
    expect(compareResourceVersions('10', '10')).toBe(0);
    expect(compareResourceVersions('abc', '10')).toBeUndefined();
  });
});
