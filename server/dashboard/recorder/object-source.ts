// Where the recorder reads an object's current cached copy. The composition root implements it over the
// informers' indexers, so the dashboard shows what the controller's own cache holds, not the API server's view.
import type { KubeObject } from '../../../shared/models/object';

export interface ObjectSource {
  /** gvk as in ObjectRef ("v1/Pod", "apps/v1/Deployment"); namespace undefined for cluster-scoped objects. */
  get(gvk: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Keys ("namespace/name") the informer for gvk holds now; absent when the source cannot list. */
  keys?(gvk: string): string[];
  /** Secondary index name → number of distinct index values, for the cache browser. */
  indexes?(gvk: string): Record<string, number>;
}

export const EMPTY_OBJECT_SOURCE: ObjectSource = Object.freeze({ get: () => undefined });
