// What every informer's cache holds, as the indexer events tell it: key → the reference (uid, resourceVersion)
// last stored. It is the cache half of a recording's state record (the view is the other half), kept from
// events rather than read from the live caches so it is exactly the state at the event it was taken at,
// never a little ahead of it.
//
// A snapshot is copy-on-write per informer: taking one shares every map, and the next change to an informer
// copies only that informer's map, so a keyframe costs a copy of what changed since the last one.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { MetaNamespaceKey, ObjectRef } from '../../../shared/protocol/ids';
import type { CacheTable } from '../../../shared/protocol/recording';

type Cache = Map<MetaNamespaceKey, ObjectRef>;

export class CacheRefs {
  private readonly caches = new Map<string, Cache>();
  /** Maps a snapshot also holds: copied before they change. */
  private readonly shared = new Set<Cache>();

  static fromTable(tables: readonly CacheTable[]): CacheRefs {
    const refs = new CacheRefs();
    for (const [informer, entries] of tables) refs.caches.set(informer, new Map(entries));
    return refs;
  }

  apply(events: readonly StampedEvent[]): void {
    for (const ev of events) if (ev.kind === 'indexer.update') this.update(ev.informer, ev.op, ev.key, ev.ref);
  }

  update(informer: string, op: string, key: MetaNamespaceKey, ref: ObjectRef): void {
    let cache = this.caches.get(informer);
    if (!cache) this.caches.set(informer, (cache = new Map()));
    else if (this.shared.has(cache)) {
      this.shared.delete(cache);
      this.caches.set(informer, (cache = new Map(cache)));
    }
    if (op === 'delete') cache.delete(key);
    else cache.set(key, ref);
  }

  /** A copy that later changes to this one do not reach (and that must not be changed itself). */
  snapshot(): CacheRefs {
    const copy = new CacheRefs();
    for (const [informer, cache] of this.caches) {
      this.shared.add(cache);
      copy.caches.set(informer, cache);
      copy.shared.add(cache);
    }
    return copy;
  }

  get(informer: string, key: MetaNamespaceKey): ObjectRef | undefined {
    return this.caches.get(informer)?.get(key);
  }

  keys(informer: string): MetaNamespaceKey[] {
    return [...(this.caches.get(informer)?.keys() ?? [])];
  }

  clear(): void {
    this.caches.clear();
    this.shared.clear();
  }

  /** The contents as a recording stores them: lists of pairs, informers in the order first seen. */
  table(): CacheTable[] {
    return [...this.caches].map(([informer, cache]) => [informer, [...cache]]);
  }
}
