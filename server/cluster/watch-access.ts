// Before the controllers start against a real cluster: list and watch checked for every kind any of them
// watches, not only Pods. Without this, one kind the service account may not read made every controller wait
// out its cache-sync timeout (2 minutes) and then fail with a message about the wrong kind.
import type { Manager } from '../runtime';
import { HttpClient } from '../runtime/client';
import { checkAccess, ClusterConnectError, type AccessResult } from './kubeconfig';

export interface WatchedKind {
  group: string;
  version: string;
  kind: string;
}

/** The distinct kinds the managers' controllers watch. */
export function watchedKinds(managers: readonly Manager[]): WatchedKind[] {
  const out = new Map<string, WatchedKind>();
  for (const m of managers) {
    for (const c of m.getControllers()) {
      for (const k of c.watchedKinds()) out.set(`${k.group}/${k.version}/${k.kind}`, k);
    }
  }
  return [...out.values()];
}

/**
 * Checks list and watch on every watched kind (in `namespace` for namespaced kinds when the cache is limited
 * to one), and throws a Forbidden ClusterConnectError naming each kind, its missing verbs and the RBAC rule
 * to grant. Kinds the server does not serve are left to the sources, which report them by name.
 */
export async function checkWatchedAccess(
  manager: Manager,
  kinds: readonly WatchedKind[],
  opts: { namespace?: string; signal?: AbortSignal } = {},
): Promise<AccessResult[]> {
  const mapper = manager.getRESTMapper();
  const config = manager.getConfig();
  if (!mapper || !config) return [];
  const http = new HttpClient({ config });
  try {
    const results: AccessResult[] = [];
    for (const gvk of kinds) {
      let gvr;
      let namespaced: boolean;
      try {
        gvr = await mapper.resourceForGVK(gvk);
        namespaced = await mapper.isGVKNamespaced(gvk);
      } catch {
        continue;
      }
      const ns = namespaced && opts.namespace ? { namespace: opts.namespace } : {};
      results.push(
        await checkAccess(http, gvr, ['list', 'watch'], {
          kind: gvk.kind,
          ...ns,
          ...(opts.signal ? { signal: opts.signal } : {}),
        }),
      );
    }
    const missing = results.filter((r) => r.missing.length > 0);
    if (missing.length > 0) throw new ClusterConnectError('Forbidden', missing.map((r) => r.message).join('\n'));
    return results;
  } finally {
    http.close();
  }
}
