// Subscriptions narrow what one client receives: by controller, object kind, namespace or key. The same
// functions decide on the server (what to send) and in the browser (what a snapshot should contain).
//
// Semantics: an absent or empty list matches everything. Events that do not carry the filtered attribute
// pass that filter (a reflector's 410 has no namespace; it stays visible when filtering by namespace).
// Aggregates a client computes (counts, rates) cover only what its subscription lets through.
import type { StampedEvent } from './events';
import type { ObjectRef } from './ids';
import type { ControllerView, InformerView, RuntimeView } from './view';
import { dict, dictOf, lookup } from './records';

export interface Subscription {
  controllers?: string[];
  /** Object kinds: "Pod", or a gvk / informer id such as "v1/Pod" or "apps/v1/Deployment". */
  kinds?: string[];
  namespaces?: string[];
  /** Queue / store keys, "namespace/name". */
  keys?: string[];
}

export const SUBSCRIBE_ALL: Subscription = Object.freeze({});

export function isSubscribeAll(sub: Subscription): boolean {
  return !sub.controllers?.length && !sub.kinds?.length && !sub.namespaces?.length && !sub.keys?.length;
}

function listed(list: string[] | undefined, value: string | undefined): boolean {
  return !list?.length || value === undefined || list.includes(value);
}

/** "v1/Pod" and "apps/v1/Deployment" match "Pod"/"Deployment" and themselves. */
export function kindMatches(kinds: string[] | undefined, gvkOrInformer: string | undefined): boolean {
  if (!kinds?.length || gvkOrInformer === undefined) return true;
  const kind = gvkOrInformer.slice(gvkOrInformer.lastIndexOf('/') + 1);
  return kinds.some((k) => k === gvkOrInformer || k === kind);
}

function namespaceOfKey(key: string): string | undefined {
  const i = key.indexOf('/');
  return i < 0 ? undefined : key.slice(0, i);
}

export function matchesEvent(ev: StampedEvent, sub: Subscription): boolean {
  if (isSubscribeAll(sub)) return true;
  const e = ev as Partial<{
    informer: string;
    controller: string;
    queue: string;
    key: string;
    ref: ObjectRef;
    keys: string[];
  }>;
  const controller = e.controller ?? e.queue;
  if (!listed(sub.controllers, controller)) return false;
  if (!kindMatches(sub.kinds, e.informer ?? e.ref?.gvk)) return false;
  const ns = e.ref?.namespace ?? (e.key !== undefined ? namespaceOfKey(e.key) : undefined);
  if (!listed(sub.namespaces, ns)) return false;
  if (sub.keys?.length && e.key !== undefined && !sub.keys.includes(e.key)) return false;
  return true;
}

function keyMatches(sub: Subscription, key: string): boolean {
  if (sub.keys?.length && !sub.keys.includes(key)) return false;
  return listed(sub.namespaces, namespaceOfKey(key));
}

/** The part of a view a subscription covers (unchanged parts keep their identity). */
export function filterView(view: RuntimeView, sub: Subscription): RuntimeView {
  if (isSubscribeAll(sub)) return view;
  const informers = dict<InformerView>();
  for (const [id, inf] of Object.entries(view.informers)) {
    if (!kindMatches(sub.kinds, id)) continue;
    const narrow = sub.namespaces?.length || sub.keys?.length;
    informers[id] = narrow
      ? { ...inf, pending: dictOf(Object.entries(inf.pending).filter(([k]) => keyMatches(sub, k))) }
      : inf;
  }
  const controllers = dict<ControllerView>();
  for (const [name, c] of Object.entries(view.controllers)) {
    if (!listed(sub.controllers, name)) continue;
    if (!sub.namespaces?.length && !sub.keys?.length) {
      controllers[name] = c;
      continue;
    }
    const keys = dictOf(Object.entries(c.keys).filter(([k]) => keyMatches(sub, k)));
    controllers[name] = {
      ...c,
      keys,
      keyCount: Object.keys(keys).length,
      hotLoops: c.hotLoops.filter((h) => lookup(keys, h.key)),
    };
  }
  return {
    ...view,
    informers,
    controllers,
    log: view.log.filter((ev) => matchesEvent(ev, sub)),
    notable: view.notable.filter(
      (n) =>
        listed(sub.controllers, n.controller) &&
        kindMatches(sub.kinds, n.informer) &&
        (n.key === undefined || keyMatches(sub, n.key)),
    ),
  };
}
