// The end state a run is judged by: the objects of the kinds the controller wrote or the scenario touched,
// normalized so that two correct runs compare equal. Dropped: uid, resourceVersion, creationTimestamp,
// managedFields, generation (its own invariant checks it), timestamps anywhere (values in RFC 3339 form).
// Kept as facts: a deletionTimestamp's presence; owner references by the owner's kind and name. A name
// made by generateName becomes `prefix*` wherever it appears, and such objects compare by count and
// content: `prefix*#1`, `prefix*#2`, … ordered by their content.
import type { KubeObject } from '../../shared/models/object';
import { dict } from '../../shared/protocol/records';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Normalized objects by key: "v1/ConfigMap default/name" (plus #n for generated names). */
export type EndState = Map<string, Json>;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function kindOf(o: KubeObject): string {
  return `${o.apiVersion ?? ''}/${o.kind ?? ''}`;
}

function displayName(o: KubeObject): string {
  const m = o.metadata;
  const name = m.generateName && m.name?.startsWith(m.generateName) ? `${m.generateName}*` : (m.name ?? '');
  return `${m.namespace ? `${m.namespace}/` : ''}${name}`;
}

export function normalize(objects: readonly KubeObject[]): EndState {
  const strings = new Map<string, string>();
  for (const o of objects) {
    const m = o.metadata;
    if (m.uid) strings.set(m.uid, `${kindOf(o)} ${displayName(o)}`);
    if (m.generateName && m.name?.startsWith(m.generateName)) strings.set(m.name, `${m.generateName}*`);
  }
  const groups = new Map<string, Json[]>();
  for (const o of objects) {
    const key = `${kindOf(o)} ${displayName(o)}`;
    const list = groups.get(key) ?? [];
    list.push(normalizeObject(o, strings));
    groups.set(key, list);
  }
  const out: EndState = new Map();
  for (const key of [...groups.keys()].sort()) {
    const list = groups.get(key) ?? [];
    if (list.length === 1 && !key.endsWith('*')) out.set(key, list[0] as Json);
    else {
      const sorted = [...list].sort((a, b) => canonical(a).localeCompare(canonical(b)));
      sorted.forEach((v, i) => out.set(`${key}#${i + 1}`, v));
    }
  }
  return out;
}

function normalizeObject(o: KubeObject, strings: ReadonlyMap<string, string>): Json {
  const c = structuredClone(o) as KubeObject;
  const m = c.metadata as Record<string, unknown>;
  for (const f of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation', 'selfLink'])
    delete m[f];
  if (m['deletionTimestamp'] !== undefined) m['deletionTimestamp'] = '<set>';
  const refs = c.metadata.ownerReferences;
  if (refs) {
    m['ownerReferences'] = refs.map((r) => ({ ...r, uid: strings.get(r.uid) ?? `<gone: ${r.kind} ${r.name}>` }));
  }
  if (c.metadata.generateName && c.metadata.name?.startsWith(c.metadata.generateName)) {
    m['name'] = `${c.metadata.generateName}*`;
  }
  return walk(c as unknown as Json, strings);
}

function walk(v: Json, strings: ReadonlyMap<string, string>): Json {
  if (typeof v === 'string') return strings.get(v) ?? (RFC3339.test(v) ? '<time>' : v);
  if (Array.isArray(v)) return v.map((x) => walk(x, strings));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, Json> = dict();
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, strings);
    return out;
  }
  return v;
}

/** Key-sorted JSON, so equal content prints equal. */
export function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k] as Json)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
