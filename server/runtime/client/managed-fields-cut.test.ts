// Decoding without managedFields equals JSON.parse followed by dropping metadata.managedFields, for any object:
// nasty fieldsV1 keys, a managedFields key elsewhere, JSON text in annotations, any key order. Malformed and
// truncated text fails exactly as JSON.parse does.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  parseListWithoutManagedFields,
  parseObjectWithoutManagedFields,
  parseWatchEventWithoutManagedFields,
} from './managed-fields-cut';
import { dropManagedFields } from '../cache/transforms';

type Json = ReturnType<typeof JSON.parse>;

/** Characters that trip a naive scanner: quotes, backslashes, brackets, separators, non-ASCII. */
const nastyChar = fc.constantFrom(
  ...'"\\[]{}:,ab\u00e9\u2028\u{1F600}'.split(''),
  '"managedFields":[',
  'managedFields',
  '\\"',
  '\\\\',
);
const nastyString = fc.string({ unit: nastyChar, maxLength: 12 });

const fieldsV1: fc.Arbitrary<Json> = fc.letrec((tie) => ({
  node: fc.dictionary(
    nastyString.map((s) => `f:${s}`),
    fc.oneof({ depthSize: 'small' }, fc.constant({}), tie('node')),
    { maxKeys: 4 },
  ),
})).node;

const managedFieldsEntry = fc.record(
  {
    manager: nastyString,
    operation: fc.constantFrom('Update', 'Apply'),
    apiVersion: fc.constant('v1'),
    time: fc.constant('2026-12-01T00:00:00Z'),
    fieldsType: fc.constant('FieldsV1'),
    fieldsV1,
    subresource: fc.constant('status'),
  },
  { requiredKeys: ['manager', 'operation', 'fieldsV1'] },
);

/** Entries in a random order (so managedFields may come first, last or in between). */
function shuffled(entries: [string, Json][], order: number[]): Record<string, Json> {
  const idx = entries.map((e, i) => ({ e, k: order[i % Math.max(order.length, 1)] ?? 0, i }));
  idx.sort((a, b) => a.k - b.k || a.i - b.i);
  return Object.fromEntries(idx.map((x) => x.e));
}

const order = fc.array(fc.nat(20), { minLength: 1, maxLength: 12 });

const annotations = fc.dictionary(
  fc.constantFrom('a', 'kubectl.kubernetes.io/last-applied-configuration', 'x'),
  fc.oneof(
    nastyString,
    fc.constant('{"metadata":{"managedFields":[{"manager":"x"}]},"managedFields":[1,2]}'),
    fc.constant('"managedFields":[[['),
  ),
);

/** metadata.managedFields: usually an array, sometimes absent, null or another type the decoder must not cut. */
const metaManagedFields = fc.oneof(
  { weight: 6, arbitrary: fc.array(managedFieldsEntry, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, 'x', 0, '[not an array]') },
);

const metadata = fc
  .record(
    {
      name: nastyString,
      namespace: fc.constant('default'),
      resourceVersion: fc.nat().map(String),
      annotations,
      labels: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
      managedFields: metaManagedFields,
    },
    { requiredKeys: ['name'] },
  )
  .chain((m) => order.map((o) => shuffled(Object.entries(m), o)));

/** Absent four times in five (undefined members vanish in JSON.stringify). */
const rarely = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });

/** A spec that may hold a managedFields key of its own, of any type (an array included). */
const spec = fc
  .record(
    {
      // Present in one spec of five, so that most Lists are still cut whole.
      managedFields: rarely(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(managedFieldsEntry, { maxLength: 2 }))),
      replicas: fc.nat(),
      template: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((s) => s as Json);

const object = fc
  .record(
    {
      apiVersion: fc.constant('v1'),
      kind: fc.constant('Pod'),
      metadata,
      spec,
      status: fc.record({
        managedFields: rarely(fc.jsonValue({ maxDepth: 2 })),
        phase: fc.constant('Running'),
      }),
    },
    { requiredKeys: ['metadata'] },
  )
  .chain((o) => order.map((ord) => shuffled(Object.entries(o), ord)));

/** What parse-then-strip keeps: the object with an array metadata.managedFields removed, all else as parsed. */
function stripped(obj: Json): Json {
  const m = obj?.metadata;
  if (m && typeof m === 'object' && Array.isArray(m.managedFields)) {
    const { managedFields: _dropped, ...rest } = m;
    return { ...obj, metadata: rest };
  }
  return obj;
}

/** Equal values and the same key order (JSON.stringify sees order; toStrictEqual sees -0, undefined, types). */
function expectSame(actual: Json, expected: Json): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/**
 * decoded is what the cut gave for an object that JSON.parse gives as parsed: the same once managedFields are
 * dropped (the cut may instead have parsed in full, leaving them to the transform), and the same after the
 * informer's transform. Returns whether the cut took them out itself.
 */
function checkObject(decoded: Json, parsed: Json): boolean {
  expectSame(stripped(decoded), stripped(parsed));
  expectSame(dropManagedFields(decoded), dropManagedFields(parsed));
  return Array.isArray(parsed?.metadata?.managedFields) && !('managedFields' in decoded.metadata);
}

/** The property must mostly exercise the cut, not the full re-parse (which passes trivially). */
function expectMostlyCut(cut: number, withArrays: number): void {
  expect(withArrays).toBeGreaterThan(50);
  expect(cut / withArrays).toBeGreaterThan(0.5);
}

const RUNS = { numRuns: 300 };

describe('decoding without managedFields', () => {
  it('a single object equals JSON.parse with metadata.managedFields dropped', () => {
    let cut = 0;
    let withArrays = 0;
    fc.assert(
      fc.property(object, (o) => {
        const text = JSON.stringify(o);
        const parsed = JSON.parse(text);
        if (Array.isArray(parsed.metadata.managedFields)) withArrays++;
        if (checkObject(parseObjectWithoutManagedFields(text), parsed)) cut++;
      }),
      RUNS,
    );
    expectMostlyCut(cut, withArrays);
  });

  it('a watch line equals JSON.parse with the object’s metadata.managedFields dropped', () => {
    let cut = 0;
    let withArrays = 0;
    fc.assert(
      fc.property(fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'), object, fc.boolean(), (type, o, objectFirst) => {
        const text = JSON.stringify(objectFirst ? { object: o, type } : { type, object: o });
        const parsed = JSON.parse(text);
        const decoded = parseWatchEventWithoutManagedFields(text) as Json;
        expect(Object.keys(decoded)).toEqual(Object.keys(parsed));
        expect(decoded.type).toBe(type);
        if (Array.isArray(parsed.object.metadata.managedFields)) withArrays++;
        if (checkObject(decoded.object, parsed.object)) cut++;
      }),
      RUNS,
    );
    expectMostlyCut(cut, withArrays);
  });

  it('a List body equals JSON.parse with each item’s metadata.managedFields dropped', () => {
    let cut = 0;
    let lists = 0;
    fc.assert(
      fc.property(fc.array(object, { maxLength: 6 }), fc.boolean(), (items, itemsFirst) => {
        const listMeta = { resourceVersion: '7' };
        const text = JSON.stringify(
          itemsFirst
            ? { items, kind: 'PodList', metadata: listMeta }
            : { apiVersion: 'v1', kind: 'PodList', metadata: listMeta, items },
        );
        const parsed = JSON.parse(text);
        const decoded = parseListWithoutManagedFields(text) as Json;
        expectSame({ ...decoded, items: [] }, { ...parsed, items: [] });
        expect(decoded.items).toHaveLength(parsed.items.length);
        let all = true;
        let any = false;
        parsed.items.forEach((p: Json, i: number) => {
          const took = checkObject(decoded.items[i], p);
          if (Array.isArray(p.metadata.managedFields)) any = true;
          if (Array.isArray(p.metadata.managedFields) && !took) all = false;
        });
        if (any) lists++;
        if (any && all) cut++;
      }),
      RUNS,
    );
    // A list is cut whole or not at all; with up to six random items a fair share still holds a stray array.
    expect(lists).toBeGreaterThan(50);
    expect(cut / lists).toBeGreaterThan(0.2);
  });
});

describe('decoding without managedFields: which path', () => {
  afterEach(() => vi.restoreAllMocks());

  const pod = {
    metadata: {
      name: 'p',
      annotations: { note: '{"managedFields":[{"k:{\\"type\\":\\"Ready\\"}":{}}]}' },
      managedFields: [{ manager: 'm', fieldsV1: { 'f:status': { 'k:{"type":"Ready"}': { '.': {} } } } }],
    },
    spec: { containers: [{ name: 'c' }] },
  };

  it('parses a typical object once, without its managedFields', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const out = parseObjectWithoutManagedFields(JSON.stringify(pod));
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parse.mock.calls[0]![0]).not.toContain('"manager"');
    expect(out).toStrictEqual({ metadata: { name: 'p', annotations: pod.metadata.annotations }, spec: pod.spec });
  });

  it('keeps the metadata’s own key order when managedFields is not its last key', () => {
    const text = '{"metadata":{"managedFields":[{"manager":"m"}],"name":"p","uid":"u"}}';
    expect(Object.keys((parseObjectWithoutManagedFields(text) as Json).metadata)).toEqual(['name', 'uid']);
  });

  it('parses in full again when a managedFields array outside metadata comes first', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const o = { spec: { managedFields: [1, [2]] }, metadata: pod.metadata };
    const out = parseObjectWithoutManagedFields(JSON.stringify(o));
    expect(parse).toHaveBeenCalledTimes(2);
    expect(out).toStrictEqual(o);
  });

  it('parses in full again when the first array follows a key that only ends in managedFields', () => {
    const text = '{"spec":{"x\\"managedFields":[1]},"metadata":{"name":"a","managedFields":[2]}}';
    expect(Object.keys(JSON.parse(text).spec)).toEqual(['x"managedFields']);
    expect(parseObjectWithoutManagedFields(text)).toStrictEqual(JSON.parse(text));
    expect(parseWatchEventWithoutManagedFields(`{"type":"ADDED","object":${text}}`)).toStrictEqual({
      type: 'ADDED',
      object: JSON.parse(text),
    });
  });

  it('parses a List in full again when a cut is not some item’s metadata.managedFields', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const items = [pod, { metadata: { name: 'q', managedFields: [] }, spec: { managedFields: [{}] } }];
    const out = parseListWithoutManagedFields(JSON.stringify({ kind: 'PodList', metadata: {}, items }));
    expect(parse).toHaveBeenCalledTimes(2);
    expect(out).toStrictEqual({ kind: 'PodList', metadata: {}, items });
  });

  it('parses in full again (managedFields left to the transform) when a duplicate metadata key hides the cut one', () => {
    const text = '{"metadata":{"name":"a","managedFields":[1]},"metadata":{"name":"b","managedFields":[2]}}';
    expect(parseObjectWithoutManagedFields(text)).toStrictEqual(JSON.parse(text));
    const list = `{"items":[${text},{"metadata":{"managedFields":[3]}}]}`;
    expect(parseListWithoutManagedFields(list)).toStrictEqual(JSON.parse(list));
  });

  it('leaves a body without managedFields to JSON.parse alone', () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(parseListWithoutManagedFields('{"items":[{"metadata":{"name":"a"}}]}')).toStrictEqual({
      items: [{ metadata: { name: 'a' } }],
    });
    expect(parse).toHaveBeenCalledTimes(1);
  });
});

describe('decoding without managedFields: malformed and truncated text', () => {
  const bad = [
    ['truncated inside managedFields', '{"type":"ADDED","object":{"metadata":{"managedFields":[{"manager":"kub'],
    ['truncated right after managedFields', '{"type":"ADDED","object":{"metadata":{"managedFields":[]'],
    ['a string that never closes', '{"metadata":{"managedFields":["abc\\"]}}'],
    ['brackets that do not match', '{"metadata":{"managedFields":[{"a":1]}}}'],
    ['a stray closing bracket after the array', '{"metadata":{"managedFields":[]]}}'],
    ['an array nested past the depth the cut follows', `{"metadata":{"managedFields":${'['.repeat(200)}`],
    ['not JSON at all', 'managedFields'],
    ['empty', ''],
  ] as const;

  for (const [what, text] of bad) {
    it(`throws as JSON.parse does: ${what}`, () => {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => parseObjectWithoutManagedFields(text)).toThrow(SyntaxError);
      expect(() => parseWatchEventWithoutManagedFields(text)).toThrow(SyntaxError);
      expect(() => parseListWithoutManagedFields(text)).toThrow(SyntaxError);
    });
  }

  it('leaves an array nested deeper than it follows to the full parse', () => {
    const deep = `${'['.repeat(150)}${']'.repeat(150)}`;
    const text = `{"metadata":{"name":"a","managedFields":${deep}}}`;
    expect(parseObjectWithoutManagedFields(text)).toStrictEqual(JSON.parse(text));
  });

  it('does not check the grammar inside a dropped array whose brackets and strings balance', () => {
    // The one leniency: JSON.parse rejects this text, the cut drops the array unread.
    const text = '{"metadata":{"name":"a","managedFields":[nonsense, "x"]}}';
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(parseObjectWithoutManagedFields(text)).toStrictEqual({ metadata: { name: 'a' } });
  });
});
