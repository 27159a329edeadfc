// The part of apimachinery's runtime.Scheme the cached client consults: which kinds a Go program would
// read as typed objects. client-go's scheme holds every built-in group; a user adds their own types with
// AddToScheme. Reads of anything else are Go's unstructured reads, which the cached client sends to the
// API server unless the cache is asked to cache unstructured objects (client.CacheOptions.Unstructured).
import type { GroupVersionKind } from '../../../shared/models/object';
import { gvkId, toGVK, type KindDescriptor } from './gvk';

/** Built-in API groups (client-go's scheme): the core group, the undotted ones, and *.k8s.io. */
export function isBuiltInGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

export class Scheme {
  private readonly known = new Set<string>();

  constructor(kinds: KindDescriptor[] = []) {
    this.addKnownTypes(...kinds);
  }

  /** scheme.AddKnownTypes: the user's own types (CRDs), read as typed objects. */
  addKnownTypes(...kinds: KindDescriptor[]): void {
    for (const k of kinds) this.known.add(gvkId(toGVK(k)));
  }

  /** scheme.Recognizes: a built-in kind, or one added. */
  recognizes(gvk: GroupVersionKind): boolean {
    return isBuiltInGroup(gvk.group) || this.known.has(gvkId(gvk));
  }
}

/** runtime.NewScheme with client-go's built-ins (clientgoscheme.AddToScheme) and the given kinds. */
export function newScheme(...kinds: KindDescriptor[]): Scheme {
  return new Scheme(kinds);
}
