// Ports apimachinery pkg/api/meta/conditions_test.go, plus the property the examples rely on: setting the
// same conditions again changes nothing.
import { describe, expect, it } from 'vitest';
import {
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  metav1Now,
  removeStatusCondition,
  setStatusCondition,
  type Condition,
} from './conditions';

const HOUR_BEFORE = '2026-01-01T09:00:00Z';
const HOUR_AFTER = '2026-01-01T11:00:00Z';
const NOW = new Date('2026-01-01T10:00:00.123Z');
const c = (type: string, extra: Partial<Condition> = {}): Condition => ({
  type,
  status: 'Unknown',
  reason: '',
  message: '',
  ...extra,
});

describe('setStatusCondition', () => {
  it('should-add: appends a new type with its supplied time', () => {
    const conds = [c('first'), c('third')];
    const add = c('second', { status: 'True', lastTransitionTime: HOUR_BEFORE, reason: 'reason', message: 'message' });
    expect(setStatusCondition(conds, add)).toBe(true);
    expect(conds).toEqual([c('first'), c('third'), add]);
  });

  it('use-supplied-time: a status change takes the supplied time', () => {
    const conds = [c('first'), c('second', { status: 'False' }), c('third')];
    const add = c('second', { status: 'True', lastTransitionTime: HOUR_BEFORE, reason: 'reason', message: 'message' });
    setStatusCondition(conds, add);
    expect(conds).toEqual([c('first'), add, c('third')]);
  });

  it('update-fields: same status keeps the old transition time, other fields follow', () => {
    const conds = [c('first'), c('second', { status: 'True', lastTransitionTime: HOUR_BEFORE }), c('third')];
    setStatusCondition(
      conds,
      c('second', {
        status: 'True',
        lastTransitionTime: HOUR_AFTER,
        reason: 'reason',
        message: 'message',
        observedGeneration: 3,
      }),
    );
    expect(conds[1]).toEqual(
      c('second', {
        status: 'True',
        lastTransitionTime: HOUR_BEFORE,
        reason: 'reason',
        message: 'message',
        observedGeneration: 3,
      }),
    );
  });

  it('stamps now, at whole seconds, when no time is supplied', () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, c('Ready', { status: 'True' }), () => NOW);
    expect(conds[0]?.lastTransitionTime).toBe('2026-01-01T10:00:00Z');
    setStatusCondition(conds, c('Ready', { status: 'False' }), () => new Date('2026-01-01T10:05:00Z'));
    expect(conds[0]?.lastTransitionTime).toBe('2026-01-01T10:05:00Z');
  });

  it('setting the same condition again reports no change and moves no time', () => {
    const conds: Condition[] = [];
    const want = c('Available', { status: 'True', reason: 'AllReplicasReady', message: '2/2', observedGeneration: 4 });
    setStatusCondition(conds, want, () => NOW);
    const before = structuredClone(conds);
    expect(setStatusCondition(conds, want, () => new Date('2027-01-01T00:00:00Z'))).toBe(false);
    expect(conds).toEqual(before);
  });
});

describe('removeStatusCondition', () => {
  it('present, not-present, empty', () => {
    const present = [c('first'), c('second'), c('third')];
    expect(removeStatusCondition(present, 'second')).toBe(true);
    expect(present).toEqual([c('first'), c('third')]);
    const absent = [c('first'), c('second'), c('third')];
    expect(removeStatusCondition(absent, 'fourth')).toBe(false);
    expect(absent).toEqual([c('first'), c('second'), c('third')]);
    const empty: Condition[] = [];
    expect(removeStatusCondition(empty, 'Foo')).toBe(false);
    expect(empty).toEqual([]);
  });
});

describe('findStatusCondition and the predicates', () => {
  it('finds by type', () => {
    expect(findStatusCondition([c('first')], 'second')).toBeUndefined();
    expect(findStatusCondition([c('first'), c('second')], 'second')).toEqual(c('second'));
  });

  it('isStatusConditionPresentAndEqual', () => {
    expect(isStatusConditionPresentAndEqual([c('first', { status: 'Unknown' })], 'first', 'True')).toBe(false);
    expect(isStatusConditionPresentAndEqual([c('first', { status: 'True' })], 'first', 'True')).toBe(true);
    expect(isStatusConditionPresentAndEqual([c('first', { status: 'False' })], 'first', 'False')).toBe(true);
    expect(isStatusConditionTrue([c('a', { status: 'True' })], 'a')).toBe(true);
    expect(isStatusConditionFalse([c('a', { status: 'True' })], 'a')).toBe(false);
    expect(isStatusConditionTrue([], 'a')).toBe(false);
  });

  it('metav1Now drops sub-second digits', () => {
    expect(metav1Now(NOW)).toBe('2026-01-01T10:00:00Z');
  });
});
