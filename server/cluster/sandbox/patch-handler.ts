// PATCH: apiserver pkg/endpoints/handlers/patch.go — pick the patch type from Content-Type, apply it to
// the stored object, honour a resourceVersion precondition inside the patch, then update as PUT does.
import type { KubeObject } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { decodeBody, type WriteOptions } from './create';
import { applyPatch, PATCH_MEDIA_TYPES, PatchError, type PatchType } from './patch';
import { withTypeMeta, type ResourceType } from './resources';
import { objectKey } from './storage';
import { newBadRequest, newNotFound, newStaleConflict, newUnsupportedMediaType, StatusError } from './status-errors';
import { commitUpdate, type Subresource } from './update';
import { isObject } from './util';

/** Patch media types the sandbox serves for a type (no server-side apply; no strategic merge for CRs). */
export function patchTypesFor(type: ResourceType): string[] {
  return type.strategicMerge
    ? ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']
    : ['application/json-patch+json', 'application/merge-patch+json'];
}

export function resolvePatchType(type: ResourceType, contentType: string | undefined): PatchType {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const kind = PATCH_MEDIA_TYPES[media];
  if (!kind || !patchTypesFor(type).includes(media)) {
    throw newUnsupportedMediaType(patchTypesFor(type));
  }
  return kind;
}

export function patchObject(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  kind: PatchType,
  patch: unknown,
  opts: WriteOptions = {},
  sub?: Subresource,
): KubeObject {
  const stored = ctx.storage.get(grOf(type), objectKey(type.namespaced ? namespace : undefined, name));
  if (!stored) throw newNotFound({ group: type.group, resource: type.resource }, name);
  const current = withTypeMeta(stored, type);
  let patched: unknown;
  try {
    patched = applyPatch(kind, current, patch);
  } catch (e) {
    if (e instanceof PatchError) {
      if (e.malformed) throw newBadRequest(e.message);
      throw new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
        causes: [{ reason: 'FieldValueInvalid', message: e.message }],
      });
    }
    throw e;
  }
  if (!isObject(patched)) throw newBadRequest('the patched object is not a JSON object');
  const obj = decodeBody(type, namespace, patched, opts);
  const rv = obj.metadata.resourceVersion;
  if (rv && rv !== stored.metadata.resourceVersion)
    throw newStaleConflict({ group: type.group, resource: type.resource }, name);
  // A uid changed by the patch is no precondition (PATCH has none): commitUpdate refuses it as immutable (422).
  if (obj.metadata.name !== name)
    throw newBadRequest(
      `the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`,
    );
  return commitUpdate(ctx, type, stored, obj, opts, sub);
}
