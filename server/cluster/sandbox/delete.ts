// DELETE and deletecollection: apiserver pkg/endpoints/handlers/delete.go, pkg/registry/rest/delete.go
// (BeforeDelete: preconditions, graceful deletion) and registry/generic/registry/store.go Delete
// (finalizers from the propagation policy, deletionTimestamp, removal when nothing holds the object).
import type { KubeList, KubeObject, KubeStatus } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { isCrdType } from './create';
import { CRD_CLEANUP_FINALIZER, markCrdTerminating } from './crds';
import { assertNamespaceDeletable, isNamespaceType, namespaceFinalizers } from './namespaces';
import { withTypeMeta, type ResourceType } from './resources';
import { objectKey } from './storage';
import {
  forbidden,
  newConflict,
  newNotFound,
  newOptionsInvalid,
  notSupported,
  newBadRequest,
  type FieldError,
} from './status-errors';
import { isObject, rfc3339 } from './util';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  /** Legacy flag; true means Orphan, false means Background (answered with 202 while pending). */
  orphanDependents?: boolean;
}

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** DeleteOptions from a JSON body, or from the query when the body is empty. */
export function parseDeleteOptions(body: unknown, q: URLSearchParams): DeleteOptions {
  const src: Record<string, unknown> = {};
  if (isObject(body)) {
    if (body.kind !== undefined && body.kind !== 'DeleteOptions')
      throw newBadRequest(`DeleteOptions expected, got ${String(body.kind)}`);
    Object.assign(src, body);
  } else {
    if (q.has('gracePeriodSeconds')) src.gracePeriodSeconds = Number(q.get('gracePeriodSeconds'));
    if (q.has('propagationPolicy')) src.propagationPolicy = q.get('propagationPolicy');
    if (q.has('orphanDependents')) src.orphanDependents = /^(1|t|true)$/i.test(q.get('orphanDependents') ?? '');
    if (q.has('dryRun')) src.dryRun = q.getAll('dryRun');
  }
  const opts: DeleteOptions = {};
  const errs: FieldError[] = [];
  if (src.gracePeriodSeconds !== undefined && src.gracePeriodSeconds !== null) {
    const g = Number(src.gracePeriodSeconds);
    if (!Number.isFinite(g)) throw newBadRequest(`invalid gracePeriodSeconds: ${String(src.gracePeriodSeconds)}`);
    opts.gracePeriodSeconds = g < 0 ? 1 : Math.floor(g);
  }
  if (src.propagationPolicy !== undefined && src.propagationPolicy !== null) {
    const p = String(src.propagationPolicy);
    if (p !== 'Orphan' && p !== 'Background' && p !== 'Foreground')
      errs.push(notSupported('propagationPolicy', p, ['Foreground', 'Background', 'Orphan', 'nil']));
    else opts.propagationPolicy = p;
  }
  if (typeof src.orphanDependents === 'boolean') {
    if (opts.propagationPolicy)
      errs.push(forbidden('orphanDependents', 'OrphanDependents and PropagationPolicy cannot be both set'));
    opts.orphanDependents = src.orphanDependents;
  }
  if (isObject(src.preconditions)) {
    const p = src.preconditions;
    opts.preconditions = {};
    if (typeof p.uid === 'string') opts.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') opts.preconditions.resourceVersion = p.resourceVersion;
  }
  if (src.dryRun !== undefined && src.dryRun !== null) {
    const d = Array.isArray(src.dryRun) ? (src.dryRun as unknown[]) : [src.dryRun];
    if (d.some((x) => x !== 'All')) errs.push(notSupported('dryRun', d, ['All']));
    else if (d.length) opts.dryRun = true;
  }
  if (errs.length) throw newOptionsInvalid('DeleteOptions', errs);
  return opts;
}

export interface DeleteResult {
  code: number;
  body: KubeObject | KubeStatus;
  /** True when the object is gone from storage. */
  removed: boolean;
}

function successStatus(type: ResourceType, obj: KubeObject): KubeStatus {
  const details: NonNullable<KubeStatus['details']> = {
    name: obj.metadata.name ?? '',
    kind: type.resource,
    uid: obj.metadata.uid ?? '',
  };
  if (type.group) details.group = type.group;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
}

/** The finalizers an object carries after the propagation policy is applied (store.go deletionFinalizersForGarbageCollection). */
function finalizersFor(existing: string[], opts: DeleteOptions): string[] {
  let policy = opts.propagationPolicy;
  if (!policy && opts.orphanDependents !== undefined) policy = opts.orphanDependents ? 'Orphan' : 'Background';
  const rest = existing.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  switch (policy) {
    case 'Orphan':
      return [...rest, ORPHAN_FINALIZER];
    case 'Foreground':
      return [...rest, FOREGROUND_FINALIZER];
    case 'Background':
      return rest;
    default:
      return existing;
  }
}

export function deleteObject(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  opts: DeleteOptions = {},
): DeleteResult {
  const gr = grOf(type);
  const key = objectKey(type.namespaced ? namespace : undefined, name);
  const stored = ctx.storage.get(gr, key);
  if (!stored) throw newNotFound({ group: type.group, resource: type.resource }, name);
  const m = stored.metadata;
  const pre = opts.preconditions;
  const kindRef = { group: type.group, resource: type.kind };
  if (pre?.uid && pre.uid !== m.uid) {
    throw newConflict(
      kindRef,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${m.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== m.resourceVersion) {
    throw newConflict(
      kindRef,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${m.resourceVersion}). The object might have been modified`,
    );
  }
  const now = ctx.clock.now();
  const keep = (obj: KubeObject): DeleteResult => {
    if (opts.dryRun) return { code: 200, body: withTypeMeta(obj, type), removed: false };
    const saved = ctx.storage.update(gr, key, obj);
    ctx.kickControllers();
    return { code: opts.orphanDependents === false ? 202 : 200, body: withTypeMeta(saved, type), removed: false };
  };

  if (isNamespaceType(type)) {
    assertNamespaceDeletable(name);
    if (m.deletionTimestamp) {
      // kube-apiserver 1.36 answers a repeated delete of a terminating namespace with it, unchanged.
      if (namespaceFinalizers(stored).length > 0) {
        return { code: 200, body: withTypeMeta(structuredClone(stored), type), removed: false };
      }
    } else {
      const next = structuredClone(stored);
      // The namespace registry sets only the timestamp (no deletionGracePeriodSeconds).
      next.metadata.deletionTimestamp = rfc3339(now);
      next.metadata.finalizers = finalizersFor(m.finalizers ?? [], opts);
      if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
      next.status = { ...(isObject(next.status) ? next.status : {}), phase: 'Terminating' };
      return keep(next);
    }
  }
  if (isCrdType(type) && !m.deletionTimestamp) {
    const next = structuredClone(stored);
    next.metadata.deletionTimestamp = rfc3339(now);
    next.metadata.deletionGracePeriodSeconds = 0;
    next.metadata.finalizers = [...new Set([...(m.finalizers ?? []), CRD_CLEANUP_FINALIZER])];
    markCrdTerminating(next, now);
    return keep(next);
  }

  // Graceful deletion (pods): grace from the request, else the pod's own, 0 when never scheduled or finished.
  let grace = 0;
  if (type.group === '' && type.resource === 'pods') {
    const spec = (stored.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = ((stored.status ?? {}) as { phase?: string }).phase;
    grace = opts.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') grace = 0;
  }
  const finalizers = finalizersFor(m.finalizers ?? [], opts);

  if (m.deletionTimestamp) {
    // Already being deleted: a shorter grace period or a changed propagation policy is all that can change.
    const current = m.deletionGracePeriodSeconds ?? 0;
    if (grace < current) {
      if (grace === 0 && finalizers.length === 0) return remove();
      const next = structuredClone(stored);
      next.metadata.deletionTimestamp = rfc3339(now + grace * 1000);
      next.metadata.deletionGracePeriodSeconds = grace;
      return keep(next);
    }
    if (!sameList(finalizers, m.finalizers ?? [])) {
      if (finalizers.length === 0 && current === 0) return remove();
      const next = structuredClone(stored);
      next.metadata.finalizers = finalizers;
      return keep(next);
    }
    return { code: 200, body: withTypeMeta(stored, type), removed: false };
  }

  if (finalizers.length === 0 && grace === 0) return remove();

  const next = structuredClone(stored);
  next.metadata.deletionTimestamp = rfc3339(now + grace * 1000);
  next.metadata.deletionGracePeriodSeconds = grace;
  if (finalizers.length) next.metadata.finalizers = finalizers;
  else delete next.metadata.finalizers;
  if (m.generation !== undefined && !m.deletionTimestamp) next.metadata.generation = m.generation + 1;
  return keep(next);

  function remove(): DeleteResult {
    if (opts.dryRun)
      return {
        code: 200,
        body: type.returnsDeletedObject
          ? withTypeMeta(stored as KubeObject, type)
          : successStatus(type, stored as KubeObject),
        removed: false,
      };
    const last = ctx.storage.delete(gr, key) as KubeObject;
    ctx.kickControllers();
    return {
      code: 200,
      body: type.returnsDeletedObject ? withTypeMeta(last, type) : successStatus(type, last),
      removed: true,
    };
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Deletes every object `matches` selects; answers a list of what was deleted (or is being deleted). */
export function deleteCollection(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  matches: (o: KubeObject) => boolean,
  opts: DeleteOptions,
): KubeList {
  const { items } = ctx.storage.list(grOf(type), type.namespaced && namespace ? { namespace } : {});
  const out: KubeObject[] = [];
  for (const o of items) {
    if (!matches(withTypeMeta(o, type))) continue;
    try {
      const r = deleteObject(ctx, type, o.metadata.namespace, o.metadata.name ?? '', opts);
      out.push(isObject(r.body) && r.body.kind === 'Status' ? withTypeMeta(o, type) : (r.body as KubeObject));
    } catch (e) {
      if ((e as { code?: number }).code === 404) continue;
      throw e;
    }
  }
  return {
    kind: type.listKind,
    apiVersion: type.group ? `${type.group}/${type.version}` : type.version,
    metadata: { resourceVersion: String(ctx.storage.currentRv) },
    items: type.listItemsTyped ? out : out.map(({ apiVersion: _a, kind: _k, ...rest }) => rest as KubeObject),
  };
}
