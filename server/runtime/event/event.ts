// Ports controller-runtime pkg/event/event.go: what sources hand to predicates and event handlers.
import type { KubeObject } from '../../../shared/models/object';

/** Fields every event carries beside upstream's: the object's type as the source knows it. */
interface EventMeta {
  /** "apps/v1/Deployment": list items often lack apiVersion/kind, so the source stamps the type. */
  gvk?: string;
}

export interface CreateEvent<T extends KubeObject = KubeObject> extends EventMeta {
  object: T | undefined;
  /** true when the object came from the informer's initial list. */
  isInInitialList?: boolean;
}

export interface UpdateEvent<T extends KubeObject = KubeObject> extends EventMeta {
  objectOld: T | undefined;
  objectNew: T | undefined;
}

export interface DeleteEvent<T extends KubeObject = KubeObject> extends EventMeta {
  object: T | undefined;
  /** true when the delete was inferred from a relist (the object is the last known state). */
  deleteStateUnknown?: boolean;
}

export interface GenericEvent<T extends KubeObject = KubeObject> extends EventMeta {
  object: T | undefined;
}

export type EventType = 'create' | 'update' | 'delete' | 'generic';
