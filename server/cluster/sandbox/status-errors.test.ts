import { describe, expect, it } from 'vitest';
import {
  invalid,
  newAlreadyExists,
  newConflict,
  newInvalid,
  newNotFound,
  newOptionsInvalid,
  newStaleConflict,
  notSupported,
  required,
} from './status-errors';

describe('Status errors', () => {
  it('NotFound names the group resource', () => {
    expect(newNotFound({ group: '', resource: 'pods' }, 'x').toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    });
    expect(newNotFound({ group: 'apps', resource: 'deployments' }, 'd').message).toBe('deployments.apps "d" not found');
    expect(newNotFound({ group: 'apps', resource: 'deployments' }, 'd').details).toEqual({
      name: 'd',
      group: 'apps',
      kind: 'deployments',
    });
  });

  it('AlreadyExists and Conflict use the upstream wording', () => {
    expect(newAlreadyExists({ group: '', resource: 'configmaps' }, 'x').message).toBe('configmaps "x" already exists');
    expect(newAlreadyExists({ group: '', resource: 'configmaps' }, 'x', true).message).toBe(
      'object is being deleted: configmaps "x" already exists',
    );
    const c = newStaleConflict({ group: '', resource: 'configmaps' }, 'x');
    expect([c.code, c.reason, c.message]).toEqual([
      409,
      'Conflict',
      'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
    ]);
    expect(newConflict({ group: 'coordination.k8s.io', resource: 'leases' }, 'l', 'why').message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "l": why',
    );
  });

  it('Invalid joins several field errors and reports the Kind', () => {
    const e = newInvalid({ group: '', kind: 'Pod' }, 'p', [
      required('spec.containers'),
      invalid('metadata.name', 'Bad', 'must be lower case'),
    ]);
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      'Pod "p" is invalid: [spec.containers: Required value, metadata.name: Invalid value: "Bad": must be lower case]',
    );
    expect(e.details?.kind).toBe('Pod');
    expect(e.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "Bad": must be lower case', field: 'metadata.name' },
    ]);
    expect(newInvalid({ group: 'example.com', kind: 'Widget' }, 'w', [invalid('spec.size', 3)]).message).toBe(
      'Widget.example.com "w" is invalid: spec.size: Invalid value: 3',
    );
  });

  it('option errors are reported against meta.k8s.io option kinds', () => {
    const e = newOptionsInvalid('ListOptions', [
      notSupported('resourceVersionMatch', 'Bogus', ['Exact', 'NotOlderThan', '']),
    ]);
    expect(e.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    );
  });
});
