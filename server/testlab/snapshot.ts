// The objects an end state is made of: every object of the given kinds, except what the cluster had before
// the run (system namespaces, the default Service) and still has unchanged.
import type { KubeObject } from '../../shared/models/object';
import type { SandboxStore } from '../cluster/sandbox';
import { apiVersionOf, toGVK } from '../runtime';

const SYSTEM_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

export function snapshot(store: SandboxStore, kinds: Iterable<string>, bootstrap: ReadonlySet<string>): KubeObject[] {
  const out: KubeObject[] = [];
  for (const kind of [...kinds].sort()) {
    let objects: KubeObject[];
    try {
      const gvk = toGVK(kind);
      objects = store.list({ apiVersion: apiVersionOf(gvk), kind: gvk.kind });
    } catch {
      continue;
    }
    for (const o of objects) {
      if (o.metadata.namespace && SYSTEM_NAMESPACES.has(o.metadata.namespace)) continue;
      if (bootstrap.has(`${o.metadata.uid ?? ''}@${o.metadata.resourceVersion ?? ''}`)) continue;
      out.push(o);
    }
  }
  return out;
}
