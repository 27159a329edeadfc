// The informers' caches as a recording knows them: which keys each indexer held, at which resourceVersion,
// rebuilt from the nearest state record's caches and the indexer events after it up to the replay's position.
// Recordings carry references, not object contents, so an object here is its identity and resourceVersion
// only, and says so.
import type { KubeObject } from '../../../shared/models/object';
import type { StampedEvent } from '../../../shared/protocol/events';
import { CacheRefs } from '../recorder/cache-refs';
import type { ObjectSource } from '../recorder/object-source';

export const RECORDED_NOTE_ANNOTATION = 'controller-scope.io/recorded';
const NOTE = 'a recording holds references only: this is the key and resourceVersion the cache held at this point';

export class RecordedObjects implements ObjectSource {
  private caches = new CacheRefs();

  /** Forgets everything and applies events from a state record's caches (or from nothing). */
  rebuild(events: readonly StampedEvent[], start?: CacheRefs): void {
    this.caches = start ? start.snapshot() : new CacheRefs();
    this.apply(events);
  }

  apply(events: readonly StampedEvent[]): void {
    this.caches.apply(events);
  }

  get(gvk: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const ref = this.caches.get(gvk, namespace ? `${namespace}/${name}` : name);
    if (!ref) return undefined;
    const slash = gvk.lastIndexOf('/');
    return {
      apiVersion: gvk.slice(0, slash),
      kind: gvk.slice(slash + 1),
      metadata: {
        name: ref.name,
        ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
        ...(ref.uid !== undefined ? { uid: ref.uid } : {}),
        ...(ref.resourceVersion !== undefined ? { resourceVersion: ref.resourceVersion } : {}),
        annotations: { [RECORDED_NOTE_ANNOTATION]: NOTE },
      },
    };
  }

  keys(gvk: string): string[] {
    return this.caches.keys(gvk);
  }
}
