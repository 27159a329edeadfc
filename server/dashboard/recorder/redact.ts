// Secrets never leave the process: every object the dashboard hands out (inspect, /api/objects, version
// diffs, recordings) goes through redactObject first. Keys stay visible (they help debugging); values go,
// including the copy kubectl keeps in the last-applied-configuration annotation.
import type { KubeObject } from '../../../shared/models/object';

export const REDACTED = '<redacted>';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export function isSecret(obj: KubeObject): boolean {
  return obj.kind === 'Secret' && (obj.apiVersion === 'v1' || obj.apiVersion === undefined);
}

function blank(values: unknown): Record<string, string> | undefined {
  if (!values || typeof values !== 'object') return undefined;
  return Object.fromEntries(Object.keys(values).map((k) => [k, REDACTED]));
}

/** A copy with Secret values removed; other kinds come back unchanged (same reference). */
export function redactObject<T extends KubeObject>(obj: T): T {
  if (!isSecret(obj)) return obj;
  const out: KubeObject = { ...obj, metadata: { ...obj.metadata } };
  if ('data' in obj) out.data = blank(obj.data);
  if ('stringData' in obj) out.stringData = blank(obj.stringData);
  const ann = obj.metadata.annotations;
  if (ann && LAST_APPLIED in ann) out.metadata.annotations = { ...ann, [LAST_APPLIED]: REDACTED };
  // managedFields list field names only, but drop them anyway: nothing about a Secret's values belongs here.
  delete out.metadata.managedFields;
  return out as T;
}
