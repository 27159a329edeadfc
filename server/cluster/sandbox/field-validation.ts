// Unknown-field handling for built-in kinds (apimachinery's strict JSON decoding as used by
// apiserver pkg/endpoints/handlers/rest.go with fieldValidation Ignore|Warn|Strict): fields the Go
// types do not have are dropped; Warn reports them, Strict refuses the request. The known fields come
// from the same tables the protobuf decoder uses.
import type { KubeObject } from '../../../shared/models/object';
import schema from './protobuf/schema.generated.json';
import { apiVersionOf, type ResourceType } from './resources';
import { newBadRequest } from './status-errors';
import { isObject } from './util';

type Field = [number, string, string, string];
const messages = schema.messages as unknown as Record<string, Field[]>;
const roots = schema.roots as Record<string, string>;

/** JSON name → [type, repeated] for a message, with inline members flattened in. */
function fieldsOf(name: string, out = new Map<string, [string, boolean]>()): Map<string, [string, boolean]> {
  for (const [, json, type, flags] of messages[name] ?? []) {
    if (flags.includes('i')) fieldsOf(type, out);
    else out.set(json, [type, flags.includes('r')]);
  }
  return out;
}

const cache = new Map<string, Map<string, [string, boolean]>>();
function known(name: string): Map<string, [string, boolean]> {
  let f = cache.get(name);
  if (!f) cache.set(name, (f = fieldsOf(name)));
  return f;
}

function prune(value: unknown, type: string, path: string, unknown: string[]): void {
  if (type.startsWith('map:')) {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) prune(v, type.slice(4), `${path}.${k}`, unknown);
    return;
  }
  if (!messages[type] || !isObject(value)) return;
  const fields = known(type);
  for (const [k, v] of Object.entries(value)) {
    const f = fields.get(k);
    const p = path ? `${path}.${k}` : k;
    if (!f) {
      if (!path && (k === 'apiVersion' || k === 'kind')) continue;
      unknown.push(p);
      delete value[k];
      continue;
    }
    const [ft, repeated] = f;
    if (repeated && Array.isArray(v)) v.forEach((item, i) => prune(item, ft, `${p}[${i}]`, unknown));
    else prune(v, ft, p, unknown);
  }
}

/**
 * Drops fields a built-in kind does not have. Strict → 400 `strict decoding error: …`; otherwise the
 * returned warnings are what Warn sends as `Warning` headers (Ignore sends none).
 */
export function checkUnknownFields(type: ResourceType, obj: KubeObject, mode: string | undefined): string[] {
  const root = roots[`${apiVersionOf(type)}/${type.kind}`];
  if (!root || type.crdName) return [];
  const unknown: string[] = [];
  prune(obj, root, '', unknown);
  if (unknown.length === 0) return [];
  const texts = unknown.map((p) => `unknown field "${p}"`);
  if (mode === 'Strict') {
    throw newBadRequest(
      `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${texts.join(', ')}`,
    );
  }
  return mode === 'Ignore' ? [] : texts;
}
