// Breakpoint key patterns: "*" is the only wildcard, and matching takes no backtracking however the
// pattern is built (a viewer types it, so it is untrusted input).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyMatches } from './key-pattern';

/** A reference matcher by dynamic programming over (pattern position, key position): slow, obviously right. */
function reference(pattern: string, key: string): boolean {
  let row = new Array<boolean>(key.length + 1).fill(false);
  row[0] = true;
  for (const ch of pattern) {
    const next = new Array<boolean>(key.length + 1).fill(false);
    if (ch === '*') {
      let seen = false;
      for (let j = 0; j <= key.length; j++) {
        seen ||= row[j] as boolean;
        next[j] = seen;
      }
    } else {
      for (let j = 1; j <= key.length; j++) next[j] = (row[j - 1] as boolean) && key[j - 1] === ch;
    }
    row = next;
  }
  return row[key.length] as boolean;
}

describe('keyMatches', () => {
  it('treats "*" as any run of characters and every other character literally', () => {
    expect(keyMatches('ns/*', 'ns/a')).toBe(true);
    expect(keyMatches('*/web-*', 'prod/web-1')).toBe(true);
    expect(keyMatches('ns/a.b', 'ns/axb')).toBe(false);
    expect(keyMatches('a+b', 'aab')).toBe(false);
    expect(keyMatches('ns/a', 'ns/ab')).toBe(false);
    expect(keyMatches('*ab*ab', 'abab')).toBe(true);
    expect(keyMatches('a*a', 'a')).toBe(false);
    expect(keyMatches(undefined, 'anything')).toBe(true);
    expect(keyMatches('', 'anything')).toBe(true);
  });

  it('agrees with a dynamic-programming matcher on random patterns over a small alphabet', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 12 });
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '*', '/', '.'), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(pattern, text, (p, k) => {
        expect(keyMatches(p, k)).toBe(reference(p, k));
      }),
      { numRuns: 2000 },
    );
  });

  it('decides a pattern built to make a backtracking matcher take exponential time in one pass', () => {
    // "*a" x 20 + "*b" against "a" x 5000: a regular expression of ".*a" pieces backtracks through every way
    // of splitting the a's before it can fail; the piecewise scan looks for "b" once and stops.
    const pattern = '*a'.repeat(20) + '*b';
    expect(keyMatches(pattern, 'a'.repeat(5000))).toBe(false);
    expect(keyMatches(pattern, `${'a'.repeat(5000)}b`)).toBe(true);
  });
});
