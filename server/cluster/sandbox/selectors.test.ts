import { describe, expect, it } from 'vitest';
import { labelSelectorFromObject, parseFieldSelector, parseLabelSelector } from './selectors';
import { StatusError } from './status-errors';

describe('parseLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };

  it('matches everything when empty', () => {
    expect(parseLabelSelector('').matches({})).toBe(true);
    expect(parseLabelSelector(undefined).empty).toBe(true);
  });

  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['missing in (x)', false],
    ['app notin (db)', true],
    ['missing notin (x)', true],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['n>3', true],
    ['n<3', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['app in (web), tier notin (back) , !gone', true],
  ])('%s → %s', (sel, want) => {
    expect(parseLabelSelector(sel).matches(labels)).toBe(want);
  });

  it('accepts qualified keys', () => {
    expect(parseLabelSelector('app.kubernetes.io/name=x').matches({ 'app.kubernetes.io/name': 'x' })).toBe(true);
  });

  it.each(['app=', 'app in (a', 'a=b=c', '=x', 'k in', 'n>abc', 'app=in valid'])('rejects %s with 400', (sel) => {
    if (sel === 'app=') {
      // An empty value is allowed upstream.
      expect(parseLabelSelector(sel).matches({ app: '' })).toBe(true);
      return;
    }
    expect(() => parseLabelSelector(sel)).toThrow(StatusError);
    try {
      parseLabelSelector(sel);
    } catch (e) {
      expect((e as StatusError).code).toBe(400);
    }
  });

  it('converts metav1.LabelSelector objects', () => {
    const s = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }],
    });
    expect(s.matches(labels)).toBe(true);
    expect(s.matches({ app: 'web', tier: 'back' })).toBe(false);
  });
});

describe('parseFieldSelector', () => {
  it('matches =, == and != with AND', () => {
    const s = parseFieldSelector('metadata.name=a,status.phase!=Failed');
    expect(s.matches({ 'metadata.name': 'a', 'status.phase': 'Running' })).toBe(true);
    expect(s.matches({ 'metadata.name': 'a', 'status.phase': 'Failed' })).toBe(false);
    expect(parseFieldSelector('metadata.name==b').matches({ 'metadata.name': 'b' })).toBe(true);
  });

  it('unescapes backslash sequences', () => {
    const s = parseFieldSelector('metadata.name=a\\,b\\=c');
    expect(s.requirements).toEqual([{ field: 'metadata.name', operator: '=', value: 'a,b=c' }]);
    expect(s.requiresExactMatch('metadata.name')).toBe('a,b=c');
  });

  it('treats a missing field as the empty value', () => {
    expect(parseFieldSelector('spec.nodeName=').matches({})).toBe(true);
  });

  it('rejects selectors without an operator', () => {
    expect(() => parseFieldSelector('metadata.name')).toThrow(/invalid selector/);
  });
});
