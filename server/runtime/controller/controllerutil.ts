// Ports controller-runtime pkg/controller/controllerutil/controllerutil.go: writing the owner references
// that Owns() follows, CreateOrUpdate, and finalizer helpers. Without a scheme, an owner's type comes
// from its apiVersion/kind (or an explicit gvk option).
import type { GroupVersionKind, KubeObject, OwnerReference } from '../../../shared/models/object';
import type { Client } from '../client/interfaces';
import { isNotFound } from '../util/errors';
import { apiVersionOf, gvkOfObject, parseGroupVersion } from '../client/gvk';

export interface OwnerRefOptions {
  /** The owner's GVK when the object does not carry apiVersion/kind. */
  ownerGVK?: GroupVersionKind;
  /** Overrides blockOwnerDeletion (default true for controller references). */
  blockOwnerDeletion?: boolean;
}

/** controllerutil.AlreadyOwnedError */
export class AlreadyOwnedError extends Error {
  override readonly name = 'AlreadyOwnedError';
  constructor(
    readonly object: KubeObject,
    readonly owner: OwnerReference,
  ) {
    super(
      `Object ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''} is already owned by another ${owner.kind} controller ${owner.name}`,
    );
  }
}

function ownerGVK(owner: KubeObject, opts: OwnerRefOptions): GroupVersionKind {
  const gvk = opts.ownerGVK ?? gvkOfObject(owner);
  if (!gvk) throw new Error(`no kind is registered for the type of owner ${owner.metadata.name ?? ''}`);
  return gvk;
}

function validateOwner(owner: KubeObject, obj: KubeObject): void {
  const ownerNs = owner.metadata.namespace ?? '';
  if (!ownerNs) return;
  const objNs = obj.metadata.namespace ?? '';
  if (!objNs) {
    throw new Error(`cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`);
  }
  if (ownerNs !== objNs) {
    throw new Error(
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs}`,
    );
  }
}

const groupOf = (apiVersion: string): string => {
  try {
    return parseGroupVersion(apiVersion).group;
  } catch {
    return apiVersion;
  }
};

/** Same object: same group (version ignored), kind and name. */
function referSameObject(a: OwnerReference, b: OwnerReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

function upsert(obj: KubeObject, ref: OwnerReference): void {
  const refs = [...(obj.metadata.ownerReferences ?? [])];
  const i = refs.findIndex((r) => referSameObject(r, ref));
  if (i >= 0) refs[i] = ref;
  else refs.push(ref);
  obj.metadata.ownerReferences = refs;
}

function refFor(owner: KubeObject, opts: OwnerRefOptions): OwnerReference {
  const gvk = ownerGVK(owner, opts);
  return {
    apiVersion: apiVersionOf(gvk),
    kind: gvk.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
  };
}

/** SetControllerReference: owner becomes obj's managing controller (mutates obj). */
export function setControllerReference(owner: KubeObject, obj: KubeObject, opts: OwnerRefOptions = {}): void {
  const ref: OwnerReference = {
    ...refFor(owner, opts),
    blockOwnerDeletion: opts.blockOwnerDeletion ?? true,
    controller: true,
  };
  validateOwner(owner, obj);
  const existing = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (existing && !referSameObject(existing, ref)) throw new AlreadyOwnedError(obj, existing);
  upsert(obj, ref);
}

/** SetOwnerReference: a plain (non-controller) owner reference (mutates obj). */
export function setOwnerReference(owner: KubeObject, obj: KubeObject, opts: OwnerRefOptions = {}): void {
  const ref = refFor(owner, opts);
  validateOwner(owner, obj);
  upsert(obj, ref);
}

const objName = (obj: KubeObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

/** RemoveOwnerReference */
export function removeOwnerReference(owner: KubeObject, obj: KubeObject, opts: OwnerRefOptions = {}): void {
  const refs = obj.metadata.ownerReferences ?? [];
  if (refs.length === 0) throw new Error(`${objName(obj)} does not have any owner references`);
  const ref = refFor(owner, opts);
  const kept = refs.filter((r) => !referSameObject(r, ref));
  if (kept.length === refs.length) {
    throw new Error(`${objName(obj)} does not have an owner reference for ${ref.kind} ${ref.name}`);
  }
  obj.metadata.ownerReferences = kept;
}

/** HasOwnerReference: whether refs name owner (group/kind/name). */
export function hasOwnerReference(
  refs: OwnerReference[] | undefined,
  owner: KubeObject,
  opts: OwnerRefOptions = {},
): boolean {
  const ref = refFor(owner, opts);
  return (refs ?? []).some((r) => referSameObject(r, ref));
}

/** HasControllerReference: whether obj has any controller reference. */
export function hasControllerReference(obj: KubeObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some((r) => r.controller === true);
}

/** RemoveControllerReference: removes owner's reference, which must be the controller one. */
export function removeControllerReference(owner: KubeObject, obj: KubeObject, opts: OwnerRefOptions = {}): void {
  const ctrl = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ctrl) throw new Error(`${objName(obj)} does not have a owner reference with controller equals true`);
  const ref = refFor(owner, opts);
  if (!referSameObject(ctrl, ref)) {
    throw new Error(`${ref.kind} ${ref.name} owner is not the controller reference for ${objName(obj)}`);
  }
  removeOwnerReference(owner, obj, opts);
}

export type OperationResult = 'unchanged' | 'created' | 'updated';

/** Deterministic JSON for semantic comparison (key order ignored). */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : val,
  );
}

/**
 * CreateOrUpdate: get obj by key; absent → mutate + create; present → mutate and update only when the
 * mutation changed something. `obj` is filled with the server's copy.
 */
export async function createOrUpdate<T extends KubeObject>(
  client: Pick<Client, 'get' | 'create' | 'update'>,
  obj: T,
  mutate: (obj: T) => void | Promise<void>,
): Promise<OperationResult> {
  const key = { namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' };
  const type = { apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' };
  let current: T;
  try {
    current = await client.get<T>(type, key);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await mutateChecked(obj, key, mutate);
    Object.assign(obj, await client.create(obj));
    return 'created';
  }
  for (const k of Object.keys(obj)) delete (obj as Record<string, unknown>)[k];
  Object.assign(obj, current);
  const before = canonical(obj);
  await mutateChecked(obj, key, mutate);
  if (canonical(obj) === before) return 'unchanged';
  Object.assign(obj, await client.update(obj));
  return 'updated';
}

async function mutateChecked<T extends KubeObject>(
  obj: T,
  key: { namespace?: string; name: string },
  mutate: (obj: T) => void | Promise<void>,
): Promise<void> {
  await mutate(obj);
  if ((obj.metadata.namespace ?? undefined) !== (key.namespace ?? undefined) || obj.metadata.name !== key.name) {
    throw new Error('MutateFn cannot mutate object name and/or object namespace');
  }
}

/** AddFinalizer: true when added (no duplicates). */
export function addFinalizer(obj: KubeObject, finalizer: string): boolean {
  const f = obj.metadata.finalizers ?? [];
  if (f.includes(finalizer)) return false;
  obj.metadata.finalizers = [...f, finalizer];
  return true;
}

/** RemoveFinalizer: removes every occurrence; true when something was removed. */
export function removeFinalizer(obj: KubeObject, finalizer: string): boolean {
  const f = obj.metadata.finalizers ?? [];
  const kept = f.filter((x) => x !== finalizer);
  if (kept.length === f.length) return false;
  obj.metadata.finalizers = kept;
  return true;
}

export function containsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}
