// PUT: apiserver pkg/endpoints/handlers/update.go + registry/generic/registry/store.go Update +
// pkg/registry/rest/update.go BeforeUpdate: optimistic concurrency, system fields restored from
// storage, the status split, generation rules, finalizer rules and deletion on the last finalizer.
import type { KubeObject } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { createObject, decodeBody, isCrdType, type WriteOptions } from './create';
import { prepareCrd, syncCrdTypes, validateCrd } from './crds';
import { isNamespaceType, prepareNamespaceForUpdate } from './namespaces';
import { withTypeMeta, type ResourceType } from './resources';
import { objectKey } from './storage';
import { invalid, newBadRequest, newConflict, newInvalid, newNotFound, newStaleConflict } from './status-errors';
import { deepEqual, isObject } from './util';
import { newFinalizersForbidden, throwIfInvalid, validateObjectMeta } from './validation';

export type Subresource = 'status' | 'finalize';

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

export function updateObject(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  body: unknown,
  opts: WriteOptions = {},
  sub?: Subresource,
): UpdateResult {
  const obj = decodeBody(type, namespace, body, opts);
  if (!obj.metadata.name) obj.metadata.name = name;
  if (obj.metadata.name !== name) {
    throw newBadRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  }
  const gr = grOf(type);
  const stored = ctx.storage.get(gr, objectKey(type.namespaced ? namespace : undefined, name));
  const rv = obj.metadata.resourceVersion;
  if (!stored) {
    if (type.allowCreateOnUpdate && !sub) {
      const { resourceVersion: _rv, ...meta } = obj.metadata;
      return { object: createObject(ctx, type, namespace, { ...obj, metadata: meta }, opts), created: true };
    }
    throw newNotFound({ group: type.group, resource: type.resource }, name);
  }
  // A uid in a PUT body is a storage precondition (rest.DefaultUpdatedObjectInfo), checked before the RV.
  if (obj.metadata.uid && obj.metadata.uid !== stored.metadata.uid) {
    const key = `/registry/${type.crdName ? `${type.group}/` : ''}${type.resource}/${type.namespaced ? `${namespace}/` : ''}${name}`;
    throw newConflict(
      { group: type.group, resource: type.resource },
      name,
      `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${stored.metadata.uid}`,
    );
  }
  if (!rv) {
    if (!type.allowUnconditionalUpdate) {
      throw newInvalid({ group: type.group, kind: type.resource }, name, [
        invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
      ]);
    }
  } else if (rv !== stored.metadata.resourceVersion) {
    throw newStaleConflict({ group: type.group, resource: type.resource }, name);
  }
  return { object: commitUpdate(ctx, type, stored, obj, opts, sub), created: false };
}

/** Builds the object to store from the request's version, per the strategy rules; shared with PATCH. */
export function commitUpdate(
  ctx: SandboxContext,
  type: ResourceType,
  stored: KubeObject,
  incoming: KubeObject,
  opts: WriteOptions,
  sub?: Subresource,
): KubeObject {
  const name = stored.metadata.name ?? '';
  const sm = stored.metadata;
  const im = incoming.metadata;
  if (im.uid && im.uid !== sm.uid) {
    throw newInvalid({ group: type.group, kind: type.kind }, name, [
      invalid('metadata.uid', im.uid, 'field is immutable'),
    ]);
  }
  let next: KubeObject;
  if (sub === 'status') {
    next = structuredClone(stored);
    if (incoming.status === undefined) delete next.status;
    else next.status = incoming.status;
    if (!type.crdName) {
      // Built-in status endpoints accept label and annotation changes along with status.
      next.metadata.labels = im.labels;
      next.metadata.annotations = im.annotations;
    }
  } else if (sub === 'finalize') {
    next = structuredClone(stored);
    const spec = isObject(incoming.spec) ? incoming.spec : {};
    next.spec = { ...(isObject(next.spec) ? next.spec : {}), finalizers: spec.finalizers ?? [] };
  } else {
    next = structuredClone(incoming);
    if (type.status) {
      if (stored.status === undefined) delete next.status;
      else next.status = structuredClone(stored.status);
    }
    if (isNamespaceType(type)) {
      next.spec = structuredClone(stored.spec);
      prepareNamespaceForUpdate(next);
    }
    type.normalize?.(next);
    if (isCrdType(type)) validateCrd(next);
  }
  const nm = next.metadata;
  nm.uid = sm.uid;
  nm.name = sm.name;
  if (sm.namespace) nm.namespace = sm.namespace;
  else delete nm.namespace;
  nm.resourceVersion = sm.resourceVersion;
  setOrDelete(nm, 'creationTimestamp', sm.creationTimestamp);
  setOrDelete(nm, 'deletionTimestamp', sm.deletionTimestamp);
  setOrDelete(nm, 'deletionGracePeriodSeconds', sm.deletionGracePeriodSeconds);
  setOrDelete(nm, 'generation', sm.generation);
  setOrDelete(nm, 'managedFields', sm.managedFields);
  if (nm.finalizers && nm.finalizers.length === 0) delete nm.finalizers;
  if (nm.labels && Object.keys(nm.labels).length === 0) delete nm.labels;
  if (nm.annotations && Object.keys(nm.annotations).length === 0) delete nm.annotations;
  if (nm.ownerReferences && nm.ownerReferences.length === 0) delete nm.ownerReferences;

  if (sm.deletionTimestamp) {
    const added = (nm.finalizers ?? []).filter((f) => !(sm.finalizers ?? []).includes(f));
    if (added.length) newFinalizersForbidden(type, name, added);
  }
  throwIfInvalid(type, name, [...validateObjectMeta(type, next), ...(type.validate?.(next) ?? [])]);

  if (sub !== 'status' && sub !== 'finalize' && sm.generation !== undefined && generationChanged(type, stored, next)) {
    nm.generation = sm.generation + 1;
  }
  if (isCrdType(type) && !sub) prepareCrd(next, ctx.clock.now());

  const unchanged =
    deepEqual(next, withTypeMeta(stored, type)) ||
    deepEqual({ ...next, apiVersion: stored.apiVersion, kind: stored.kind }, stored);
  if (unchanged) return withTypeMeta(stored, type);
  if (opts.dryRun) return next;

  const gr = grOf(type);
  const key = objectKey(sm.namespace, name);
  const graceDone = nm.deletionGracePeriodSeconds === undefined || nm.deletionGracePeriodSeconds === 0;
  const nsDone =
    !isNamespaceType(type) || ((next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length === 0;
  if (nm.deletionTimestamp && (nm.finalizers ?? []).length === 0 && graceDone && nsDone) {
    // Removing the last finalizer of an object being deleted removes it (store.go deleteForEmptyFinalizers).
    const last = ctx.storage.delete(gr, key) as KubeObject;
    ctx.kickControllers();
    return withTypeMeta(last, type);
  }
  const saved = ctx.storage.update(gr, key, next);
  if (isCrdType(type)) syncCrdTypes(ctx.registry, saved);
  ctx.kickControllers();
  return withTypeMeta(saved, type);
}

function generationChanged(type: ResourceType, a: KubeObject, b: KubeObject): boolean {
  switch (type.generation) {
    case 'none':
      return false;
    case 'spec':
      return !deepEqual(a.spec, b.spec);
    case 'specOrAnnotations':
      return !deepEqual(a.spec, b.spec) || !deepEqual(a.metadata.annotations, b.metadata.annotations);
    case 'nonMetadata': {
      const strip = (o: KubeObject): Record<string, unknown> => {
        const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o;
        return rest;
      };
      return !deepEqual(strip(a), strip(b));
    }
  }
}

function setOrDelete<K extends keyof KubeObject['metadata']>(
  m: KubeObject['metadata'],
  k: K,
  v: KubeObject['metadata'][K],
): void {
  if (v === undefined) delete m[k];
  else m[k] = v;
}
