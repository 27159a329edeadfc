// The informers' caches as a recording knows them: which keys each indexer held, at which resourceVersion,
// rebuilt from the recorded indexer events up to the replay's position. Recordings carry references, not
// object contents, so an object here is its identity and resourceVersion only, and says so.
import type { KubeObject } from '../../../shared/models/object';
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ObjectRef } from '../../../shared/protocol/ids';
import type { ObjectSource } from '../recorder/object-source';

export const RECORDED_NOTE_ANNOTATION = 'controller-scope.io/recorded';
const NOTE = 'a recording holds references only: this is the key and resourceVersion the cache held at this point';

export class RecordedObjects implements ObjectSource {
  /** informer → key → the last reference the indexer stored. */
  private readonly caches = new Map<string, Map<string, ObjectRef>>();

  /** Forgets everything and applies events from the start of the recording. */
  rebuild(events: readonly StampedEvent[]): void {
    this.caches.clear();
    this.apply(events);
  }

  apply(events: readonly StampedEvent[]): void {
    for (const ev of events) {
      if (ev.kind !== 'indexer.update') continue;
      let cache = this.caches.get(ev.informer);
      if (!cache) this.caches.set(ev.informer, (cache = new Map()));
      if (ev.op === 'delete') cache.delete(ev.key);
      else cache.set(ev.key, ev.ref);
    }
  }

  get(gvk: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const ref = this.caches.get(gvk)?.get(namespace ? `${namespace}/${name}` : name);
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
    return [...(this.caches.get(gvk)?.keys() ?? [])];
  }
}
