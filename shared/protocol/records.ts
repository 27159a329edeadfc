// Records keyed by data: object keys, names, kinds and handler names that come from a cluster, a recording or
// a client. They are null-prototype objects, so "constructor", "__proto__", "toString" or "hasOwnProperty"
// is just another key: a lookup never finds an inherited function and an assignment never swaps a prototype.
// They serialize like any object (JSON.stringify, socket.io); what crosses a wire or a file comes back with
// Object.prototype and goes through dictTree() before it is indexed by data again.

/** An empty record keyed by data. */
export function dict<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A record keyed by data holding the given entries (a "__proto__" entry stays an entry). */
export function dictOf<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out = dict<V>();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/**
 * Counts in a record with a fixed set of keys (outcomes, cause types). A value outside the set (a newer
 * producer, a crafted recording) is not counted, and can never reach a member of Object.prototype.
 */
export function countIn(counts: Record<string, number>, key: string): void {
  if (Object.hasOwn(counts, key)) counts[key] = (counts[key] as number) + 1;
}

/** The record's own value for key; never an inherited member. */
export function lookup<V>(rec: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  return rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/**
 * Parsed JSON (a snapshot, an HTTP answer, a recording) with every object made null-prototype, in place of
 * the original: afterwards any record in it can be indexed by data. Arrays stay arrays.
 */
export function dictTree<T>(value: T): T {
  return convert(value) as T;
}

function convert(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = convert(value[i]);
    return value;
  }
  if (Object.getPrototypeOf(value) === null) {
    const rec = value as Record<string, unknown>;
    for (const k of Object.keys(rec)) rec[k] = convert(rec[k]);
    return rec;
  }
  const src = value as Record<string, unknown>;
  const out = dict<unknown>();
  for (const k of Object.keys(src)) out[k] = convert(src[k]);
  return out;
}
