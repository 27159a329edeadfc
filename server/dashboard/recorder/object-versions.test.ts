import { describe, expect, it } from 'vitest';
import { ObjectVersionStore } from './object-versions';
import type { KubeObject } from '../../../shared/models/object';

const pod = (rv: string, phase: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', resourceVersion: rv, managedFields: [{ manager: 'x', time: rv }] },
  status: { phase },
});

describe('ObjectVersionStore', () => {
  it('stores versions as diffs, ignoring managedFields and repeated resourceVersions', () => {
    const s = new ObjectVersionStore();
    s.record('p', pod('1', 'Pending'), 10);
    s.record('p', pod('1', 'Pending'), 11);
    s.record('p', pod('2', 'Running'), 12);
    s.record('p', null, 13, '3');
    const v = s.versions('p');
    expect(v.map((x) => x.resourceVersion)).toEqual(['1', '2', '3']);
    expect(v[1]?.diff).toEqual([
      { op: 'replace', path: '/metadata/resourceVersion', value: '2', old: '1' },
      { op: 'replace', path: '/status/phase', value: 'Running', old: 'Pending' },
    ]);
    expect(v[2]?.deleted).toBe(true);
    expect(JSON.stringify(v)).not.toContain('managedFields');
  });

  it('bounds versions per object and objects tracked (least recently changed dropped)', () => {
    const s = new ObjectVersionStore({ maxObjects: 2, maxVersions: 3 });
    for (let i = 1; i <= 5; i++) s.record('a', pod(String(i), 'x'), i);
    expect(s.versions('a').map((x) => x.resourceVersion)).toEqual(['3', '4', '5']);
    s.record('b', pod('1', 'x'), 6);
    s.record('a', pod('6', 'x'), 7);
    s.record('c', pod('1', 'x'), 8);
    expect(s.size).toBe(2);
    expect(s.versions('b')).toEqual([]);
    expect(s.versions('a')).toHaveLength(3);
  });
});
