// Patch algorithms: RFC 6902 JSON patch (evanphx/json-patch as apiserver uses it), RFC 7386 JSON merge
// patch, and the common subset of strategic merge patch (apimachinery pkg/util/strategicpatch/patch.go)
// with the merge keys of the built-in types the sandbox serves.
import { isObject, deepEqual, type JsonObject } from './util';

/** A patch that cannot be applied; `malformed` maps to 400, otherwise 422 (as apiserver does). */
export class PatchError extends Error {
  override readonly name = 'PatchError';
  constructor(
    message: string,
    readonly malformed: boolean,
  ) {
    super(message);
  }
}

export const MAX_JSON_PATCH_OPERATIONS = 10_000;

// ---- JSON merge patch (RFC 7386) ----

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: JsonObject = isObject(target) ? structuredClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

// ---- JSON patch (RFC 6902) ----

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

function parsePointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new PatchError(`invalid JSON pointer "${p}"`, false);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = JsonObject | unknown[];

function resolveParent(doc: unknown, tokens: string[], opDesc: string): { parent: Container; last: string } {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined)
      throw new PatchError(`${opDesc}: doc is missing path: "/${tokens.join('/')}": missing value`, false);
  }
  if (!Array.isArray(cur) && !isObject(cur))
    throw new PatchError(`${opDesc}: doc is missing path: "/${tokens.join('/')}": missing value`, false);
  return { parent: cur, last: tokens[tokens.length - 1] as string };
}

function arrayIndex(arr: unknown[], t: string, allowEnd: boolean, desc: string): number {
  if (t === '-' && allowEnd) return arr.length;
  if (!/^\d+$/.test(t)) throw new PatchError(`${desc}: invalid index "${t}"`, false);
  const i = Number(t);
  if (i > arr.length || (!allowEnd && i === arr.length)) throw new PatchError(`${desc}: index out of range`, false);
  return i;
}

function getAt(doc: unknown, path: string, desc: string): unknown {
  let cur = doc;
  for (const t of parsePointer(path)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) throw new PatchError(`${desc}: doc is missing path: "${path}": missing value`, false);
  }
  return cur;
}

function removeAt(doc: unknown, path: string, desc: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new PatchError(`${desc}: cannot remove the document root`, false);
  const { parent, last } = resolveParent(doc, tokens, desc);
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, last, false, desc);
    return parent.splice(i, 1)[0];
  }
  if (!(last in parent))
    throw new PatchError(`${desc}: unable to remove nonexistent key: ${last}: missing value`, false);
  const v = parent[last];
  delete parent[last];
  return v;
}

function addAt(doc: unknown, path: string, value: unknown, replace: boolean, desc: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, last } = resolveParent(doc, tokens, desc);
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, last, !replace, desc);
    if (replace) parent[i] = value;
    else parent.splice(i, 0, value);
  } else {
    if (replace && !(last in parent))
      throw new PatchError(`${desc}: doc is missing key: ${path}: missing value`, false);
    parent[last] = value;
  }
  return doc;
}

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch))
    throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', true);
  if (patch.length > MAX_JSON_PATCH_OPERATIONS)
    throw new PatchError(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
      true,
    );
  let doc = structuredClone(target);
  for (const raw of patch as unknown[]) {
    if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
      throw new PatchError('unexpected kind of JSON patch operation', true);
    }
    const op = raw as unknown as Operation;
    const desc = `${op.op} operation does not apply`;
    switch (op.op) {
      case 'add':
        doc = addAt(doc, op.path, structuredClone(op.value), false, desc);
        break;
      case 'replace':
        doc = addAt(doc, op.path, structuredClone(op.value), true, desc);
        break;
      case 'remove':
        removeAt(doc, op.path, desc);
        break;
      case 'move': {
        const v = removeAt(doc, op.from ?? '', desc);
        doc = addAt(doc, op.path, v, false, desc);
        break;
      }
      case 'copy':
        doc = addAt(doc, op.path, structuredClone(getAt(doc, op.from ?? '', desc)), false, desc);
        break;
      case 'test':
        if (!deepEqual(getAt(doc, op.path, desc), op.value))
          throw new PatchError(`testing value ${op.path} failed: test failed`, false);
        break;
      default:
        throw new PatchError(`Unexpected kind: ${op.op}`, true);
    }
  }
  return doc;
}

// ---- Strategic merge patch (common subset) ----

/** patchMergeKey per list field name; `ports` depends on where it sits. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  ownerReferences: 'uid',
  conditions: 'type',
  hostAliases: 'ip',
  podIPs: 'ip',
  hostIPs: 'ip',
  addresses: 'type',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  secrets: 'name',
};

/** Lists of scalars merged as sets (patchStrategy:"merge" on []string). */
const SET_LISTS = new Set(['finalizers']);

function mergeKeyFor(path: string[], field: string): string | undefined {
  if (field === 'ports') {
    const parent = path[path.length - 1];
    return parent === 'containers[]' || parent === 'initContainers[]' || parent === 'ephemeralContainers[]'
      ? 'containerPort'
      : 'port';
  }
  return MERGE_KEYS[field];
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}

/**
 * Merges a list with a merge key the way strategicpatch's mergeSlice + normalizeElementOrder do: items the
 * patch names come in patch order (or $setElementOrder's), items only the server has keep theirs, and the
 * two are interleaved by their positions in the live list, an item new to the list going before a
 * server-only one it cannot be compared with.
 */
function mergeList(
  original: unknown[],
  patch: unknown[],
  key: string,
  path: string[],
  field: string,
  order?: unknown[],
): unknown[] {
  if (patch.some((p) => isObject(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map(stripDirectives);
  }
  const position = (list: unknown[], item: unknown): number =>
    isObject(item) ? list.findIndex((o) => isObject(o) && deepEqual(o[key], item[key])) : -1;
  const named = new Set<number>();
  let patched: unknown[] = [];
  const unkeyed: unknown[] = [];
  for (const item of patch) {
    if (!isObject(item) || !(key in item)) {
      unkeyed.push(stripDirectives(item));
      continue;
    }
    const idx = position(original, item);
    if (idx >= 0) named.add(idx);
    if (item.$patch === 'delete') continue;
    const prev = position(patched, item);
    const base = prev >= 0 ? patched[prev] : idx >= 0 ? original[idx] : undefined;
    const merged = isObject(base) ? mergeMap(base, item, [...path, `${field}[]`]) : stripDirectives(item);
    if (prev >= 0) patched[prev] = merged;
    else patched.push(merged);
  }
  if (order) {
    const rank = (x: unknown): number => {
      const i = position(order, x);
      return i < 0 ? order.length : i;
    };
    patched = patched
      .map((x, i) => ({ x, i }))
      .sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i)
      .map((e) => e.x);
  }
  const serverOnly = original.filter((_, i) => !named.has(i)).map((x) => structuredClone(x));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patched.length) {
    if (j >= patched.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(patched[j++]);
    else {
      const li = position(original, serverOnly[i]);
      const ri = position(original, patched[j]);
      out.push(li >= 0 && ri >= 0 && li < ri ? serverOnly[i++] : patched[j++]);
    }
  }
  return [...out, ...unkeyed];
}

function mergeMap(original: JsonObject, patch: JsonObject, path: string[]): JsonObject {
  if (patch.$patch === 'replace') return stripDirectives(patch) as JsonObject;
  if (patch.$patch === 'delete') return {};
  const out: JsonObject = structuredClone(original);
  let retain: string[] | undefined;
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$retainKeys') {
      retain = Array.isArray(v) ? (v as string[]) : undefined;
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[f]) && Array.isArray(v)) {
        out[f] = (out[f] as unknown[]).filter((x) => !v.some((d) => deepEqual(d, x)));
      }
      continue;
    }
    // $patch, $setElementOrder/… and other directives carry no data of their own.
    if (k.startsWith('$')) continue;
    if (v === null) {
      delete out[k];
    } else if (isObject(v) && v.$patch === 'delete') {
      delete out[k];
    } else if (isObject(v)) {
      out[k] = mergeMap(isObject(out[k]) ? (out[k] as JsonObject) : {}, v, [...path, k]);
    } else if (Array.isArray(v)) {
      const key = mergeKeyFor(path, k);
      const cur = out[k];
      const order = patch[`$setElementOrder/${k}`];
      if (key && Array.isArray(cur)) out[k] = mergeList(cur, v, key, path, k, Array.isArray(order) ? order : undefined);
      else if (SET_LISTS.has(k) && Array.isArray(cur))
        out[k] = [...cur, ...v.filter((x) => !cur.some((c) => deepEqual(c, x)))];
      else out[k] = stripDirectives(v);
    } else {
      out[k] = v;
    }
  }
  if (retain) for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  return out;
}

export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) throw new PatchError('strategic merge patch must be a JSON object', true);
  return mergeMap(isObject(target) ? target : {}, patch, []);
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_MEDIA_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export function applyPatch(kind: PatchType, target: unknown, patch: unknown): unknown {
  switch (kind) {
    case 'json':
      return applyJsonPatch(target, patch);
    case 'merge':
      if (!isObject(patch)) throw new PatchError('merge patch must be a JSON object', true);
      return applyMergePatch(target, patch);
    case 'strategic':
      return applyStrategicMergePatch(target, patch);
    case 'apply':
      throw new PatchError('server-side apply is not supported', true);
  }
}
