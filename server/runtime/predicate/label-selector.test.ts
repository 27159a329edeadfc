import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, parseSelector, selectorFromSet } from './label-selector';

describe('parseSelector', () => {
  it('parses equality, set-based and existence requirements', () => {
    const s = parseSelector('a=b,c!=d,e in (x, y),f notin (z),g,!h');
    expect(s.matches({ a: 'b', e: 'x', g: '1' })).toBe(true);
    expect(s.matches({ a: 'b', c: 'd', e: 'x', g: '1' })).toBe(false);
    expect(s.matches({ a: 'b', e: 'q', g: '1' })).toBe(false);
    expect(s.matches({ a: 'b', e: 'y', f: 'z', g: '1' })).toBe(false);
    expect(s.matches({ a: 'b', e: 'y', g: '1', h: '' })).toBe(false);
    expect(s.matches({ a: 'b', e: 'y' })).toBe(false);
  });
  it('treats the empty selector as everything', () => {
    expect(parseSelector('').empty()).toBe(true);
    expect(parseSelector('').matches(undefined)).toBe(true);
  });
  it('throws on malformed input', () => {
    expect(() => parseSelector('a=b,,c')).toThrow();
    expect(() => parseSelector('a in x')).toThrow();
  });
  it('prints requirements back', () => {
    expect(selectorFromSet({ b: '2', a: '1' }).toString()).toBe('a=1,b=2');
  });
});

describe('labelSelectorAsSelector', () => {
  it('combines matchLabels and matchExpressions', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }],
    });
    expect(s.matches({ app: 'web', tier: 'front' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'db' })).toBe(false);
  });
  it('rejects values on Exists', () => {
    expect(() =>
      labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    ).toThrow();
  });
});
