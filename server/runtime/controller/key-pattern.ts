// Key patterns for breakpoints: "*" matches any run of characters, every other character only itself.
// A pattern arrives from a viewer, so it is matched by a fixed-shape scan, never compiled into a regular
// expression: a backtracking engine given "*a*a*…*b" takes exponential time on a long key of "a"s.

/** The longest pattern accepted: longer than any queue key ("namespace/name" is at most 63 + 1 + 253). */
export const MAX_KEY_PATTERN_LENGTH = 512;

/**
 * Whether key matches pattern. The literal pieces between stars are found left to right, each at its
 * leftmost place after the one before: with stars as the only wildcard, a leftmost choice never makes a
 * later piece fail where another choice would succeed, so one pass decides. Time is bounded by the length
 * of the key times the length of the pattern, with no backtracking between pieces.
 */
export function keyMatches(pattern: string | undefined, key: string): boolean {
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === key;
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (key.length < first.length + last.length) return false;
  if (!key.startsWith(first) || !key.endsWith(last)) return false;
  let at = first.length;
  const end = key.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as string;
    if (piece === '') continue;
    const found = key.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
