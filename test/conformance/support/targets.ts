// Builds a ConformanceTarget from a kubeconfig file, the way a user of the runtime would connect:
// getConfig({ kubeconfig }) → newRestClient. The two servers differ only in how they compact history.
import { getConfig, newRestClient } from '../../../server/runtime/client';
import type { ConformanceTarget, TargetName } from './target';

export function connectTarget(
  name: TargetName,
  kubeconfigPath: string,
  compact: () => Promise<string>,
): ConformanceTarget {
  // env: {} so the developer's KUBECONFIG or in-cluster variables cannot redirect the suite.
  const config = getConfig({ kubeconfig: kubeconfigPath, env: {} });
  const client = newRestClient(config, { maxRetries: 0 });
  return { name, kubeconfigPath, config, http: client.http, client, compact };
}

/**
 * Compacts etcd at its current revision through its JSON gateway (the same Compact call kube-apiserver
 * makes every --etcd-compaction-interval). Returns the revision as a resourceVersion string.
 */
export async function compactEtcd(etcdUrl: string): Promise<string> {
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  // A range read of any key reports the store's current revision in its header.
  const range = await post('/v3/kv/range', { key: Buffer.from('/').toString('base64'), limit: 1 });
  const revision = String((range.header as { revision?: string } | undefined)?.revision ?? '');
  if (!/^\d+$/.test(revision)) throw new Error(`etcd reported no revision: ${JSON.stringify(range)}`);
  await post('/v3/kv/compaction', { revision, physical: true });
  return revision;
}
