// What the API server's field manager records for an object a manager wrote: the set of fields it set, as
// FieldsV1 (`f:name` for a field, `k:{…}` for an item of a list keyed by its merge key, `.` for a map, list or
// item itself), keys sorted as the server sorts them. The realistic objects derive their managedFields from
// their own content this way, so the entries name real fields and weigh what they weigh in a cluster (for a
// Pod, about as much as the rest of it); test/bench/managed-fields.envtest.integration.test.ts holds the
// derivation to what kube-apiserver records for the same Pod.

type Json = Record<string, unknown>;

/** Lists the Pod's schema marks atomic (replaced whole, so owned as one leaf). */
const ATOMIC: ReadonlySet<string> = new Set(['containerStatuses', 'tolerations', 'sources', 'command', 'args']);

/** Lists that do not own themselves (no `.`), only their items. */
const NO_SELF: ReadonlySet<string> = new Set(['containers', 'initContainers']);

/** Lists whose items are owned by key alone, without their fields. */
const KEY_ONLY: ReadonlySet<string> = new Set(['ownerReferences']);

/**
 * The merge key of a list item, as the Pod's schema declares them (env, containers, volumes: name;
 * ports: containerPort + protocol; volumeMounts: mountPath; ownerReferences: uid; conditions: type;
 * podIPs: ip), or undefined for an item of an atomic list.
 */
function mergeKey(item: Json): string | undefined {
  if (typeof item['containerPort'] === 'number') {
    return JSON.stringify({ containerPort: item['containerPort'], protocol: item['protocol'] ?? 'TCP' });
  }
  if (typeof item['mountPath'] === 'string') return JSON.stringify({ mountPath: item['mountPath'] });
  if (typeof item['uid'] === 'string' && typeof item['kind'] === 'string') return JSON.stringify({ uid: item['uid'] });
  for (const k of ['name', 'type', 'ip']) if (typeof item[k] === 'string') return JSON.stringify({ [k]: item[k] });
  return undefined;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function sorted(entries: [string, unknown][]): Json {
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** FieldsV1 of one field's value: a leaf (scalar, empty, atomic) is `{}`; a map, list or item owns itself. */
function valueFields(name: string, value: unknown): Json {
  if (ATOMIC.has(name)) return {};
  if (Array.isArray(value)) {
    const entries: [string, unknown][] = [];
    for (const item of value) {
      const key = isObject(item) ? mergeKey(item) : undefined;
      if (key === undefined) return {};
      entries.push([`k:${key}`, KEY_ONLY.has(name) ? {} : { '.': {}, ...fieldsV1(item as Json) }]);
    }
    if (!entries.length) return {};
    return NO_SELF.has(name) ? sorted(entries) : { '.': {}, ...sorted(entries) };
  }
  if (isObject(value) && Object.keys(value).length) return { '.': {}, ...fieldsV1(value) };
  return {};
}

/** FieldsV1 of every field set in `obj`, sorted. */
export function fieldsV1(obj: Json): Json {
  return sorted(Object.entries(obj).map(([name, value]) => [`f:${name}`, valueFields(name, value)]));
}

/**
 * The fields of an object's top-level sections (metadata, spec, status, data…) as one manager's FieldsV1: the
 * sections themselves are not owned (no `.`), what is set inside them is.
 */
export function sectionFields(sections: Json): Json {
  return sorted(Object.entries(sections).map(([name, value]) => [`f:${name}`, fieldsV1(value as Json)]));
}

/** One managedFields entry: `manager` set `fields` with an Update at `time` (on `subresource` if given). */
export function managedFieldsEntry(
  manager: string,
  apiVersion: string,
  time: string,
  fields: Json,
  subresource?: string,
): Json {
  return {
    manager,
    operation: 'Update',
    apiVersion,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
    ...(subresource ? { subresource } : {}),
  };
}
