// Ports controller-runtime pkg/client/patch.go (Patch, MergeFrom, RawPatch, Apply) and the JSON merge patch
// (RFC 7386) diff that MergeFrom computes with evanphx/json-patch's CreateMergePatch.

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** Content-Type the API server expects for each patch type (types.PatchType). */
export const PATCH_CONTENT_TYPE: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** client.Patch: a patch type and how to build its body from the object being patched. */
export interface Patch {
  readonly type: PatchType;
  data(obj: unknown): unknown;
}

/** client.RawPatch: a ready body. */
export function rawPatch(type: PatchType, body: unknown): Patch {
  return { type, data: () => body };
}

export interface MergeFromOptions {
  /** Adds metadata.resourceVersion of the original so a concurrent change fails with 409 (MergeFromWithOptimisticLock). */
  optimisticLock?: boolean;
}

/**
 * client.MergeFrom: the patch is the JSON merge diff from `original` to the object passed to data(). Take
 * `original` as a deep copy before mutating.
 */
export function mergeFrom(original: unknown, opts: MergeFromOptions = {}): Patch {
  const snapshot = structuredClone(original);
  return {
    type: 'merge',
    data(obj: unknown): unknown {
      const diff = createMergePatch(snapshot, obj);
      if (!opts.optimisticLock) return diff;
      const rv = (obj as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion;
      if (!rv) return diff;
      const patch = (isPlainObject(diff) ? diff : {}) as Record<string, unknown>;
      const meta = isPlainObject(patch.metadata) ? patch.metadata : {};
      return { ...patch, metadata: { ...meta, resourceVersion: rv } };
    },
  };
}

/** client.Apply: server-side apply of the whole object (send with a field manager). */
export const applyPatch: Patch = { type: 'apply', data: (obj) => obj };

/** The RFC 7386 merge patch that turns `original` into `modified` ({} when equal). */
export function createMergePatch(original: unknown, modified: unknown): unknown {
  if (!isPlainObject(original) || !isPlainObject(modified)) return modified;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(original)) {
    if (!(key in modified) || modified[key] === undefined) patch[key] = null;
  }
  for (const [key, value] of Object.entries(modified)) {
    if (value === undefined) continue;
    const before = original[key];
    if (isPlainObject(before) && isPlainObject(value)) {
      const sub = createMergePatch(before, value);
      if (isPlainObject(sub) && Object.keys(sub).length > 0) patch[key] = sub;
    } else if (!deepEqual(before, value)) {
      patch[key] = value;
    }
  }
  return patch;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}
