import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DeletedFinalStateUnknown } from './interfaces';
import {
  KeyError,
  deletionHandlingMetaNamespaceKeyFunc,
  deletedObjectKey,
  deletedObjectName,
  deletionHandlingObjectToName,
  errorIs,
  metaNamespaceKeyFunc,
  objectNameString,
  parseObjectName,
  splitMetaNamespaceKey,
} from './keys';

const pod = { metadata: { namespace: 'testnamespace', name: 'testname' } };

describe('keys', () => {
  it('metaNamespaceKeyFunc', () => {
    expect(metaNamespaceKeyFunc(pod)).toBe('testnamespace/testname');
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node1' } })).toBe('node1');
    expect(metaNamespaceKeyFunc('explicit/key')).toBe('explicit/key');
    expect(() => metaNamespaceKeyFunc({ spec: {} })).toThrow(/object has no meta/);
  });

  it('deletionHandlingMetaNamespaceKeyFunc uses the tombstone key', () => {
    expect(deletionHandlingMetaNamespaceKeyFunc(new DeletedFinalStateUnknown('a/b', undefined))).toBe('a/b');
    expect(deletionHandlingMetaNamespaceKeyFunc(pod)).toBe('testnamespace/testname');
  });

  it('splitMetaNamespaceKey', () => {
    expect(splitMetaNamespaceKey('a')).toEqual({ namespace: '', name: 'a' });
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('/x')).toEqual({ namespace: '', name: 'x' });
    expect(splitMetaNamespaceKey('a/')).toEqual({ namespace: 'a', name: '' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format: "a/b/c"');
  });

  it('TestKeyError: errors.Is works through nested KeyErrors', () => {
    const inner = new Error('inner');
    const err = new KeyError({}, new KeyError({}, inner));
    expect(errorIs(err, inner)).toBe(true);
    expect(err.message).toMatch(/^couldn't create key for object/);
  });

  it('TestObjectNames: parse fails iff more than one slash; String round-trips except a leading slash', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcdefghi/'.split('')), minLength: 10, maxLength: 10 }),
        (s) => {
          const slashes = s.split('/').length - 1;
          if (slashes > 1) {
            expect(() => parseObjectName(s)).toThrow();
            return;
          }
          const back = objectNameString(parseObjectName(s));
          expect(back).toBe(s.startsWith('/') ? s.slice(1) : s);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('TestDeletionHandlingObjectToName', () => {
    const live = deletionHandlingObjectToName(pod);
    const tomb = deletionHandlingObjectToName(new DeletedFinalStateUnknown('testnamespace/testname', undefined));
    expect(tomb).toEqual(live);
    expect(deletionHandlingObjectToName(new DeletedFinalStateUnknown('a/b/c', undefined))).toEqual({
      namespace: 'a',
      name: 'b/c',
    });
  });

  it('TestDeletedObjectGetKey / TestDeletedObjectGetObjectName', () => {
    const want = { namespace: 'testnamespace', name: 'testname' };
    for (const o of [
      pod,
      new DeletedFinalStateUnknown('testnamespace/testname', pod),
      new DeletedFinalStateUnknown('testnamespace/testname', undefined),
    ]) {
      expect(deletedObjectKey(o)).toBe('testnamespace/testname');
      expect(deletedObjectName(o)).toEqual(want);
    }
    expect(deletedObjectKey(undefined)).toBe('');
    expect(deletedObjectName(undefined)).toEqual({ namespace: '', name: '' });
    expect(deletedObjectName(new DeletedFinalStateUnknown('a/b/c', undefined))).toEqual({
      namespace: 'a',
      name: 'b/c',
    });
  });
});
