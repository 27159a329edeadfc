import { describe, expect, it } from 'vitest';
import { recordedView } from '../../fixtures/recorded-view';
import { diffLines, filterKeys, knownKeys, lowerKeys, recentOps, sameKeys, splitKey } from './indexer-series';

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
    const view = recordedView();
    // The last indexer op per Pod key in the recording: the script's deleted Pod ends in a delete.
    const last = new Map<string, string>();
    for (const e of view.log) if (e.kind === 'indexer.update' && e.informer === 'v1/Pod') last.set(e.key, e.op);
    const live = [...last].find(([, op]) => op !== 'delete')?.[0] as string;
    const gone = [...last].find(([, op]) => op === 'delete')?.[0] as string;
    expect(live).toBeDefined();
    expect(gone).toBeDefined();
    const keys = knownKeys(view, 'v1/Pod');
    expect(keys).toContain(live);
    expect(keys).not.toContain(gone);
    expect(knownKeys(view, 'v1/Pod', live.split('/')[1])).toEqual([live]);
  });

  it('lists the newest indexer writes first', () => {
    const ops = recentOps(recordedView().log, 'v1/Pod', 5);
    expect(ops).toHaveLength(5);
    expect(ops[0]!.seq).toBeGreaterThan(ops[4]!.seq);
  });

  it('filters a key list by a search in any case, keeping its order, and lists it whole without one', () => {
    const keys = ['default/Web-1', 'default/db-0', 'kube-system/web-proxy', 'load/cm-00012'];
    const lower = lowerKeys(keys);
    expect(filterKeys(keys, lower, ' WEB ')).toEqual(['default/Web-1', 'kube-system/web-proxy']);
    expect(filterKeys(keys, lower, 'cm-0001')).toEqual(['load/cm-00012']);
    expect(filterKeys(keys, lower, 'nothing')).toEqual([]);
    expect(filterKeys(keys, lower, '')).toBe(keys);
  });

  it('tells an unchanged key list from a changed one', () => {
    expect(sameKeys(['a/1', 'a/2'], ['a/1', 'a/2'])).toBe(true);
    expect(sameKeys(['a/1', 'a/2'], ['a/1', 'a/3'])).toBe(false);
    expect(sameKeys(['a/1'], ['a/1', 'a/2'])).toBe(false);
    expect(sameKeys(undefined, ['a/1'])).toBe(false);
    expect(sameKeys(undefined, undefined)).toBe(true);
  });
});
