// Recent versions of objects as the recorder saw them in the informer cache, stored as diffs so a busy
// object costs one copy plus its changes. Bounded twice: objects tracked (least recently changed dropped)
// and versions per object. Everything stored is already redacted.
import type { KubeObject } from '../../../shared/models/object';
import type { DiffOp, ObjectVersion } from '../../../shared/protocol/socket';
import { diffJson } from '../../../shared/protocol/json-diff';

export interface ObjectVersionStoreOptions {
  /** Objects tracked. Default 1000. */
  maxObjects?: number;
  /** Versions kept per object. Default 10. */
  maxVersions?: number;
}

interface Entry {
  last: KubeObject | null;
  versions: ObjectVersion[];
}

/** managedFields change on every write and would drown the diff that matters. */
function forDiff(obj: KubeObject): KubeObject {
  if (!obj.metadata.managedFields) return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function newVersion(rv: string, ts: number, prev: KubeObject | undefined, next: KubeObject | null): ObjectVersion {
  if (next === null) return { resourceVersion: rv, ts, diff: [], deleted: true };
  // What diffJson answers against nothing, built at its final size: most versions are an object's first.
  const diff: DiffOp[] = prev === undefined ? [{ op: 'add', path: '', value: next }] : diffJson(prev, next);
  return { resourceVersion: rv, ts, diff };
}

export class ObjectVersionStore {
  private readonly maxObjects: number;
  private readonly maxVersions: number;
  private readonly entries = new Map<string, Entry>();

  constructor(opts: ObjectVersionStoreOptions = {}) {
    this.maxObjects = Math.max(1, opts.maxObjects ?? 1000);
    this.maxVersions = Math.max(1, opts.maxVersions ?? 10);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Records obj (null: deleted) as the newest version of id, unless its resourceVersion is already the newest. */
  record(id: string, obj: KubeObject | null, ts: number, resourceVersion?: string): void {
    const e = this.entries.get(id);
    const rv = obj?.metadata.resourceVersion ?? resourceVersion ?? '';
    const next = obj ? forDiff(obj) : null;
    if (e === undefined) {
      // Most objects a busy cluster changes are new to the store (it tracks the last maxObjects changed), so
      // this path builds only what it keeps.
      this.entries.set(id, { last: next, versions: [newVersion(rv, ts, undefined, next)] });
      if (this.entries.size > this.maxObjects) this.dropOldest();
      return;
    }
    const newest = e.versions[e.versions.length - 1];
    if (newest && newest.resourceVersion === rv && Boolean(newest.deleted) === (obj === null)) return;
    // Entries are this store's own (versions() hands out copies), so they change in place; re-inserting
    // moves the entry last in the Map's order, which is the LRU order.
    this.entries.delete(id);
    e.versions.push(newVersion(rv, ts, e.last ?? undefined, next));
    if (e.versions.length > this.maxVersions) e.versions.splice(0, e.versions.length - this.maxVersions);
    if (next !== null) e.last = next;
    this.entries.set(id, e);
  }

  /**
   * The least recently changed id is the first live one in the Map's order. A fresh keys() iterator would
   * step over every entry deleted at the front since the Map last compacted (one per object dropped or
   * moved last), which made each drop scan hundreds of holes; this one iterator stays past them. Everything
   * behind it has been dropped or moved last, so what it answers next is the oldest entry.
   */
  private oldest: Iterator<string> | undefined;

  private dropOldest(): void {
    this.oldest ??= this.entries.keys();
    const next = this.oldest.next();
    if (next.done) {
      // Not reached while entries remain (size > maxObjects ≥ 1); kept so a broken iterator cannot stick.
      this.oldest = undefined;
      return;
    }
    this.entries.delete(next.value);
  }

  /** The versions of id, oldest first: a copy the caller may keep. */
  versions(id: string): ObjectVersion[] {
    return this.entries.get(id)?.versions.slice() ?? [];
  }

  clear(): void {
    this.entries.clear();
    this.oldest = undefined;
  }
}
