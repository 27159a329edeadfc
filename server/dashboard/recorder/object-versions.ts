// Recent versions of objects as the recorder saw them in the informer cache, stored as diffs so a busy
// object costs one copy plus its changes. Bounded twice: objects tracked (least recently changed dropped)
// and versions per object. Everything stored is already redacted.
import type { KubeObject } from '../../../shared/models/object';
import type { ObjectVersion } from '../../../shared/protocol/socket';
import { diffJson } from './json-diff';

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
    if (e) {
      const newest = e.versions[e.versions.length - 1];
      if (newest && newest.resourceVersion === rv && Boolean(newest.deleted) === (obj === null)) return;
      this.entries.delete(id); // re-inserted below: Map order is our LRU order
    }
    const prev = e?.last ?? null;
    const next = obj ? forDiff(obj) : null;
    const version: ObjectVersion = {
      resourceVersion: rv,
      ts,
      diff: next === null ? [] : diffJson(prev ?? undefined, next),
      ...(next === null ? { deleted: true } : {}),
    };
    const versions = [...(e?.versions ?? []), version].slice(-this.maxVersions);
    this.entries.set(id, { last: next ?? prev, versions });
    if (this.entries.size > this.maxObjects) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  versions(id: string): ObjectVersion[] {
    return this.entries.get(id)?.versions ?? [];
  }

  clear(): void {
    this.entries.clear();
  }
}
