// Type identity without a Go scheme: controller-runtime finds an object's GVK through runtime.Scheme;
// here a type is named by a GVK-ish descriptor instead ({group, version, kind}, "apps/v1/Deployment",
// "v1/Pod", or a bare well-known kind such as "Pod").
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import { gvkString } from '../../../shared/protocol/ids';
import { apiVersionOf, parseGroupVersion, WELL_KNOWN_KINDS } from '../client/gvk';

export { apiVersionOf, parseGroupVersion };

/** A type, named as a GVK, as an object names itself ({apiVersion, kind}), or as a string. */
export type KindDescriptor = GroupVersionKind | { apiVersion: string; kind: string } | string;

export interface GroupKind {
  group: string;
  kind: string;
}

/** Resolves a descriptor to a GVK; throws when a string cannot be understood. */
export function toGVK(desc: KindDescriptor): GroupVersionKind {
  if (typeof desc !== 'string') {
    if ('apiVersion' in desc) return { ...parseGroupVersion(desc.apiVersion), kind: desc.kind };
    return { group: desc.group, version: desc.version, kind: desc.kind };
  }
  const parts = desc.split('/');
  if (parts.length === 1) {
    const known = WELL_KNOWN_KINDS.find((k) => k.gvk.kind === desc)?.gvk;
    if (!known) throw new Error(`no kind is registered for the type ${desc}: name it as "group/version/Kind"`);
    return { ...known };
  }
  if (parts.length === 2) return { group: '', version: parts[0] ?? '', kind: parts[1] ?? '' };
  if (parts.length === 3) return { group: parts[0] ?? '', version: parts[1] ?? '', kind: parts[2] ?? '' };
  throw new Error(`unexpected kind descriptor: ${desc}`);
}

/** "apps/v1/Deployment" or "v1/Pod": the id probe events and informers use. */
export function gvkId(gvk: GroupVersionKind): string {
  return gvkString(gvk.group, gvk.version, gvk.kind);
}

/** GroupKind.String(): "Kind.group", or "Kind" for the core group. */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** The GVK an object says it has (apiVersion + kind), when it carries them. */
export function gvkOfObject(obj: KubeObject): GroupVersionKind | undefined {
  if (!obj.apiVersion || !obj.kind) return undefined;
  try {
    return { ...parseGroupVersion(obj.apiVersion), kind: obj.kind };
  } catch {
    return undefined;
  }
}

export function sameGVK(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}
