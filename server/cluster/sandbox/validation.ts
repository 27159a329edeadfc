// ObjectMeta validation the sandbox enforces (apimachinery pkg/api/validation/objectmeta.go), kept to
// the checks clients actually trip over: names, generateName, labels, owner references, finalizers.
import type { KubeObject } from '../../../shared/models/object';
import type { ResourceType } from './resources';
import { forbidden, invalid, newInvalid, required, type FieldError } from './status-errors';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from './util';

export function validateObjectMeta(type: ResourceType, obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const m = obj.metadata;
  const name = m.name ?? '';
  if (!name) {
    errs.push(required('metadata.name', 'name or generateName is required'));
  } else if (type.resource === 'namespaces' || (type.group === '' && type.resource === 'services')) {
    if (!DNS1123_LABEL.test(name) || name.length > 63) {
      errs.push(
        invalid(
          'metadata.name',
          name,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    }
  } else if (!DNS1123_SUBDOMAIN.test(name) || name.length > 253) {
    errs.push(
      invalid(
        'metadata.name',
        name,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    );
  }
  const owners = m.ownerReferences ?? [];
  owners.forEach((o, i) => {
    for (const f of ['apiVersion', 'kind', 'name', 'uid'] as const) {
      if (!o[f]) errs.push(required(`metadata.ownerReferences[${i}].${f}`));
    }
  });
  if (owners.filter((o) => o.controller === true).length > 1) {
    errs.push(invalid('metadata.ownerReferences', owners, 'Only one reference can have Controller set to true'));
  }
  for (const [k, v] of Object.entries(m.labels ?? {})) {
    if (typeof v !== 'string') errs.push(invalid(`metadata.labels`, v, `value of ${k} must be a string`));
    else errs.push(...labelErrors(k, v));
  }
  for (const f of m.finalizers ?? []) {
    if (typeof f !== 'string' || f === '') errs.push(invalid('metadata.finalizers', f, 'name part must be non-empty'));
  }
  return errs;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** ValidateLabels: keys are qualified names ([prefix/]name), values at most 63 label characters. */
function labelErrors(key: string, value: string): FieldError[] {
  const errs: FieldError[] = [];
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const part = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (!DNS1123_SUBDOMAIN.test(prefix) || prefix.length > 253)) {
    errs.push(
      invalid(
        'metadata.labels',
        key,
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      ),
    );
  }
  if (part.length === 0 || part.length > 63 || !QUALIFIED_NAME_PART.test(part)) {
    errs.push(
      invalid(
        'metadata.labels',
        key,
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ),
    );
  }
  if (value.length > 63) errs.push(invalid('metadata.labels', value, 'must be no more than 63 characters'));
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      invalid(
        'metadata.labels',
        value,
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ),
    );
  }
  return errs;
}

export function throwIfInvalid(type: ResourceType, name: string, errs: FieldError[]): void {
  if (errs.length > 0) throw newInvalid({ group: type.group, kind: type.kind }, name, errs);
}

export function newFinalizersForbidden(type: ResourceType, name: string, added: string[]): never {
  const list = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
  throw newInvalid({ group: type.group, kind: type.kind }, name, [
    forbidden(
      'metadata.finalizers',
      `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`,
    ),
  ]);
}
