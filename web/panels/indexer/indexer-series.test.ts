import { describe, expect, it } from 'vitest';
import { fixtureView } from '../../fixtures/fixture-view';
import { diffLines, knownKeys, recentOps, splitKey } from './indexer-series';

describe('indexer builders', () => {
  it('renders diffs as readable lines', () => {
    expect(
      diffLines([
        { op: 'add', path: '' },
        { op: 'replace', path: '/status/phase', old: 'Pending', value: 'Running' },
        { op: 'remove', path: '/metadata/labels/x', old: 'y' },
        { op: 'add', path: '/spec/replicas', value: 3 },
      ]),
    ).toEqual([
      { sign: '+', path: '(object)', text: 'first version seen' },
      { sign: '~', path: '/status/phase', text: '"Pending" → "Running"' },
      { sign: '-', path: '/metadata/labels/x', text: '"y"' },
      { sign: '+', path: '/spec/replicas', text: '3' },
    ]);
  });

  it('splits keys into namespace and name', () => {
    expect(splitKey('default/web-1')).toEqual({ namespace: 'default', name: 'web-1' });
    expect(splitKey('node-1')).toEqual({ name: 'node-1' });
  });

  it('knows keys from events when the server cannot list the cache, and drops deleted ones', () => {
    const view = fixtureView();
    const keys = knownKeys(view, 'v1/Pod');
    expect(keys).toContain('default/web-001');
    expect(keys).not.toContain('default/gone-0');
    expect(knownKeys(view, 'v1/Pod', 'web-001')).toEqual(['default/web-001']);
  });

  it('lists the newest indexer writes first', () => {
    const ops = recentOps(fixtureView().log, 'v1/Pod', 5);
    expect(ops).toHaveLength(5);
    expect(ops[0]!.seq).toBeGreaterThan(ops[4]!.seq);
  });
});
