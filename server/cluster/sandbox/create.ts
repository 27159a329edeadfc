// POST: apiserver pkg/endpoints/handlers/create.go + pkg/registry/generic/registry/store.go Create
// + pkg/registry/rest/create.go BeforeCreate, with the per-kind strategies the sandbox serves.
import type { KubeObject } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { prepareCrd, syncCrdTypes, validateCrd } from './crds';
import { checkUnknownFields } from './field-validation';
import { admitCreateInNamespace, isNamespaceType, prepareNamespaceForCreate } from './namespaces';
import { apiVersionOf, withTypeMeta, type ResourceType } from './resources';
import { grKey, objectKey } from './storage';
import {
  newAlreadyExists,
  newBadRequest,
  newForbidden,
  newGenerateNameConflict,
  newOptionsInvalid,
  notSupported,
  StatusError,
} from './status-errors';
import { generateName, isObject, rfc3339 } from './util';
import { throwIfInvalid, validateObjectMeta } from './validation';

export interface WriteOptions {
  /** `dryRun=All`: run everything, store nothing. */
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: string;
  /** Collects `Warning` header texts (unknown fields under fieldValidation=Warn). */
  warnings?: string[];
}

export const isCrdType = (t: ResourceType): boolean =>
  t.group === 'apiextensions.k8s.io' && t.resource === 'customresourcedefinitions';

export function validateWriteOptions(
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  q: URLSearchParams,
): WriteOptions {
  const opts: WriteOptions = {};
  const dry = q.getAll('dryRun');
  if (dry.length) {
    if (dry.some((d) => d !== 'All')) throw newOptionsInvalid(kind, [notSupported('dryRun', dry, ['All'])]);
    opts.dryRun = true;
  }
  const fv = q.get('fieldValidation');
  if (fv !== null && fv !== '') {
    if (!['Ignore', 'Warn', 'Strict'].includes(fv))
      throw newOptionsInvalid(kind, [notSupported('fieldValidation', fv, ['Ignore', 'Warn', 'Strict'])]);
    opts.fieldValidation = fv;
  }
  const fm = q.get('fieldManager');
  if (fm) opts.fieldManager = fm;
  return opts;
}

/** Decoding checks shared by create and update: body shape, apiVersion/kind, namespace. */
export function decodeBody(
  type: ResourceType,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions = {},
): KubeObject {
  if (!isObject(body)) throw newBadRequest('the object provided is unrecognized (must be of type ' + type.kind + ')');
  const obj = structuredClone(body) as KubeObject;
  if (!isObject(obj.metadata)) obj.metadata = {};
  const warnings = checkUnknownFields(type, obj, opts.fieldValidation);
  if (warnings.length) opts.warnings?.push(...warnings);
  const want = apiVersionOf(type);
  if (type.crdName) {
    if (obj.apiVersion !== want || obj.kind !== type.kind) {
      throw newBadRequest(
        `the API version in the data (${String(obj.apiVersion ?? '')}) does not match the expected API version (${want})`,
      );
    }
  } else {
    if (obj.apiVersion !== undefined && obj.apiVersion !== want) {
      throw newBadRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${want})`,
      );
    }
    if (obj.kind !== undefined && obj.kind !== type.kind) {
      throw newBadRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${type.kind})`);
    }
  }
  if (type.namespaced) {
    if (obj.metadata.namespace && namespace && obj.metadata.namespace !== namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (namespace) obj.metadata.namespace = namespace;
  } else {
    delete obj.metadata.namespace;
  }
  const typed = withTypeMeta(obj, type);
  return type.toStorage ? type.toStorage(typed) : typed;
}

/** Creates an object with full server semantics; returns what the server answers (201). */
export function createObject(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions = {},
): KubeObject {
  const obj = decodeBody(type, namespace, body, opts);
  const m = obj.metadata;
  if (type.namespaced && !m.namespace) throw newBadRequest('the namespace of the object could not be determined');
  const rv = m.resourceVersion;
  if (rv !== undefined && rv !== '') {
    if (/^\d+$/.test(rv)) throw new StatusError(500, '', 'resourceVersion should not be set on objects to be created');
  }
  delete m.resourceVersion;

  if (type.namespaced) admitCreateInNamespace(ctx, type, m.namespace as string, m.name || m.generateName || '');
  if (type.crdName) {
    const crd = ctx.storage.peek(grKey('apiextensions.k8s.io', 'customresourcedefinitions'), type.crdName);
    if (crd?.metadata.deletionTimestamp) {
      throw newForbidden(
        { group: type.group, resource: type.resource },
        m.name ?? '',
        'create not allowed while custom resource definition is terminating',
      );
    }
  }

  // BeforeCreate: system fields belong to the server.
  m.uid = ctx.newUid();
  m.creationTimestamp = rfc3339(ctx.clock.now());
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  delete m.managedFields;
  if (type.generation === 'none') delete m.generation;
  else m.generation = 1;
  if (type.status) delete obj.status;
  type.prepareForCreate?.(obj);
  type.normalize?.(obj);
  if (isNamespaceType(type)) prepareNamespaceForCreate(obj);
  if (isCrdType(type)) {
    validateCrd(obj);
    prepareCrd(obj, ctx.clock.now());
  }

  const gr = grOf(type);
  const generating = !m.name && !!m.generateName;
  for (let attempt = 0; ; attempt++) {
    if (generating) m.name = generateName(m.generateName as string, ctx.random);
    throwIfInvalid(type, m.name ?? '', [...validateObjectMeta(type, obj), ...(type.validate?.(obj) ?? [])]);
    if (isNamespaceType(type) && obj.metadata.labels)
      obj.metadata.labels['kubernetes.io/metadata.name'] = m.name as string;
    const key = objectKey(m.namespace, m.name as string);
    const existing = ctx.storage.peek(gr, key);
    if (!existing) {
      if (opts.dryRun) return obj;
      const stored = ctx.storage.create(gr, key, obj);
      if (isCrdType(type)) syncCrdTypes(ctx.registry, stored);
      ctx.kickControllers();
      return withTypeMeta(stored, type);
    }
    if (!generating)
      throw newAlreadyExists(
        { group: type.group, resource: type.resource },
        m.name as string,
        !!existing.metadata.deletionTimestamp,
      );
    if (attempt >= 7) throw newGenerateNameConflict({ group: type.group, resource: type.resource }, m.name as string);
  }
}
