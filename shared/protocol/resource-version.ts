// Ordering of resourceVersions. The API calls them opaque; every server the dashboard meets (the sandbox,
// kube-apiserver over etcd) issues them from one increasing revision counter, so two decimal versions from
// the same server compare as numbers. Anything else does not compare, and no claim that needs an order is
// made from it.

/** A version that stands for "any": a forgotten write whose version was never known. */
export const ANY_VERSION = '*';

function isRevision(s: string): boolean {
  if (s.length === 0 || s.length > 30) return false;
  if (s.length > 1 && s.charCodeAt(0) === 48) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** -1, 0 or 1 when both are decimal revisions; undefined when either is not. */
export function compareResourceVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  if (!isRevision(a) || !isRevision(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Raises a "nothing at or below this is known" mark to cover rv. A version that does not compare (or is not
 * known) makes the mark ANY_VERSION: from then on nothing can be said below it.
 */
export function raiseMark(mark: string | undefined, rv: string | undefined): string {
  if (mark === ANY_VERSION || rv === undefined) return ANY_VERSION;
  if (mark === undefined) return isRevision(rv) ? rv : ANY_VERSION;
  const c = compareResourceVersions(mark, rv);
  return c === undefined ? ANY_VERSION : c >= 0 ? mark : rv;
}

/** True when rv is known to be newer than the mark (no mark: always). */
export function aboveMark(mark: string | undefined, rv: string): boolean {
  if (mark === undefined) return true;
  if (mark === ANY_VERSION) return false;
  return compareResourceVersions(rv, mark) === 1;
}

/** True when lo < rv < hi, all three decimal revisions. */
export function strictlyBetween(lo: string, rv: string, hi: string): boolean {
  return compareResourceVersions(lo, rv) === -1 && compareResourceVersions(rv, hi) === -1;
}
