// LIST: apiserver pkg/endpoints/handlers/get.go ListResource + pkg/storage/cacher/delegator (which
// resourceVersion semantics apply) + pkg/storage/etcd3 paging (key order, continue tokens, 410).
import type { KubeList, KubeObject } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { decodeContinue, encodeContinue, selectorMatcher, type ListOptions } from './list-options';
import { apiVersionOf, withTypeMeta, type ResourceType } from './resources';
import { newGone, newTooLargeResourceVersion, type StatusError } from './status-errors';

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** How long a request for a future resourceVersion waits for the store to catch up. */
export const TOO_LARGE_RV_WAIT_MS = 3000;

/** Resolves true once the store reaches `rv`, false after `ms`. */
export function waitForResourceVersion(ctx: SandboxContext, rv: number, ms = TOO_LARGE_RV_WAIT_MS): Promise<boolean> {
  if (ctx.storage.currentRv >= rv) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = ctx.clock.setTimer(() => {
      unsubscribe();
      resolve(ctx.storage.currentRv >= rv);
    }, ms);
    const unsubscribe = ctx.storage.subscribe(() => {
      if (ctx.storage.currentRv >= rv) {
        timer.cancel();
        unsubscribe();
        resolve(true);
      }
    });
  });
}

/** Lists without kind/apiVersion on built-in items, as kube-apiserver serializes them. */
export function presentItems(type: ResourceType, items: KubeObject[]): KubeObject[] {
  return items.map((o) => {
    if (type.listItemsTyped) return withTypeMeta(o, type);
    const { apiVersion: _a, kind: _k, ...rest } = withTypeMeta(o, type);
    return rest as KubeObject;
  });
}

/** LIST for the HTTP layer: the returned items share structure with storage and must only be serialized. */
export async function listObjects(
  ctx: SandboxContext,
  type: ResourceType,
  namespace: string | undefined,
  opts: ListOptions,
): Promise<KubeList> {
  const matcher = selectorMatcher(type, opts);
  const matches = opts.labelSelector.empty && opts.fieldSelector.empty ? () => true : matcher;
  const current = ctx.storage.currentRv;
  let snapshot = current;
  let exact = false;
  let start = '';
  let limit = opts.limit;
  if (opts.continue) {
    const token = decodeContinue(opts.continue);
    start = token.start;
    if (token.rv === -1) {
      snapshot = current;
    } else {
      snapshot = token.rv;
      exact = true;
      if (snapshot < ctx.storage.compactedRevision) {
        const err = newGone(CONTINUE_EXPIRED_MESSAGE);
        (err as StatusError & { continueToken?: string }).continueToken = encodeContinue(-1, start);
        throw err;
      }
    }
  } else if (opts.resourceVersion !== undefined) {
    const rv = Number(opts.resourceVersion);
    if (opts.resourceVersion === '0') {
      limit = undefined;
    } else if (opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && limit !== undefined)) {
      if (rv > current && !(await waitForResourceVersion(ctx, rv)))
        throw newTooLargeResourceVersion(opts.resourceVersion, String(ctx.storage.currentRv));
      snapshot = rv;
      exact = true;
    } else if (rv > current) {
      if (!(await waitForResourceVersion(ctx, rv)))
        throw newTooLargeResourceVersion(opts.resourceVersion, String(ctx.storage.currentRv));
      snapshot = ctx.storage.currentRv;
    } else {
      snapshot = current;
    }
  }
  if (!exact) snapshot = ctx.storage.currentRv;
  const listed = ctx.storage.list(grOf(type), {
    ...(type.namespaced && namespace ? { namespace } : {}),
    ...(exact ? { atRv: snapshot } : {}),
    readOnly: true,
  });
  const selected: { key: string; obj: KubeObject }[] = [];
  listed.items.forEach((obj, i) => {
    const key = listed.keys[i] as string;
    if (start && key < start) return;
    if (matches(withTypeMeta(obj, type))) selected.push({ key, obj });
  });
  const meta: KubeList['metadata'] = { resourceVersion: String(snapshot) };
  let page = selected;
  if (limit !== undefined && selected.length > limit) {
    page = selected.slice(0, limit);
    meta.continue = encodeContinue(snapshot, `${(page[page.length - 1] as { key: string }).key}\u0000`);
    if (opts.labelSelector.empty && opts.fieldSelector.empty) meta.remainingItemCount = selected.length - limit;
  }
  return {
    kind: type.listKind,
    apiVersion: apiVersionOf(type),
    metadata: meta,
    // No copies: the HTTP layer serializes the page straight away and never changes it.
    items: presentItems(
      type,
      page.map((p) => p.obj),
    ),
  };
}
