// Objects every kube-apiserver creates at start (kubernetes pkg/controlplane/controller: system
// namespaces, the `default/kubernetes` Service; pkg/registry/scheduling and rbac bootstrap data), so that
// clients that look for them find them. RBAC is not enforced; only `cluster-admin` of the bootstrap
// roles is created, for operators that bind to it.
import type { KubeObject } from '../../../shared/models/object';
import type { SandboxContext } from './context';
import { createObject } from './create';
import { SYSTEM_NAMESPACES } from './namespaces';
import { grKey, objectKey } from './storage';

function seed(ctx: SandboxContext, group: string, version: string, resource: string, obj: KubeObject): void {
  const type = ctx.registry.get(group, version, resource);
  if (!type) return;
  const key = objectKey(type.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name ?? '');
  if (ctx.storage.get(grKey(group, resource), key)) return;
  createObject(ctx, type, obj.metadata.namespace, obj);
}

export function createSystemNamespaces(ctx: SandboxContext): void {
  for (const name of SYSTEM_NAMESPACES)
    seed(ctx, '', 'v1', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

export function createBootstrapObjects(ctx: SandboxContext): void {
  for (const [name, value] of [
    ['system-cluster-critical', 2000000000],
    ['system-node-critical', 2000001000],
  ] as const) {
    seed(ctx, 'scheduling.k8s.io', 'v1', 'priorityclasses', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value,
      description: 'Used for system critical pods that must not be moved from their current node.',
    });
  }
  seed(ctx, 'rbac.authorization.k8s.io', 'v1', 'clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: 'cluster-admin',
      labels: BOOTSTRAP_LABELS,
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  });
}

/** The `default/kubernetes` Service: the API server's own address (10.96.0.1:443 → its port). */
export function createKubernetesService(ctx: SandboxContext, port: number): void {
  seed(ctx, '', 'v1', 'services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }],
      sessionAffinity: 'None',
    },
  });
}
