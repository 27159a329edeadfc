import { describe, expect, it } from 'vitest';
import { diffJson } from './json-diff';

describe('diffJson', () => {
  it('reports adds, removes and replaces as JSON pointers', () => {
    const ops = diffJson(
      { spec: { replicas: 1, 'a/b': 1 }, status: { ready: 0 }, list: [1, 2, 3] },
      { spec: { replicas: 2 }, status: { ready: 0, phase: 'Running' }, list: [1, 5] },
    );
    expect(ops).toEqual([
      { op: 'replace', path: '/spec/replicas', value: 2, old: 1 },
      { op: 'remove', path: '/spec/a~1b', old: 1 },
      { op: 'add', path: '/status/phase', value: 'Running' },
      { op: 'replace', path: '/list/1', value: 5, old: 2 },
      { op: 'remove', path: '/list/2', old: 3 },
    ]);
  });

  it('is empty for equal values and a root add from nothing', () => {
    expect(diffJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(diffJson(undefined, { a: 1 })).toEqual([{ op: 'add', path: '', value: { a: 1 } }]);
  });
});
