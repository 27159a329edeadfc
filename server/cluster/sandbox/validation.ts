// ObjectMeta validation the sandbox enforces (apimachinery pkg/api/validation/objectmeta.go), kept to
// the checks clients actually trip over: names, generateName, owner references, finalizers.
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
  }
  for (const f of m.finalizers ?? []) {
    if (typeof f !== 'string' || f === '') errs.push(invalid('metadata.finalizers', f, 'name part must be non-empty'));
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
