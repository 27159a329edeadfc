import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../../shared/protocol/json-diff';
import { ObjectVersionStore } from './object-versions';
import type { KubeObject } from '../../../shared/models/object';
import type { ObjectVersion } from '../../../shared/protocol/socket';

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

/** The store as first written (a new entry and arrays per record): the behaviour the store must keep. */
class ReferenceStore {
  private readonly entries = new Map<string, { last: KubeObject | null; versions: ObjectVersion[] }>();
  constructor(
    private readonly maxObjects: number,
    private readonly maxVersions: number,
  ) {}
  record(id: string, obj: KubeObject | null, ts: number, resourceVersion?: string): void {
    const e = this.entries.get(id);
    const rv = obj?.metadata.resourceVersion ?? resourceVersion ?? '';
    if (e) {
      const newest = e.versions[e.versions.length - 1];
      if (newest && newest.resourceVersion === rv && Boolean(newest.deleted) === (obj === null)) return;
      this.entries.delete(id);
    }
    const prev = e?.last ?? null;
    let next = obj;
    if (obj?.metadata.managedFields) {
      const { managedFields: _drop, ...metadata } = obj.metadata;
      next = { ...obj, metadata };
    }
    const version: ObjectVersion = {
      resourceVersion: rv,
      ts,
      diff: next === null ? [] : diffJson(prev ?? undefined, next),
      ...(next === null ? { deleted: true } : {}),
    };
    const versions = [...(e?.versions ?? []), version].slice(-this.maxVersions);
    this.entries.set(id, { last: next ?? prev, versions });
    if (this.entries.size > this.maxObjects) this.entries.delete(this.entries.keys().next().value as string);
  }
  versions(id: string): ObjectVersion[] {
    return this.entries.get(id)?.versions ?? [];
  }
  clear(): void {
    this.entries.clear();
  }
}

describe('ObjectVersionStore, against the reference', () => {
  it('keeps the same versions for any sequence of changes and deletions', () => {
    const op = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd'),
      rv: fc.integer({ min: 1, max: 6 }),
      phase: fc.constantFrom('Pending', 'Running'),
      deleted: fc.boolean(),
      clear: fc.integer({ min: 0, max: 40 }).map((n) => n === 0),
    });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 120 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        (ops, maxObjects, maxVersions) => {
          const s = new ObjectVersionStore({ maxObjects, maxVersions });
          const ref = new ReferenceStore(maxObjects, maxVersions);
          const handedOut: { id: string; versions: ObjectVersion[]; copy: string }[] = [];
          ops.forEach((o, ts) => {
            if (o.clear) {
              s.clear();
              ref.clear();
            }
            const obj = o.deleted ? null : pod(String(o.rv), o.phase);
            s.record(o.id, obj, ts, String(o.rv));
            ref.record(o.id, obj, ts, String(o.rv));
            const got = s.versions(o.id);
            handedOut.push({ id: o.id, versions: got, copy: JSON.stringify(got) });
          });
          for (const id of ['a', 'b', 'c', 'd']) expect(s.versions(id)).toEqual(ref.versions(id));
          // What a caller was handed does not change as later versions arrive.
          for (const h of handedOut) expect(JSON.stringify(h.versions)).toBe(h.copy);
        },
      ),
    );
  });
});
