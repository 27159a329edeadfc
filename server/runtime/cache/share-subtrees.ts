// An opt-in informer transform that makes equal small subtrees of cached objects one object in memory
// (hash-consing). Once strings are interned, what a cached Pod costs is mostly V8's layout: every object
// JSON.parse makes has a header (map, properties, elements) and its own slots, every array a header and a
// backing store, so ~37 small objects take ~2.7 KB per Pod before any data. Many of those subtrees are equal
// across the objects of a cluster — a container's resources, probes, ports and volume mounts, the projected
// service-account volume, tolerations, `securityContext: {}`, often conditions and labels — and each
// cached object holds its own copy. This transform keeps one instance per distinct small subtree.
import type { KubeObject } from '../../../shared/models/object';
import type { TransformFunc } from './interfaces';

export interface ShareSubtreesOptions {
  /** Distinct subtrees held per generation (default 50,000); the table holds at most twice as many. */
  maxEntries?: number;
  /** Longest canonical key of a shared subtree, in characters (default 256): bigger subtrees are rarely equal. */
  maxKeyLength?: number;
}

/** The transform, and how many distinct subtrees its table holds. */
export type ShareSubtreesTransform = TransformFunc<KubeObject> & { heldValues(): number };

const NONE = -1;
/** Slots of the doorkeeper (64 KB): about as many distinct subtrees as a few thousand Pods hold. */
const SIGHTINGS = 1 << 14;

/** Per call: each scanned node's held equal (or itself), and the held instances already placed in the object. */
interface Pass {
  root: object;
  content: Map<object, object>;
  used: Set<object>;
}

const isPlain = (node: object): boolean =>
  Object.getPrototypeOf(node) === (Array.isArray(node) ? Array.prototype : Object.prototype);

/** Whether no object of the subtree (a held one: frozen, plain) is in `used`. */
function isFree(node: object, used: Set<object>): boolean {
  if (used.has(node)) return false;
  const rec = node as Record<string, unknown>;
  for (const k in rec) {
    const v = rec[k];
    if (v !== null && typeof v === 'object' && !isFree(v, used)) return false;
  }
  return true;
}

/** Marks every object of the subtree used, freezing what is not frozen yet. */
function settle(node: object, used: Set<object>): void {
  used.add(node);
  if (!Object.isFrozen(node)) Object.freeze(node);
  const rec = node as Record<string, unknown>;
  for (const k in rec) {
    const v = rec[k];
    if (v !== null && typeof v === 'object') settle(v, used);
  }
}

/**
 * A transform that replaces, in place, each small subtree of the object that equals one already held by the
 * held instance, bottom-up, so equal subtrees across cached objects are one object in memory. Held instances
 * are frozen: cached objects are read-only (the informer's contract, as upstream), and a handler that writes
 * into one anyway gets a TypeError instead of silently changing every other object sharing it. Deep copies
 * handed out by the cache reader (structuredClone) are ordinary mutable objects. One object never holds the
 * same instance twice — a second equal subtree stays its own copy — so a deep copy, which preserves identity
 * within one graph, never aliases two places of one object. What the object says is unchanged: the same keys
 * in the same order with equal values (JSON.stringify gives the same text). A frozen object is returned
 * untouched. The table is bounded: two generations of at most `maxEntries` each, a hit in the old one is
 * promoted, and when the young one fills up the old one is dropped, so unique subtrees only churn.
 * Chain it after transformStripManagedFields and transformInternStrings.
 */
export function transformShareSubtrees(options: ShareSubtreesOptions = {}): ShareSubtreesTransform {
  const maxEntries = options.maxEntries ?? 50_000;
  const maxKeyLength = options.maxKeyLength ?? 256;
  if (!(maxEntries >= 1) || !(maxKeyLength >= 2)) {
    throw new Error('transformShareSubtrees: maxEntries must be ≥ 1 and maxKeyLength ≥ 2');
  }
  // Ids of held instances, so a parent's key names a shared child in a few characters.
  const ids = new WeakMap<object, number>();
  let nextId = 0;
  let young = new Map<string, object>();
  let old = new Map<string, object>();

  const hold = (key: string, node: object): void => {
    if (young.size >= maxEntries) {
      for (const dropped of old.values()) ids.delete(dropped);
      old = young;
      young = new Map();
    }
    young.set(key, node);
  };

  const lookup = (key: string): object | undefined => {
    const held = young.get(key);
    if (held !== undefined) return held;
    const promoted = old.get(key);
    if (promoted === undefined) return undefined;
    old.delete(key);
    hold(key, promoted);
    return promoted;
  };

  // A subtree is held from its second sighting on: most small subtrees of an object are its own (an env
  // var, a pod IP) and would cost a key and a table slot each for nothing. The doorkeeper is a fixed array
  // of key hashes; a slot taken by another key only delays admission.
  const sightings = new Int32Array(SIGHTINGS);
  const seenBefore = (key: string): boolean => {
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const slot = h & (SIGHTINGS - 1);
    if (sightings[slot] === h) return true;
    sightings[slot] = h;
    return false;
  };

  // Exact and unambiguous within a key, read left to right: strings by their length then their text (cheaper
  // than quoting), numbers as their shortest round-trip text, each entry ended by a comma.
  const scalarKey = (v: unknown): string | undefined => {
    switch (typeof v) {
      case 'string':
        return v.length > maxKeyLength ? undefined : `s${v.length}:${v}`;
      case 'number':
        return Object.is(v, -0) ? 'd-0' : `d${v}`;
      case 'boolean':
        return v ? 't' : 'f';
      default:
        return v === null ? 'n' : undefined;
    }
  };

  /**
   * Bottom-up: a node's held equal's id, or NONE when the node is not shareable. The root and its metadata
   * never are: they name the object, so they are never equal across objects, and they stay writable.
   */
  const scan = (node: object, pass: Pass, own: boolean): number => {
    if (Object.isFrozen(node)) {
      const id = ids.get(node);
      if (id === undefined) return NONE;
      pass.content.set(node, node);
      return id;
    }
    const array = Array.isArray(node);
    let ok = !own && isPlain(node);
    let key = array ? '[' : '{';
    if (array) {
      for (let i = 0; i < node.length; i++) {
        const x: unknown = node[i];
        let enc: string | undefined;
        if (x !== null && typeof x === 'object') {
          const id = scan(x, pass, false);
          enc = id === NONE ? undefined : `#${id}`;
        } else if (ok) {
          enc = scalarKey(x);
        }
        if (!ok) continue;
        if (enc === undefined || (key += `${enc},`).length > maxKeyLength) ok = false;
      }
    } else {
      const rec = node as Record<string, unknown>;
      // for-in rather than Object.keys: V8 reads rec[k] through the enum cache, without a keyed lookup.
      for (const k in rec) {
        const x = rec[k];
        let enc: string | undefined;
        if (x !== null && typeof x === 'object') {
          const id = scan(x, pass, node === pass.root && k === 'metadata');
          enc = id === NONE ? undefined : `#${id}`;
        } else if (ok) {
          enc = scalarKey(x);
        }
        if (!ok) continue;
        if (enc === undefined || (key += `${k.length}:${k}${enc},`).length > maxKeyLength) ok = false;
      }
    }
    if (!ok) return NONE;
    key += array ? ']' : '}';
    let held = lookup(key);
    if (held === undefined) {
      if (!seenBefore(key)) return NONE;
      held = node;
      ids.set(node, nextId++);
      hold(key, node);
      // Placed in this object already: no other place of it may take it.
      pass.used.add(node);
    }
    pass.content.set(node, held);
    return ids.get(held) as number;
  };

  /** Top-down: swaps each child for its held equal where that is free, else descends into it. */
  const place = (node: object, pass: Pass): void => {
    const rec = node as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      const child = rec[k];
      if (child === null || typeof child !== 'object') continue;
      const held = pass.content.get(child);
      if (held === child) {
        if (!Object.isFrozen(child)) place(child, pass);
        settle(child, pass.used);
      } else if (held !== undefined && isFree(held, pass.used)) {
        rec[k] = held;
        settle(held, pass.used);
      } else if (!Object.isFrozen(child)) {
        place(child, pass);
      }
    }
  };

  const transform = (obj: KubeObject): KubeObject => {
    if (obj === null || typeof obj !== 'object' || Object.isFrozen(obj)) return obj;
    const pass: Pass = { root: obj, content: new Map(), used: new Set() };
    try {
      scan(obj, pass, true);
      place(obj, pass);
    } catch (err) {
      // A frozen part (a fixture, a shared constant) ends the walk; what was swapped is equal, so harmless.
      if (!(err instanceof TypeError)) throw err;
    }
    return obj;
  };
  return Object.assign(transform, { heldValues: () => young.size + old.size });
}
