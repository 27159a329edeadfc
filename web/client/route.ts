// Where the user is: the panel and the informer/controller/key in focus, kept in the URL hash so a view can
// be shared, reloaded and driven by the end-to-end test ("#/workqueue?controller=flaky&key=default/web-3").
import { useSyncExternalStore } from 'react';

import { isPanelId, type PanelId } from '../panels/registry';

export type { PanelId } from '../panels/registry';

export interface Route {
  panel: PanelId;
  informer?: string;
  controller?: string;
  key?: string;
}

export function parseRoute(hash: string): Route {
  const h = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = h.split('?', 2);
  const panel: PanelId = isPanelId(path) ? path : 'overview';
  const params = new URLSearchParams(query);
  const r: Route = { panel };
  for (const f of ['informer', 'controller', 'key'] as const) {
    const v = params.get(f);
    if (v) r[f] = v;
  }
  return r;
}

export function formatRoute(r: Route): string {
  const params = new URLSearchParams();
  for (const f of ['informer', 'controller', 'key'] as const) {
    const v = r[f];
    if (v) params.set(f, v);
  }
  const q = params.toString();
  return `#/${r.panel}${q ? `?${q}` : ''}`;
}

function currentHash(): string {
  return typeof window === 'undefined' ? '' : window.location.hash;
}

function subscribe(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

/** The current route; server rendering (tests) sees the overview unless given a hash. */
export function useRoute(serverHash = ''): Route {
  const hash = useSyncExternalStore(subscribe, currentHash, () => serverHash);
  return parseRoute(hash);
}

/**
 * The route after a navigation. Fields not given are kept (the focus follows the user), except a key when
 * the controller or informer changes: a key belongs to its controller's queue or its informer's cache, and
 * kept across a change it would show another object (or nothing) under the new one.
 */
export function nextRoute(cur: Route, to: Partial<Route> & { panel: PanelId }, keepFocus = true): Route {
  if (!keepFocus) return { ...to };
  const next: Route = { ...cur, ...to };
  const moved =
    (to.controller !== undefined && to.controller !== cur.controller) ||
    (to.informer !== undefined && to.informer !== cur.informer);
  if (moved && !('key' in to)) delete next.key;
  for (const f of ['informer', 'controller', 'key'] as const) if (next[f] === undefined) delete next[f];
  return next;
}

/** Goes to a panel, keeping the focus that still applies (see nextRoute). */
export function navigate(to: Partial<Route> & { panel: PanelId }, keepFocus = true): void {
  window.location.hash = formatRoute(nextRoute(parseRoute(currentHash()), to, keepFocus));
}
