// The sandbox's etcd + watch cache (apiserver pkg/storage/etcd3/store.go, pkg/storage/cacher/watch_cache.go):
// one global revision counter, a key-ordered object map per group/resource, and an event log that
// is compacted by age so watches and exact-revision lists from too old a revision fail with 410.
import type { KubeObject } from '../../../shared/models/object';
import { realClock, type Clock } from '../../runtime';
import { newGone } from './status-errors';

export type StoredEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `object` is the new state (for DELETED: the last state with the deletion RV). */
export interface StoredEvent {
  rv: number;
  type: StoredEventType;
  /** `group/resource`, e.g. `apps/deployments`, `/pods`. */
  gr: string;
  key: string;
  object: KubeObject;
  prev?: KubeObject;
  at: number;
}

export interface ObjectStorageOptions {
  /** Default realClock. */
  clock?: Clock;
  /** How long (ms) change history is kept for watches and exact-RV lists; default 5 minutes. */
  compactionWindowMs?: number;
  /** At most this many events are kept, whatever their age (the watch cache's ring); default 100 000. */
  historyLimit?: number;
}

export const grKey = (group: string, resource: string): string => `${group}/${resource}`;
export const objectKey = (namespace: string | undefined, name: string): string =>
  namespace ? `${namespace}/${name}` : name;

/**
 * Deep copy at every boundary so nobody can change stored state behind the server's back. Objects are
 * plain JSON, so a JSON round trip suffices (and drops undefined members the way the wire would).
 */
export const deepCopy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Dropped history is released in steps of at least this many events. */
const COMPACT_COPY_MIN = 1024;

export class ObjectStorage {
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly historyLimit: number;
  private rv = 0;
  private compactedRv = 0;
  private readonly data = new Map<string, Map<string, KubeObject>>();
  private readonly uids = new Map<string, { gr: string; key: string }>();
  /**
   * History in revision order from `head`: compaction moves `head` forward and copies the array only once
   * the dropped part is the larger one, so a full window costs O(1) per commit instead of a copy of the
   * whole history (tens of thousands of events after five minutes at 100 writes/s).
   */
  private log: (StoredEvent | undefined)[] = [];
  private head = 0;
  private readonly listeners = new Set<(e: StoredEvent) => void>();
  private readonly pending: StoredEvent[] = [];
  private dispatching = false;

  constructor(opts: ObjectStorageOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.windowMs = opts.compactionWindowMs ?? 5 * 60_000;
    this.historyLimit = opts.historyLimit ?? 100_000;
  }

  /** The newest committed revision (what lists report as their resourceVersion). */
  get currentRv(): number {
    return this.rv;
  }

  /** Revisions at or below this one are gone from history. */
  get compactedRevision(): number {
    this.compactByAge();
    return this.compactedRv;
  }

  get(gr: string, key: string): KubeObject | undefined {
    const o = this.data.get(gr)?.get(key);
    return o ? deepCopy(o) : undefined;
  }

  /** The stored object itself, for callers that only read it (never mutate the result). */
  peek(gr: string, key: string): KubeObject | undefined {
    return this.data.get(gr)?.get(key);
  }

  /** Where an object with this uid lives, if it exists. */
  locateUid(uid: string): { gr: string; key: string } | undefined {
    return this.uids.get(uid);
  }

  /** All stored group/resources that hold at least one object. */
  groupResources(): string[] {
    return [...this.data.keys()].filter((k) => (this.data.get(k)?.size ?? 0) > 0);
  }

  /**
   * Objects of one group/resource in key order (namespace, then name), optionally under a namespace,
   * as of revision `atRv` (default: now). Throws 410 when atRv is older than the retained history.
   */
  list(
    gr: string,
    opts: { namespace?: string; atRv?: number; readOnly?: boolean } = {},
  ): { items: KubeObject[]; keys: string[] } {
    const past = opts.atRv !== undefined && opts.atRv < this.rv;
    // Only a list in the past rewrites the map; a list of now reads the bucket as it is.
    const current = past ? new Map(this.data.get(gr) ?? []) : (this.data.get(gr) ?? new Map<string, KubeObject>());
    if (past && opts.atRv !== undefined) {
      if (opts.atRv < this.compactedRevision) throw newGone('The resourceVersion for the provided list is too old.');
      for (let i = this.log.length - 1; i >= this.head; i--) {
        const e = this.log[i] as StoredEvent;
        if (e.rv <= opts.atRv) break;
        if (e.gr !== gr) continue;
        if (e.type === 'ADDED') current.delete(e.key);
        else if (e.prev) current.set(e.key, e.prev);
      }
    }
    const prefix = opts.namespace ? `${opts.namespace}/` : undefined;
    const keys = [...current.keys()].filter((k) => !prefix || k.startsWith(prefix)).sort(byteOrder);
    // readOnly callers (serializers, matchers) promise not to mutate and skip the copies.
    return {
      keys,
      items: keys.map((k) => (opts.readOnly ? (current.get(k) as KubeObject) : deepCopy(current.get(k) as KubeObject))),
    };
  }

  /** Stores a new object under a fresh revision. The caller has checked that the key is free. */
  create(gr: string, key: string, obj: KubeObject): KubeObject {
    const stored = deepCopy(obj);
    stored.metadata.resourceVersion = String(++this.rv);
    this.bucket(gr).set(key, stored);
    if (stored.metadata.uid) this.uids.set(stored.metadata.uid, { gr, key });
    this.append({ rv: this.rv, type: 'ADDED', gr, key, object: stored, at: this.clock.now() });
    return deepCopy(stored);
  }

  /** Replaces an existing object under a fresh revision. */
  update(gr: string, key: string, obj: KubeObject): KubeObject {
    const prev = this.data.get(gr)?.get(key);
    if (!prev) throw new Error(`storage: update of missing ${gr} ${key}`);
    const stored = deepCopy(obj);
    stored.metadata.resourceVersion = String(++this.rv);
    this.bucket(gr).set(key, stored);
    this.append({ rv: this.rv, type: 'MODIFIED', gr, key, object: stored, prev, at: this.clock.now() });
    return deepCopy(stored);
  }

  /** Removes an object; the DELETED event carries its last state stamped with the deletion revision. */
  delete(gr: string, key: string): KubeObject | undefined {
    const prev = this.data.get(gr)?.get(key);
    if (!prev) return undefined;
    this.data.get(gr)?.delete(key);
    if (prev.metadata.uid) this.uids.delete(prev.metadata.uid);
    const last = deepCopy(prev);
    last.metadata.resourceVersion = String(++this.rv);
    this.append({ rv: this.rv, type: 'DELETED', gr, key, object: last, prev, at: this.clock.now() });
    return deepCopy(last);
  }

  /**
   * Changes after `fromRv` (exclusive), oldest first, optionally for one group/resource.
   * Throws 410 (watch wording) when part of that range has been compacted away.
   */
  eventsSince(fromRv: number, gr?: string): StoredEvent[] {
    if (fromRv < this.compactedRevision) {
      throw newGone(`too old resource version: ${fromRv} (${this.compactedRv + 1})`);
    }
    const out: StoredEvent[] = [];
    for (let i = this.firstAfter(fromRv); i < this.log.length; i++) {
      const e = this.log[i] as StoredEvent;
      if (!gr || e.gr === gr) out.push(e);
    }
    return out;
  }

  /** Index of the first retained event with rv > fromRv (the log is in revision order). */
  private firstAfter(fromRv: number): number {
    let lo = this.head;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.log[mid] as StoredEvent).rv > fromRv) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Listeners run synchronously after each commit, in commit order. */
  subscribe(fn: (e: StoredEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Drops all history up to the current revision, as an etcd compaction would. */
  compactNow(): number {
    this.log = [];
    this.head = 0;
    this.compactedRv = this.rv;
    return this.compactedRv;
  }

  private compactByAge(): void {
    const cutoff = this.clock.now() - this.windowMs;
    let n = this.head;
    while (n < this.log.length && (this.log[n] as StoredEvent).at < cutoff) n++;
    n = Math.max(n, this.log.length - this.historyLimit);
    if (n > this.head) {
      this.compactedRv = Math.max(this.compactedRv, (this.log[n - 1] as StoredEvent).rv);
      // The dropped events' objects are released now; only their slots wait for the copy below.
      this.log.fill(undefined, this.head, n);
      this.head = n;
    }
    if (this.head >= COMPACT_COPY_MIN && this.head * 2 >= this.log.length) {
      this.log = this.log.slice(this.head);
      this.head = 0;
    }
  }

  private append(e: StoredEvent): void {
    this.log.push(e);
    this.compactByAge();
    // A listener may write (simulators, controllers); its commits are delivered after the current
    // one has reached every listener, so all listeners see commits in revision order.
    this.pending.push(e);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) {
        for (const fn of [...this.listeners]) {
          try {
            fn(next);
          } catch (err) {
            // One failing listener must not starve the others (watchers would miss the commit).
            console.error('sandbox storage listener failed', err);
          }
        }
      }
    } finally {
      this.dispatching = false;
      this.pending.length = 0;
    }
  }

  private bucket(gr: string): Map<string, KubeObject> {
    let b = this.data.get(gr);
    if (!b) {
      b = new Map();
      this.data.set(gr, b);
    }
    return b;
  }
}

/** etcd orders keys bytewise; for the ASCII keys Kubernetes allows that is code-unit order. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
