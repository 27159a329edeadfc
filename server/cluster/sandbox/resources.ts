// The sandbox's type registry: what kube-apiserver's installer (apiserver pkg/endpoints/installer.go)
// learns from each registry strategy — scope, verbs, names, subresources, generation and update rules.
import { apiVersionOf } from '../../runtime/client';
import type { KubeObject } from '../../../shared/models/object';
import type { SandboxContext } from './context';
import type { FieldError } from './status-errors';

/** How metadata.generation moves (the strategies' PrepareForCreate/PrepareForUpdate). */
export type GenerationPolicy = 'none' | 'spec' | 'specOrAnnotations' | 'nonMetadata';

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  /** JSONPath-like `.spec.x` (CRD additionalPrinterColumns) evaluated per row. */
  jsonPath?: string;
}

/** A subresource beyond status and scale (finalize, binding, eviction, token, approval). */
export interface SubresourceInfo {
  name: string;
  /** The kind its requests and answers carry, e.g. Eviction in policy/v1. */
  kind: string;
  group: string;
  version: string;
  verbs: string[];
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural resource name, e.g. `pods`. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  status: boolean;
  scale?: ScaleSubresource;
  /** Further subresources served, in discovery order. */
  subresources?: SubresourceInfo[];
  /**
   * Create-only resources that store nothing (reviews, bindings): computes the answer to a POST.
   * Returns undefined when the answer is a Success Status instead of an object.
   */
  virtualCreate?: (ctx: SandboxContext, namespace: string | undefined, body: KubeObject) => KubeObject | undefined;
  generation: GenerationPolicy;
  /** PUT without metadata.resourceVersion is accepted (false for CRs and CRDs). */
  allowUnconditionalUpdate: boolean;
  /** PUT of a missing object creates it (Lease-like kinds). */
  allowCreateOnUpdate: boolean;
  /** Strategic merge patch is served (built-ins only). */
  strategicMerge: boolean;
  /** Custom resources keep kind/apiVersion on list items. */
  listItemsTyped: boolean;
  /** DELETE returns the removed object instead of a Success Status. */
  returnsDeletedObject: boolean;
  /** Field selector labels beyond metadata.name/namespace, read from an object. */
  fieldLabels?: (obj: KubeObject) => Record<string, string>;
  /** Extra columns for Table output; the Name column is always first. */
  printerColumns?: PrinterColumn[];
  /** Name of the CRD that serves this type, for custom resources. */
  crdName?: string;
  /** Kind-specific defaults applied on create. */
  prepareForCreate?: (obj: KubeObject) => void;
  /** Applied on every write (CR pruning and schema defaults). */
  normalize?: (obj: KubeObject) => void;
  /** Kind-specific validation on every write (CR schemas); errors answer 422 Invalid. */
  validate?: (obj: KubeObject) => FieldError[];
  /** Group whose storage this type shares (events.k8s.io Events live with core Events). */
  storageGroup?: string;
  /** Stored form → this type's wire form, when the storage is shared with another form. */
  fromStorage?: (obj: KubeObject) => KubeObject;
  /** This type's wire form → stored form. */
  toStorage?: (obj: KubeObject) => KubeObject;
}

export { apiVersionOf };

export const STANDARD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type Listener = () => void;

/** Types served by the sandbox, in discovery order; CRDs add and remove entries at run time. */
export class ResourceRegistry {
  private readonly types: ResourceType[] = [];
  private readonly listeners = new Set<Listener>();
  /** Group priority order for /apis (core is separate). */
  private readonly groupOrder: string[] = [];

  add(t: ResourceType): void {
    this.remove(t.group, t.version, t.resource, false);
    this.types.push(t);
    if (t.group && !this.groupOrder.includes(t.group)) this.groupOrder.push(t.group);
    this.changed();
  }

  remove(group: string, version: string, resource: string, notify = true): boolean {
    const i = this.types.findIndex((t) => t.group === group && t.version === version && t.resource === resource);
    if (i < 0) return false;
    this.types.splice(i, 1);
    if (group && !this.types.some((t) => t.group === group)) this.groupOrder.splice(this.groupOrder.indexOf(group), 1);
    if (notify) this.changed();
    return true;
  }

  get(group: string, version: string, resource: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.version === version && t.resource === resource);
  }

  /** Any served version of group/resource (storage is keyed by group/resource). */
  getByGroupResource(group: string, resource: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.resource === resource);
  }

  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.types.find((t) => apiVersionOf(t) === apiVersion && t.kind === kind);
  }

  all(): readonly ResourceType[] {
    return this.types;
  }

  groups(): string[] {
    return [...this.groupOrder];
  }

  versionsOf(group: string): string[] {
    const vs: string[] = [];
    for (const t of this.types) if (t.group === group && !vs.includes(t.version)) vs.push(t.version);
    return vs;
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.types.filter((t) => t.group === group && t.version === version);
  }

  /** Fires after any change, so discovery caches and OpenAPI hashes can be recomputed. */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}

/**
 * An object as the endpoint serves it: the endpoint's apiVersion and kind (versions of a CRD share
 * storage) and, for types that share another type's storage, converted to their own field names.
 */
export function withTypeMeta<T extends KubeObject>(obj: T, t: ResourceType): T {
  const { apiVersion: _a, kind: _k, ...rest } = t.fromStorage ? t.fromStorage(obj) : obj;
  return { apiVersion: apiVersionOf(t), kind: t.kind, ...rest } as T;
}
