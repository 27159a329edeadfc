// Key eviction for reduce(): a controller holds at most limits.maxKeysPerController keys; past the cap, the
// keys the UI needs least go (evictKeys).
import type { Draft } from './reduce-draft';
import { lookup } from './records';
import type { ControllerView, KeyView } from './view';

/**
 * A new key goes last in a record's enumeration order, unless it is an array index ("42"), which objects
 * enumerate first, in numeric order: then the kept order is dropped and the next eviction lists the keys.
 */
export function keyAdded(d: Draft, keys: object, key: string): void {
  const order = d.keyOrders.get(keys);
  if (order === undefined) return;
  if (isArrayIndex(key)) d.keyOrders.delete(keys);
  else order.push(key);
}

function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;
}

/** Eviction order by queue state: idle keys go first, keys a worker holds last. */
const EVICT_RANK: Record<KeyView['state'], number> = { idle: 0, waiting: 1, ready: 1, processing: 2 };

/**
 * Appends to out the indices (into views) of the n keys of bucket a stable sort by lastTs would put first
 * (n < bucket.length): every key older than the n-th smallest lastTs, then keys at exactly that lastTs in
 * bucket order until n are taken.
 */
function oldest(bucket: number[], views: KeyView[], n: number, out: number[]): void {
  const ts = new Float64Array(bucket.length);
  let nan = false;
  for (let i = 0; i < bucket.length; i++) nan ||= Number.isNaN((ts[i] = views[bucket[i]!]!.lastTs));
  // A NaN (a hand-edited view) has no place in a selection's comparisons; a sort puts it last.
  const cut = nan ? ts.sort()[n - 1]! : nthSmallest(ts, n - 1);
  let atCut = n;
  for (let i = 0; i < ts.length; i++) if (ts[i]! < cut) atCut--;
  for (const i of bucket) {
    const t = views[i]!.lastTs;
    if (t < cut) out.push(i);
    else if (t === cut && atCut > 0) {
      out.push(i);
      atCut--;
    }
  }
}

/**
 * The value a numeric sort of a would put at index n (a is reordered): a selection, linear on average,
 * where eviction sorted every timestamp of a bucket to read one.
 */
export function nthSmallest(a: Float64Array, n: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return a[n]!;
  }
  return a[n]!;
}

/**
 * Evicts keys down to 90% of the cap (so eviction runs once per many new keys): idle ones first, then the
 * longest unseen. Keys a worker holds, and the key being added, stay: they are what the UI must show.
 */
export function evictKeys(d: Draft, c: ControllerView, keep: string): void {
  const target = Math.floor(d.view.limits.maxKeysPerController * 0.9);
  const keys = d.childRecord(c, 'keys');
  let held: Set<string> | undefined;
  for (const w of Object.values(c.workerStates)) if (w.key !== undefined) (held ??= new Set()).add(w.key);
  // A key marked processing that no worker holds (its done was lost) may go, last: the cap must hold.
  // Victims: the first `want` keys in a stable order by (rank, lastTs), i.e. whole lower-rank buckets, then
  // the oldest of the next bucket, ties going to the earlier key. This runs once per many new keys but over
  // up to the whole cap, so it avoids a comparator sort of every key: buckets keep key order, and the oldest
  // `need` of a bucket are found from a selection over its timestamps.
  const want = c.keyCount - target;
  // The record's keys in enumeration order: listed once per batch, then kept up to date (keyAdded).
  const ids = d.keyOrders.get(keys) ?? Object.keys(keys);
  const views = new Array<KeyView>(ids.length);
  const byRank: number[][] = [[], [], []];
  for (let i = 0; i < ids.length; i++) {
    const k = keys[ids[i]!]!;
    views[i] = k;
    if (k.key !== keep && !held?.has(k.key)) byRank[EVICT_RANK[k.state]]!.push(i);
  }
  const victims: number[] = [];
  for (const bucket of byRank) {
    const need = want - victims.length;
    if (need <= 0) break;
    if (bucket.length <= need) for (const i of bucket) victims.push(i);
    else oldest(bucket, views, need, victims);
  }
  const gone = new Uint8Array(ids.length);
  let listed = true;
  for (const i of victims) {
    const key = views[i]!.key;
    delete keys[key];
    gone[i] = 1;
    // A record whose entries are not filed under their own key (a hand-edited recording): list it again.
    if (key !== ids[i]) listed = false;
  }
  if (listed) {
    const left: string[] = [];
    for (let i = 0; i < ids.length; i++) if (gone[i] === 0) left.push(ids[i]!);
    d.keyOrders.set(keys, left);
  } else d.keyOrders.delete(keys);
  c.keyCount -= victims.length;
  c.evictedKeys += victims.length;
  if (c.hotLoops.some((h) => !lookup(keys, h.key))) c.hotLoops = c.hotLoops.filter((h) => lookup(keys, h.key));
}
