// Ports controller-runtime pkg/handler/enqueue_owner.go: EnqueueRequestForOwner — map an owned object's
// events to requests for its owner(s) of one type, matched on group and kind (version ignored).
import type { KubeObject, OwnerReference } from '../../../shared/models/object';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import { requestKey, type Request } from '../reconcile/reconcile';
import { parseGroupVersion, toGVK, type GroupKind, type KindDescriptor } from '../client/gvk';
import { enqueue, eventCause, lowPriorityFor, type EventHandler, type RequestQueue } from './eventhandler';
import { WELL_KNOWN_KINDS } from '../client/gvk';

/** Answers whether a kind is namespaced (the RESTMapper's scope); may look it up asynchronously. */
export type ScopeResolver = (gk: GroupKind) => boolean | Promise<boolean>;

/** Built-in kinds from the client's table; anything else is assumed namespaced. */
export const wellKnownScope: ScopeResolver = (gk) =>
  WELL_KNOWN_KINDS.find((k) => k.gvk.group === gk.group && k.gvk.kind === gk.kind)?.namespaced ?? true;

export interface EnqueueRequestForOwnerOptions {
  /** The owner's type; required (upstream panics for an unknown type). */
  ownerType: KindDescriptor;
  /** Only the owner reference with controller: true (handler.OnlyControllerOwner()). */
  onlyControllerOwner?: boolean;
  /** Scope lookup; default wellKnownScope. Answers are cached per handler. */
  isNamespaced?: ScopeResolver;
  /** Called for the per-event problems upstream logs (bad apiVersion, mapping failure). */
  onError?: (err: unknown) => void;
}

export function enqueueRequestForOwner(opts: EnqueueRequestForOwnerOptions): EventHandler {
  if (!opts || opts.ownerType === undefined || opts.ownerType === null) {
    throw new Error('EnqueueRequestForOwner requires an owner type');
  }
  const owner = toGVK(opts.ownerType);
  const ownerGK: GroupKind = { group: owner.group, kind: owner.kind };
  const resolve = opts.isNamespaced ?? wellKnownScope;
  let scope: boolean | Promise<boolean> | undefined;
  const scopeOnce = (): boolean | Promise<boolean> => {
    if (scope === undefined) {
      scope = resolve(ownerGK);
      if (scope instanceof Promise) {
        scope = scope.then(
          (v) => (scope = v),
          (err: unknown) => {
            scope = undefined; // retry the lookup on the next event
            throw err;
          },
        );
      }
    }
    return scope;
  };

  /**
   * The owner references of obj that name our owner type (all, or the controller one). As upstream, an
   * unparsable apiVersion is reported and ends this object's references: the matches before it stand, and
   * the other object of an update is still looked at.
   */
  function matchingRefs(obj: KubeObject): OwnerReference[] {
    let refs = obj.metadata.ownerReferences ?? [];
    if (opts.onlyControllerOwner) {
      const ctrl = refs.find((r) => r.controller === true);
      refs = ctrl ? [ctrl] : [];
    }
    const out: OwnerReference[] = [];
    for (const ref of refs) {
      let group: string;
      try {
        group = parseGroupVersion(ref.apiVersion).group;
      } catch (err) {
        opts.onError?.(err);
        break;
      }
      if (ref.kind === ownerGK.kind && group === ownerGK.group) out.push(ref);
    }
    return out;
  }

  function handle(
    q: RequestQueue,
    eventType: NonNullable<EnqueueCause['eventType']>,
    objs: (KubeObject | undefined)[],
    gvk: string | undefined,
    priority: number | undefined,
  ): void | Promise<void> {
    const work: { obj: KubeObject; refs: OwnerReference[] }[] = [];
    for (const obj of objs) {
      if (!obj) continue;
      work.push({ obj, refs: matchingRefs(obj) });
    }
    if (work.every((w) => w.refs.length === 0)) return;
    const add = (namespaced: boolean): void => {
      const seen = new Set<string>();
      const cause = eventCause('owner', eventType, objs, gvk);
      for (const { obj, refs } of work) {
        for (const ref of refs) {
          const req: Request = { namespace: namespaced ? (obj.metadata.namespace ?? '') : '', name: ref.name };
          const key = requestKey(req);
          if (seen.has(key)) continue;
          seen.add(key);
          enqueue(q, req, { ...cause, detail: `${ref.kind} ${ref.name}` }, priority);
        }
      }
    };
    let s: boolean | Promise<boolean>;
    try {
      s = scopeOnce();
    } catch (err) {
      opts.onError?.(err);
      return;
    }
    if (typeof s === 'boolean') return add(s);
    return s.then(add, (err: unknown) => opts.onError?.(err));
  }

  return {
    name: 'EnqueueRequestForOwner',
    create: (_ctx, e, q) => handle(q, 'create', [e.object], e.gvk, lowPriorityFor({ kind: 'create', ev: e })),
    update: (_ctx, e, q) =>
      handle(q, 'update', [e.objectOld, e.objectNew], e.gvk, lowPriorityFor({ kind: 'update', ev: e })),
    delete: (_ctx, e, q) => handle(q, 'delete', [e.object], e.gvk, undefined),
    generic: (_ctx, e, q) => handle(q, 'generic', [e.object], e.gvk, undefined),
  };
}
