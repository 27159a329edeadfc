// Scenarios from controller-runtime pkg/predicate/predicate_test.go.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import {
  and,
  annotationChangedPredicate,
  generationChangedPredicate,
  labelChangedPredicate,
  labelSelectorPredicate,
  newPredicateFuncs,
  not,
  or,
  predicateFuncs,
  resourceVersionChangedPredicate,
  type Predicate,
} from './predicate';

const pod = (meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'baz', namespace: 'biz', ...meta },
});

const changePredicates: [string, () => Predicate][] = [
  ['ResourceVersionChangedPredicate', resourceVersionChangedPredicate],
  ['GenerationChangedPredicate', generationChangedPredicate],
  ['AnnotationChangedPredicate', annotationChangedPredicate],
  ['LabelChangedPredicate', labelChangedPredicate],
];

describe.each(changePredicates)('%s', (_name, make) => {
  it('returns false for updates missing the old or new object, true for other empty events', () => {
    const p = make();
    expect(p.update({ objectOld: undefined, objectNew: pod() })).toBe(false);
    expect(p.update({ objectOld: pod(), objectNew: undefined })).toBe(false);
    expect(p.create({ object: undefined })).toBe(true);
    expect(p.delete({ object: undefined })).toBe(true);
    expect(p.generic({ object: undefined })).toBe(true);
  });
});

describe('ResourceVersionChangedPredicate', () => {
  const p = resourceVersionChangedPredicate();
  it('is false when the resource version is unchanged', () => {
    expect(p.update({ objectOld: pod({ resourceVersion: 'v1' }), objectNew: pod({ resourceVersion: 'v1' }) })).toBe(
      false,
    );
  });
  it('is true when the resource version changed', () => {
    expect(p.update({ objectOld: pod({ resourceVersion: 'v2' }), objectNew: pod({ resourceVersion: 'v1' }) })).toBe(
      true,
    );
  });
});

describe('GenerationChangedPredicate', () => {
  const p = generationChangedPredicate();
  it('is false when the generation is unchanged (status-only change)', () => {
    expect(
      p.update({
        objectOld: pod({ generation: 1, resourceVersion: 'v1' }),
        objectNew: pod({ generation: 1, resourceVersion: 'v2' }),
      }),
    ).toBe(false);
  });
  it('is true when the generation changed', () => {
    expect(p.update({ objectOld: pod({ generation: 1 }), objectNew: pod({ generation: 2 }) })).toBe(true);
  });
});

describe('AnnotationChangedPredicate', () => {
  const p = annotationChangedPredicate();
  const upd = (a?: Record<string, string>, b?: Record<string, string>): boolean =>
    p.update({ objectOld: pod({ annotations: a }), objectNew: pod({ annotations: b }) });
  it('is false for empty or unchanged annotations (nil equals empty)', () => {
    expect(upd(undefined, {})).toBe(false);
    expect(upd({ booz: 'wooz' }, { booz: 'wooz' })).toBe(false);
  });
  it('is true when a value changed, was added or removed', () => {
    expect(upd({ booz: 'wooz' }, { booz: 'weez' })).toBe(true);
    expect(upd({ booz: 'wooz' }, { booz: 'wooz', zooz: 'qooz' })).toBe(true);
    expect(upd({ booz: 'wooz', zooz: 'qooz' }, { booz: 'wooz' })).toBe(true);
  });
});

describe('LabelChangedPredicate', () => {
  const p = labelChangedPredicate();
  const upd = (a?: Record<string, string>, b?: Record<string, string>): boolean =>
    p.update({ objectOld: pod({ labels: a }), objectNew: pod({ labels: b }) });
  it('is false for empty or unchanged labels', () => {
    expect(upd({}, undefined)).toBe(false);
    expect(upd({ foo: 'bar' }, { foo: 'bar' })).toBe(false);
  });
  it('is true when a label changed, was added or removed', () => {
    expect(upd({ foo: 'bar' }, { foo: 'baz' })).toBe(true);
    expect(upd({ foo: 'bar' }, { foo: 'bar', x: 'y' })).toBe(true);
    expect(upd({ foo: 'bar', x: 'y' }, { foo: 'bar' })).toBe(true);
  });
});

describe('Funcs', () => {
  it('passes every event when no function is set', () => {
    const p = predicateFuncs({});
    expect(p.create({ object: pod() })).toBe(true);
    expect(p.update({ objectOld: pod(), objectNew: pod() })).toBe(true);
    expect(p.delete({ object: pod() })).toBe(true);
    expect(p.generic({ object: pod() })).toBe(true);
  });
  it('calls only the function for the event type', () => {
    const p = predicateFuncs({ create: () => false });
    expect(p.create({ object: pod() })).toBe(false);
    expect(p.delete({ object: pod() })).toBe(true);
  });
});

describe('NewPredicateFuncs', () => {
  const p = newPredicateFuncs((o) => o.metadata.namespace === 'biz', 'namespace=biz');
  it('passes only objects in the namespace, using the new object for updates', () => {
    expect(p.name).toBe('namespace=biz');
    expect(p.create({ object: pod() })).toBe(true);
    expect(p.create({ object: pod({ namespace: 'other' }) })).toBe(false);
    expect(p.update({ objectOld: pod({ namespace: 'other' }), objectNew: pod() })).toBe(true);
    expect(p.update({ objectOld: pod(), objectNew: pod({ namespace: 'other' }) })).toBe(false);
    expect(p.delete({ object: pod({ namespace: 'other' }) })).toBe(false);
    expect(p.generic({ object: pod() })).toBe(true);
  });
});

describe('And / Or / Not', () => {
  const yes = predicateFuncs({ name: 'yes' });
  const no = predicateFuncs({
    name: 'no',
    create: () => false,
    update: () => false,
    delete: () => false,
    generic: () => false,
  });
  const e = { object: pod() };
  it('And is false if any is false, true for none', () => {
    expect(and(yes, yes).create(e)).toBe(true);
    expect(and(yes, no).create(e)).toBe(false);
    expect(and().generic(e)).toBe(true);
    expect(and(yes, no).name).toBe('And(yes, no)');
  });
  it('Or is true if any is true, false for none', () => {
    expect(or(no, yes).delete(e)).toBe(true);
    expect(or(no, no).delete(e)).toBe(false);
    expect(or().delete(e)).toBe(false);
  });
  it('Not inverts each event type', () => {
    expect(not(yes).create(e)).toBe(false);
    expect(not(no).update({ objectOld: pod(), objectNew: pod() })).toBe(true);
  });
  it('And short-circuits', () => {
    let called = false;
    const spy = predicateFuncs({ create: () => (called = true) });
    and(no, spy).create(e);
    expect(called).toBe(false);
  });
});

describe('LabelSelectorPredicate', () => {
  it('matches objects whose labels fit the selector', () => {
    const p = labelSelectorPredicate({ matchLabels: { foo: 'bar' } });
    expect(p.create({ object: pod({ labels: { foo: 'bar' } }) })).toBe(true);
    expect(p.create({ object: pod({ labels: { foo: 'baz' } }) })).toBe(false);
    expect(p.update({ objectOld: pod(), objectNew: pod({ labels: { foo: 'bar' } }) })).toBe(true);
  });
  it('rejects an invalid selector', () => {
    expect(() => labelSelectorPredicate({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toThrow();
  });
});
