// An opt-in informer transform that makes equal string values of cached objects share one copy. V8 gives
// every string JSON.parse produces its own copy once it is longer than 10 characters (shorter ones come
// from a shared table), so the same image name, timestamp, toleration key or condition type is stored again
// in every object. Only values under field names that repeat across objects of a cluster are looked up;
// names, env values and other mostly-unique strings are left alone, so the table stays small and the walk
// cheap. The table is bounded: once full it only serves the values it holds.
import type { KubeObject } from '../../../shared/models/object';
import type { TransformFunc } from './interfaces';

/** Field names whose values repeat across objects (metadata, conditions, containers, tolerations, owners). */
export const INTERNED_FIELDS: readonly string[] = [
  'apiVersion',
  'kind',
  'namespace',
  'generateName',
  'creationTimestamp',
  'manager',
  'operation',
  'time',
  'fieldsType',
  'subresource',
  'type',
  'status',
  'reason',
  'lastTransitionTime',
  'lastProbeTime',
  'lastUpdateTime',
  'image',
  'imageID',
  'imagePullPolicy',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'mountPath',
  'protocol',
  'key',
  'operator',
  'effect',
  'nodeName',
  'hostIP',
  'schedulerName',
  'serviceAccountName',
  'restartPolicy',
  'dnsPolicy',
  'priorityClassName',
  'qosClass',
  'phase',
  'startTime',
  'startedAt',
  'finishedAt',
  'storageClassName',
];

/** V8 already shares string values of JSON.parse up to this length. */
const SHARED_BY_V8 = 10;
/** Longer values are rarely equal across objects; hashing them costs more than it saves. */
const MAX_INTERNED_LENGTH = 256;

export interface InternStringsOptions {
  /** Most distinct values held (default 50,000, about 3 MB at the longest values). */
  maxEntries?: number;
  /** Field names whose string values are interned (default INTERNED_FIELDS). */
  fields?: Iterable<string>;
}

/** The transform, and how many distinct values its table holds. */
export type InternStringsTransform = TransformFunc<KubeObject> & { heldValues(): number };

/**
 * A transform that replaces, in place, string values under `fields` by the one copy held for that value.
 * Objects are otherwise unchanged (strings are values: nothing can tell the copies apart); a frozen object
 * is returned untouched (objects fresh from a watch are never frozen). Chain it after transformStripManagedFields to leave managedFields out of the walk.
 */
export function transformInternStrings(options: InternStringsOptions = {}): InternStringsTransform {
  const maxEntries = options.maxEntries ?? 50_000;
  const fields = new Set(options.fields ?? INTERNED_FIELDS);
  const table = new Map<string, string>();

  const intern = (s: string): string => {
    const held = table.get(s);
    if (held !== undefined) return held;
    if (table.size < maxEntries) table.set(s, s);
    return s;
  };

  const walk = (v: object): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') walk(x);
      }
      return;
    }
    const rec = v as Record<string, unknown>;
    for (const k in rec) {
      const x = rec[k];
      if (typeof x === 'string') {
        // Always written back: equal strings compare equal, so there is no telling the copies apart here.
        if (x.length > SHARED_BY_V8 && x.length <= MAX_INTERNED_LENGTH && fields.has(k)) rec[k] = intern(x);
      } else if (x !== null && typeof x === 'object') {
        walk(x);
      }
    }
  };

  const transform = (obj: KubeObject): KubeObject => {
    if (obj === null || typeof obj !== 'object' || Object.isFrozen(obj)) return obj;
    try {
      walk(obj);
    } catch (err) {
      // A frozen part (a fixture, a shared constant) ends the walk; what was swapped is equal, so harmless.
      if (!(err instanceof TypeError)) throw err;
    }
    return obj;
  };
  return Object.assign(transform, { heldValues: () => table.size });
}
