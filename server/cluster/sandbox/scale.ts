// The scale subresource: apiserver's ScaleREST for Deployments/ReplicaSets
// (kubernetes pkg/registry/apps/deployment/storage) and apiextensions' scale for custom resources.
import type { KubeObject } from '../../../shared/models/object';
import { readJsonPath } from './crds';
import type { ResourceType, ScaleSubresource } from './resources';
import { invalid, newInvalid, newStaleConflict } from './status-errors';
import { isObject, type JsonObject } from './util';

function selectorString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return '';
  const parts: string[] = [];
  for (const [k, val] of Object.entries((v.matchLabels as Record<string, string>) ?? {})) parts.push(`${k}=${val}`);
  for (const e of (v.matchExpressions as { key: string; operator: string; values?: string[] }[]) ?? []) {
    const op = e.operator.toLowerCase();
    if (op === 'exists') parts.push(e.key);
    else if (op === 'doesnotexist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${op} (${(e.values ?? []).join(',')})`);
  }
  return parts.join(',');
}

export function toScale(type: ResourceType, obj: KubeObject): KubeObject {
  const s = type.scale as ScaleSubresource;
  const selector = type.crdName
    ? s.labelSelectorPath
      ? readJsonPath(obj, s.labelSelectorPath)
      : undefined
    : (obj.spec as JsonObject | undefined)?.selector;
  const status: JsonObject = { replicas: Number(readJsonPath(obj, s.statusReplicasPath) ?? 0) };
  const sel = selectorString(selector);
  if (sel) status.selector = sel;
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: Number(readJsonPath(obj, s.specReplicasPath) ?? 0) },
    status,
  };
}

/** Applies a Scale body to the object it scales (returns the new object to store). */
export function applyScale(type: ResourceType, stored: KubeObject, scale: unknown): KubeObject {
  const name = stored.metadata.name ?? '';
  const sc = isObject(scale) ? scale : {};
  const meta = isObject(sc.metadata) ? sc.metadata : {};
  if (
    typeof meta.resourceVersion === 'string' &&
    meta.resourceVersion &&
    meta.resourceVersion !== stored.metadata.resourceVersion
  ) {
    throw newStaleConflict({ group: type.group, resource: type.resource }, name);
  }
  const replicas = isObject(sc.spec) ? sc.spec.replicas : undefined;
  if (typeof replicas !== 'number' || replicas < 0 || !Number.isInteger(replicas)) {
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, [
      invalid('spec.replicas', replicas ?? null, 'must be greater than or equal to 0'),
    ]);
  }
  const next = structuredClone(stored);
  const parts = (type.scale as ScaleSubresource).specReplicasPath.replace(/^\./, '').split('.');
  let cur: JsonObject = next as unknown as JsonObject;
  for (const p of parts.slice(0, -1)) {
    if (!isObject(cur[p])) cur[p] = {};
    cur = cur[p] as JsonObject;
  }
  cur[parts[parts.length - 1] as string] = replicas;
  return next;
}
