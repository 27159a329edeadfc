// pods/binding: kubernetes pkg/registry/core/pod/storage/storage.go BindingREST — what a scheduler
// posts to place a pod: sets spec.nodeName once and records the PodScheduled condition.
import type { KubeObject } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import type { ResourceType } from './resources';
import { objectKey } from './storage';
import { newBadRequest, newConflict, newNotFound, required, newInvalid } from './status-errors';
import { isObject, rfc3339 } from './util';

export function bindPod(
  ctx: SandboxContext,
  pods: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
): KubeObject {
  if (!isObject(body)) throw newBadRequest('the body of the request must be a Binding');
  const target = isObject(body.target) ? body.target : {};
  const node = typeof target.name === 'string' ? target.name : '';
  if (!node) throw newInvalid({ group: '', kind: 'Binding' }, name, [required('target.name')]);
  const meta = isObject(body.metadata) ? body.metadata : {};
  if (typeof meta.name === 'string' && meta.name && meta.name !== name) {
    throw newBadRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
  }
  const stored = ctx.storage.get(grOf(pods), objectKey(namespace, name));
  if (!stored) throw newNotFound({ group: '', resource: 'pods' }, name);
  const spec = (isObject(stored.spec) ? stored.spec : {}) as { nodeName?: string };
  if (stored.metadata.deletionTimestamp)
    throw newConflict({ group: '', resource: 'pods' }, name, 'pod is being deleted, cannot be assigned to a host');
  if (spec.nodeName)
    throw newConflict(
      { group: '', resource: 'pods' },
      name,
      `pod ${name} is already assigned to node "${spec.nodeName}"`,
    );
  const next = structuredClone(stored);
  next.spec = { ...spec, nodeName: node };
  const status = (isObject(next.status) ? next.status : {}) as { conditions?: Record<string, unknown>[] };
  const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
  conditions.push({
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: rfc3339(ctx.clock.now()),
  });
  next.status = { ...status, conditions };
  // One storage write for host and condition, as upstream's GuaranteedUpdate (no strategy, no generation bump).
  const saved = ctx.storage.update(grOf(pods), objectKey(namespace, name), next);
  ctx.kickControllers();
  return saved;
}
