// Structural-schema validation of custom resources (apiextensions-apiserver pkg/apiserver/validation
// over kube-openapi's validate package): types, required, enum, numeric and string bounds, pattern.
// CEL rules (x-kubernetes-validations) are not evaluated.
import type { Schema } from './schema';
import { invalid, notSupported, required, typeInvalid, type FieldError } from './status-errors';
import { isObject } from './util';

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  const got = jsonType(v);
  return want === got || (want === 'number' && got === 'integer');
}

function walk(v: unknown, s: Schema, path: string, errs: FieldError[]): void {
  if (v === null) {
    if (s.nullable !== true && s.type)
      errs.push(typeInvalid(path, 'null', `${path} in body must be of type ${s.type}: "null"`));
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (!(typeof v === 'string' || Number.isInteger(v)))
      errs.push(typeInvalid(path, jsonType(v), `${path} in body must be of type integer,string: "${jsonType(v)}"`));
    return;
  }
  if (s.type && !typeMatches(s.type, v)) {
    errs.push(typeInvalid(path, jsonType(v), `${path} in body must be of type ${s.type}: "${jsonType(v)}"`));
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push(
      notSupported(
        path,
        v,
        s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
      ),
    );
  }
  if (typeof v === 'number') {
    const min = s.minimum as number | undefined;
    const max = s.maximum as number | undefined;
    if (min !== undefined && (s.exclusiveMinimum ? v <= min : v < min)) {
      errs.push(
        invalid(path, v, `${path} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${min}`),
      );
    }
    if (max !== undefined && (s.exclusiveMaximum ? v >= max : v > max)) {
      errs.push(
        invalid(path, v, `${path} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${max}`),
      );
    }
  }
  if (typeof v === 'string') {
    const chars = [...v].length;
    if (typeof s.minLength === 'number' && chars < s.minLength)
      errs.push(invalid(path, v, `${path} in body should be at least ${s.minLength} chars long`));
    if (typeof s.maxLength === 'number' && chars > s.maxLength)
      errs.push(invalid(path, v, `${path} in body should be at most ${s.maxLength} chars long`));
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v))
      errs.push(invalid(path, v, `${path} in body should match '${s.pattern}'`));
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === 'number' && v.length < s.minItems)
      errs.push(invalid(path, v.length, `${path} in body should have at least ${s.minItems} items`));
    if (typeof s.maxItems === 'number' && v.length > s.maxItems)
      errs.push(invalid(path, v.length, `${path} in body should have at most ${s.maxItems} items`));
    if (s.items) v.forEach((item, i) => walk(item, s.items as Schema, `${path}[${i}]`, errs));
  }
  if (isObject(v)) {
    for (const r of Array.isArray(s.required) ? (s.required as string[]) : []) {
      if (v[r] === undefined) errs.push(required(path ? `${path}.${r}` : r));
    }
    for (const [k, child] of Object.entries(v)) {
      const cs =
        s.properties?.[k] ?? (isObject(s.additionalProperties) ? (s.additionalProperties as Schema) : undefined);
      if (cs) walk(child, cs, path ? `${path}.${k}` : k, errs);
    }
  }
}

/** Field errors of a custom resource against its version's schema (metadata is validated elsewhere). */
export function validateAgainstSchema(obj: Record<string, unknown>, schema: Schema): FieldError[] {
  const errs: FieldError[] = [];
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  const top: Schema = {
    ...schema,
    required: (Array.isArray(schema.required) ? (schema.required as string[]) : []).filter(
      (r) => r !== 'metadata' && r !== 'apiVersion' && r !== 'kind',
    ),
  };
  walk(
    rest,
    {
      ...top,
      properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'metadata')),
    },
    '',
    errs,
  );
  return errs;
}
