import { describe, expect, it } from 'vitest';
import type { Schema } from './schema';
import { validateAgainstSchema } from './schema-validation';
import { fieldErrorMessage } from './status-errors';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number' },
        color: { type: 'string', enum: ['red', 'blue'] },
        name: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
        port: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};

const messages = (spec: unknown) =>
  validateAgainstSchema({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec }, schema).map(
    fieldErrorMessage,
  );

describe('validateAgainstSchema', () => {
  it('accepts a valid object (integers count as numbers)', () => {
    expect(
      messages({ size: 3, ratio: 2, color: 'red', name: 'abc', port: 'http', tags: ['a'], labels: { a: 'b' } }),
    ).toEqual([]);
  });

  it('reports wrong types the way kube-openapi words them', () => {
    expect(messages({ size: 'big' })).toEqual([
      'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    ]);
    expect(messages({ size: 1.5 })).toEqual([
      'spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"',
    ]);
    expect(messages({ size: 1, tags: ['a', 2] })).toEqual([
      'spec.tags[1]: Invalid value: "integer": spec.tags[1] in body must be of type string: "integer"',
    ]);
    expect(messages({ size: 1, labels: { a: true } })).toEqual([
      'spec.labels.a: Invalid value: "boolean": spec.labels.a in body must be of type string: "boolean"',
    ]);
  });

  it('checks required, enum, bounds, length and pattern', () => {
    expect(messages({})).toEqual(['spec.size: Required value']);
    expect(messages({ size: 0, color: 'pink', name: 'ABCD' })).toEqual([
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      'spec.color: Unsupported value: "pink": supported values: "red", "blue"',
      'spec.name: Invalid value: "ABCD": spec.name in body should be at most 3 chars long',
      'spec.name: Invalid value: "ABCD": spec.name in body should match \'^[a-z]+$\'',
    ]);
    expect(messages({ size: 1, port: 1.5 })).toEqual([
      'spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"',
    ]);
  });
});
