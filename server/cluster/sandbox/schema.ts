// Structural-schema pruning and defaulting for custom resources (apiextensions-apiserver
// pkg/apiserver/schema/pruning and .../schema/defaulting); validation lives in schema-validation.ts.
import { isObject, type JsonObject } from './util';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  default?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  [k: string]: unknown;
}

function walk(value: unknown, schema: Schema | undefined, root: boolean): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) {
    return schema.items ? value.map((v) => walk(v, schema.items, false)) : value;
  }
  if (!isObject(value)) return value;
  const props = schema.properties;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (root && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) {
      out[k] = v;
    } else if (props && k in props) {
      out[k] = walk(v, props[k], false);
    } else if (isObject(schema.additionalProperties)) {
      out[k] = walk(v, schema.additionalProperties, false);
    } else if (preserve || schema.additionalProperties === true || (!props && schema.type !== 'object')) {
      out[k] = v;
    }
  }
  for (const [k, s] of Object.entries(props ?? {})) {
    if (out[k] === undefined && s.default !== undefined) out[k] = walk(structuredClone(s.default), s, false);
  }
  return out;
}

/** Prunes fields the schema does not know and fills schema defaults, in place. */
export function applyStructuralSchema(obj: JsonObject, schema: Schema): void {
  const res = walk(obj, schema, true) as JsonObject;
  for (const k of Object.keys(obj)) if (!(k in res)) delete obj[k];
  Object.assign(obj, res);
}
