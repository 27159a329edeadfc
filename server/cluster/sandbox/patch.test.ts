import { describe, expect, it } from 'vitest';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patch';

describe('JSON merge patch (RFC 7386)', () => {
  it('merges maps, deletes on null and replaces arrays', () => {
    const doc = { a: { b: 1, c: 2 }, list: [1, 2], keep: true };
    expect(applyMergePatch(doc, { a: { b: null, d: 3 }, list: [3] })).toEqual({
      a: { c: 2, d: 3 },
      list: [3],
      keep: true,
    });
    expect(doc.a.b).toBe(1);
  });
});

describe('JSON patch (RFC 6902)', () => {
  const doc = { metadata: { labels: { a: '1' } }, spec: { items: ['x', 'y'] } };

  it('applies add, replace, remove, move, copy and test', () => {
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/metadata/labels/b', value: '2' },
      { op: 'replace', path: '/metadata/labels/a', value: '9' },
      { op: 'add', path: '/spec/items/-', value: 'z' },
      { op: 'remove', path: '/spec/items/0' },
      { op: 'copy', from: '/metadata/labels/b', path: '/metadata/labels/c' },
      { op: 'move', from: '/metadata/labels/c', path: '/metadata/labels/d' },
      { op: 'test', path: '/metadata/labels/d', value: '2' },
    ]);
    expect(out).toEqual({ metadata: { labels: { a: '9', b: '2', d: '2' } }, spec: { items: ['y', 'z'] } });
  });

  it('fails a test op as a non-malformed error (422)', () => {
    try {
      applyJsonPatch(doc, [{ op: 'test', path: '/metadata/labels/a', value: 'nope' }]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PatchError);
      expect((e as PatchError).malformed).toBe(false);
    }
  });

  it('rejects a non-array body as malformed (400)', () => {
    expect(() => applyJsonPatch(doc, { op: 'add' })).toThrow(PatchError);
    try {
      applyJsonPatch(doc, { op: 'add' });
    } catch (e) {
      expect((e as PatchError).malformed).toBe(true);
    }
  });

  it('refuses to replace a missing key', () => {
    expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/metadata/nope', value: 1 }])).toThrow(/missing/);
  });

  it('escapes ~0 and ~1 in pointers', () => {
    const out = applyJsonPatch({ metadata: { annotations: {} } }, [
      { op: 'add', path: '/metadata/annotations/example.com~1a~0b', value: 'v' },
    ]);
    expect(out).toEqual({ metadata: { annotations: { 'example.com/a~b': 'v' } } });
  });
});

describe('strategic merge patch', () => {
  const pod = {
    metadata: { finalizers: ['a'], ownerReferences: [{ uid: 'u1', name: 'o1' }] },
    spec: {
      containers: [
        { name: 'app', image: 'v1', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 's1' },
      ],
      tolerations: [{ key: 'x' }],
    },
  };

  it('merges lists by their merge key and keeps other items', () => {
    const out = applyStrategicMergePatch(pod, {
      spec: {
        containers: [
          {
            name: 'app',
            image: 'v2',
            env: [{ name: 'B', value: '2' }],
            ports: [{ containerPort: 80, protocol: 'TCP' }],
          },
        ],
      },
    }) as typeof pod;
    expect(out.spec.containers).toEqual([
      {
        name: 'app',
        image: 'v2',
        ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }],
        // kube-apiserver puts an item new to the list before the server-only items (conformance suite).
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
      },
      { name: 'side', image: 's1' },
    ]);
  });

  it('replaces lists without a merge key', () => {
    const out = applyStrategicMergePatch(pod, { spec: { tolerations: [{ key: 'y' }] } }) as typeof pod;
    expect(out.spec.tolerations).toEqual([{ key: 'y' }]);
  });

  it('honours $patch: delete in list items and maps, and $patch: replace', () => {
    const out = applyStrategicMergePatch(pod, {
      spec: { containers: [{ name: 'side', $patch: 'delete' }] },
    }) as typeof pod;
    expect(out.spec.containers.map((c) => c.name)).toEqual(['app']);
    const replaced = applyStrategicMergePatch(pod, { spec: { $patch: 'replace', containers: [] } }) as typeof pod;
    expect(replaced.spec).toEqual({ containers: [] });
  });

  it('merges primitive set lists and deletes from them', () => {
    expect(
      (applyStrategicMergePatch(pod, { metadata: { finalizers: ['b', 'a'] } }) as typeof pod).metadata.finalizers,
    ).toEqual(['a', 'b']);
    expect(
      (applyStrategicMergePatch(pod, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as typeof pod)
        .metadata.finalizers,
    ).toEqual([]);
  });

  it('drops $setElementOrder directives and deletes keys set to null', () => {
    const out = applyStrategicMergePatch({ a: 1, b: 2 }, { $setElementOrder: [], a: null, '$setElementOrder/x': [] });
    expect(out).toEqual({ b: 2 });
  });

  it('uses port as the merge key of service ports', () => {
    const svc = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const out = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }) as typeof svc;
    expect(out.spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });
});
