// Namespace rules of kube-apiserver: the namespace strategy (kubernetes pkg/registry/core/namespace),
// the NamespaceLifecycle admission plugin (apiserver pkg/admission/plugin/namespace/lifecycle) and the
// system namespaces the control plane creates at start.
import type { KubeObject } from '../../../shared/models/object';
import type { SandboxContext } from './context';
import type { ResourceType } from './resources';
import { grKey } from './storage';
import { newForbidden, newNotFound } from './status-errors';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
/** Namespaces whose deletion is refused (the lifecycle plugin's immortal set). */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
export const NAMESPACE_FINALIZER = 'kubernetes';
const NS_GR = grKey('', 'namespaces');

export function isNamespaceType(t: ResourceType): boolean {
  return t.group === '' && t.resource === 'namespaces';
}

/** Defaults a namespace gets on create. */
export function prepareNamespaceForCreate(o: KubeObject): void {
  const name = o.metadata.name ?? '';
  o.spec = { finalizers: [NAMESPACE_FINALIZER] };
  o.status = { phase: 'Active' };
  o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': name };
}

/** Keeps the label the server owns, whatever an update sends. */
export function prepareNamespaceForUpdate(next: KubeObject): void {
  next.metadata.labels = { ...(next.metadata.labels ?? {}), 'kubernetes.io/metadata.name': next.metadata.name ?? '' };
}

/** NamespaceLifecycle admission for creates of namespaced objects. */
export function admitCreateInNamespace(ctx: SandboxContext, type: ResourceType, namespace: string, name: string): void {
  const ns = ctx.storage.peek(NS_GR, namespace);
  if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, namespace);
  if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
    const err = newForbidden(
      { group: type.group, resource: type.resource },
      name,
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    );
    err.details!.causes = [
      {
        reason: 'NamespaceTerminating',
        message: `namespace ${namespace} is being terminated`,
        field: 'metadata.namespace',
      },
    ];
    throw err;
  }
}

export function assertNamespaceDeletable(name: string): void {
  if (IMMORTAL_NAMESPACES.includes(name)) {
    throw newForbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
  }
}

export function namespaceFinalizers(o: KubeObject): string[] {
  const spec = o.spec as { finalizers?: string[] } | undefined;
  return spec?.finalizers ?? [];
}
