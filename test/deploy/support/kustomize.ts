// Just enough of kustomize to read deploy/: the kustomization's `resources` files in order, its `namespace`
// set on every namespaced object, and its `labels` added to metadata.labels (not to selectors). The deploy
// test compares this with `kubectl kustomize` when kubectl is installed, so the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import type { KubeObject } from '../../../server/runtime';

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);

interface Kustomization {
  namespace?: string;
  resources?: string[];
  labels?: { pairs?: Record<string, string>; includeSelectors?: boolean }[];
}

export function loadKustomization(dir: string): KubeObject[] {
  const k = (loadAllYaml(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization[])[0] ?? {};
  const labels = Object.assign({}, ...(k.labels ?? []).map((l) => l.pairs ?? {})) as Record<string, string>;
  if ((k.labels ?? []).some((l) => l.includeSelectors)) {
    throw new Error('loadKustomization does not apply labels to selectors; use includeSelectors: false');
  }
  const out: KubeObject[] = [];
  for (const file of k.resources ?? []) {
    for (const obj of loadAllYaml(readFileSync(join(dir, file), 'utf8')) as KubeObject[]) {
      if (!obj) continue;
      if (k.namespace && !CLUSTER_SCOPED.has(obj.kind ?? '')) obj.metadata.namespace = k.namespace;
      if (Object.keys(labels).length) obj.metadata.labels = { ...obj.metadata.labels, ...labels };
      out.push(obj);
    }
  }
  return out;
}
