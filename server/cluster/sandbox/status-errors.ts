// Ports apimachinery pkg/api/errors/errors.go and pkg/util/validation/field/errors.go: the metav1.Status
// bodies and message formats that clients branch on (IsNotFound, IsConflict, IsInvalid, ...).
import { groupKindString, groupResourceString } from '../../runtime/client';
import type { KubeStatus } from '../../../shared/models/object';

type StatusDetails = NonNullable<KubeStatus['details']>;
export type StatusCause = NonNullable<StatusDetails['causes']>[number];

/** A failure that the router answers as a metav1.Status with the given HTTP code. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): KubeStatus {
    const s: KubeStatus = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      code: this.code,
    };
    if (this.reason) s.reason = this.reason;
    if (this.details && Object.keys(this.details).length > 0) s.details = this.details;
    return s;
  }
}

/** A group/resource as upstream prints it: `pods`, `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function grString(gr: GroupResource): string {
  return groupResourceString(gr);
}

function details(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = { name, kind: gr.resource };
  if (gr.group) d.group = gr.group;
  return d;
}

export function newNotFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${grString(gr)} "${name}" not found`, details(gr, name));
}

export function newAlreadyExists(gr: GroupResource, name: string, beingDeleted = false): StatusError {
  const prefix = beingDeleted ? 'object is being deleted: ' : '';
  return new StatusError(409, 'AlreadyExists', `${prefix}${grString(gr)} "${name}" already exists`, details(gr, name));
}

export function newGenerateNameConflict(gr: GroupResource, name: string): StatusError {
  const d = details(gr, name);
  d.retryAfterSeconds = 1;
  return new StatusError(
    409,
    'AlreadyExists',
    `${grString(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    d,
  );
}

export function newConflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${grString(gr)} "${name}": ${why}`,
    details(gr, name),
  );
}

export const OBJECT_MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function newStaleConflict(gr: GroupResource, name: string): StatusError {
  return newConflict(gr, name, OBJECT_MODIFIED);
}

export function newForbidden(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(403, 'Forbidden', `${grString(gr)} "${name}" is forbidden: ${why}`, details(gr, name));
}

export function newBadRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function newMethodNotSupported(gr: GroupResource, verb: string): StatusError {
  return new StatusError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${grString(gr)}"`, {
    kind: gr.resource,
    ...(gr.group ? { group: gr.group } : {}),
  });
}

export function newGone(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function newInternalError(message: string): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

export function newUnsupportedMediaType(accepted: string[], prefix = ''): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `${prefix}the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function newNotAcceptable(accepted: string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function newTooLargeResourceVersion(requested: string, current: string): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: `Too large resource version` }],
    retryAfterSeconds: 1,
  });
}

/** One field.Error (apimachinery field/errors.go). */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueTypeInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueForbidden'
    | 'FieldValueDuplicate'
    | 'FieldValueNotFound'
    | 'FieldValueTooLong';
  field: string;
  value?: unknown;
  detail?: string;
}

const fieldTypeText: Record<FieldError['type'], string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  FieldValueTooLong: 'Too long',
};

function printValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Formats like field.Error.Error(): `spec.x: Invalid value: "v": detail`. */
export function fieldErrorMessage(e: FieldError): string {
  let body = fieldTypeText[e.type];
  const showsValue =
    e.type === 'FieldValueInvalid' ||
    e.type === 'FieldValueTypeInvalid' ||
    e.type === 'FieldValueNotSupported' ||
    e.type === 'FieldValueDuplicate' ||
    e.type === 'FieldValueNotFound';
  if (showsValue && e.value !== undefined) body += `: ${printValue(e.value)}`;
  if (e.detail) body += `: ${e.detail}`;
  return `${e.field}: ${body}`;
}

export const required = (field: string, detail?: string): FieldError => ({
  type: 'FieldValueRequired',
  field,
  ...(detail ? { detail } : {}),
});
export const invalid = (field: string, value: unknown, detail?: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  value,
  ...(detail ? { detail } : {}),
});
/** field.TypeInvalid: the schema's type does not match (same text as Invalid, its own cause reason). */
export const typeInvalid = (field: string, value: unknown, detail?: string): FieldError => ({
  type: 'FieldValueTypeInvalid',
  field,
  value,
  ...(detail ? { detail } : {}),
});
export const forbidden = (field: string, detail?: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  ...(detail ? { detail } : {}),
});
export const notSupported = (field: string, value: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  value,
  detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** 422 Invalid: `<Kind>[.<group>] "name" is invalid: <errors>`; details.kind is the Kind, not the resource. */
export function newInvalid(groupKind: { group: string; kind: string }, name: string, errs: FieldError[]): StatusError {
  const gk = groupKindString(groupKind);
  const msgs = errs.map(fieldErrorMessage);
  const joined = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  const d: StatusDetails = {
    name,
    kind: groupKind.kind,
    causes: errs.map((e) => ({
      reason: e.type,
      message: fieldErrorMessage(e).slice(e.field.length + 2),
      field: e.field,
    })),
  };
  if (groupKind.group) d.group = groupKind.group;
  return new StatusError(422, 'Invalid', `${gk} "${name}" is invalid: ${joined}`, d);
}

/** Option validation failures: `ListOptions.meta.k8s.io "" is invalid: ...`. */
export function newOptionsInvalid(
  kind: 'ListOptions' | 'CreateOptions' | 'PatchOptions' | 'DeleteOptions' | 'UpdateOptions',
  errs: FieldError[],
): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}
