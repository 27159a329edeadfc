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
 * Scratch space of evictKeys, kept between calls: an eviction looks at up to the whole cap of keys, once per
 * many new keys, and fresh arrays for it were a third of what the reducer allocated. Entry i is about the
 * key at position i of the record's order. evictKeys never re-enters, and clears `views` when it is done.
 */
let views: (KeyView | undefined)[] = [];
/** Each key's eviction rank, or one of the marks below. */
let ranks = new Uint8Array(0);
let stamps = new Float64Array(0);
let picked = new Float64Array(0);
const STAYS = 255;
const EVICTED = 254;

function reserve(n: number): void {
  if (ranks.length >= n) return;
  const size = Math.max(n, ranks.length * 2);
  ranks = new Uint8Array(size);
  stamps = new Float64Array(size);
  picked = new Float64Array(size);
}

/**
 * Marks as EVICTED the `need` keys of rank r a stable sort by lastTs would put first (need < count, the keys
 * of that rank): every key older than the need-th smallest lastTs, then keys at exactly that lastTs in
 * record order until need are taken.
 */
function evictOldest(n: number, r: number, count: number, need: number): void {
  let m = 0;
  let nan = false;
  for (let i = 0; i < n; i++) if (ranks[i] === r) nan ||= Number.isNaN((picked[m++] = stamps[i]!));
  const sel = picked.subarray(0, count);
  // A NaN (a hand-edited view) has no place in a selection's comparisons; a sort puts it last.
  const cut = nan ? sel.sort()[need - 1]! : nthSmallest(sel, need - 1);
  let atCut = need;
  for (let i = 0; i < count; i++) if (sel[i]! < cut) atCut--;
  for (let i = 0; i < n; i++) {
    if (ranks[i] !== r) continue;
    const t = stamps[i]!;
    if (t < cut || (t === cut && atCut-- > 0)) ranks[i] = EVICTED;
  }
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
  const n = ids.length;
  reserve(n);
  const counts = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const k = keys[ids[i]!]!;
    views[i] = k;
    stamps[i] = k.lastTs;
    if (k.key === keep || held?.has(k.key)) ranks[i] = STAYS;
    else counts[(ranks[i] = EVICT_RANK[k.state])]!++;
  }
  let taken = 0;
  for (let r = 0; r < 3 && taken < want; r++) {
    const need = want - taken;
    const count = counts[r]!;
    if (count <= need) {
      for (let i = 0; i < n; i++) if (ranks[i] === r) ranks[i] = EVICTED;
      taken += count;
    } else {
      evictOldest(n, r, count, need);
      taken += need;
    }
  }
  // Deleted, and the kept order compacted in place (ids is this batch's own list).
  let listed = true;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (ranks[i] !== EVICTED) ids[w++] = id;
    else {
      const key = (views[i] as KeyView).key;
      delete keys[key];
      // A record whose entries are not filed under their own key (a hand-edited recording): list it again.
      if (key !== id) listed = false;
    }
  }
  ids.length = w;
  views.fill(undefined, 0, n);
  if (views.length > 4 * n + 1024) views = [];
  if (listed) d.keyOrders.set(keys, ids);
  else d.keyOrders.delete(keys);
  c.keyCount -= taken;
  c.evictedKeys += taken;
  if (c.hotLoops.some((h) => !lookup(keys, h.key))) c.hotLoops = c.hotLoops.filter((h) => lookup(keys, h.key));
}
