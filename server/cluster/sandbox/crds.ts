// CustomResourceDefinitions: the CRD strategy and validation (apiextensions-apiserver
// pkg/registry/customresourcedefinition), the naming/establishing controllers collapsed into create,
// and how a CRD version becomes a served ResourceType (pkg/apiserver/customresource_handler.go).
import type { KubeObject } from '../../../shared/models/object';
import type { ResourceRegistry, ResourceType, PrinterColumn } from './resources';
import { invalid, newInvalid, notSupported, required, type FieldError } from './status-errors';
import { isObject, rfc3339, type JsonObject } from './util';
import { applyStructuralSchema, type Schema } from './schema';
import { validateAgainstSchema } from './schema-validation';

/** Verbs of every custom resource, in the order apiextensions-apiserver's discovery lists them. */
const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: {
    status?: JsonObject;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: {
    name: string;
    type: string;
    format?: string;
    description?: string;
    priority?: number;
    jsonPath: string;
  }[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdSpec {
  group?: string;
  scope?: string;
  names?: CrdNames;
  versions?: CrdVersion[];
}

export const crdSpec = (o: KubeObject): CrdSpec => (isObject(o.spec) ? (o.spec as CrdSpec) : {});

const CRD_GK = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' };

export function validateCrd(o: KubeObject): void {
  const spec = crdSpec(o);
  const errs: FieldError[] = [];
  const names = spec.names ?? {};
  if (!spec.group) errs.push(required('spec.group'));
  if (!names.plural) errs.push(required('spec.names.plural'));
  if (!names.kind) errs.push(required('spec.names.kind'));
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster')
    errs.push(notSupported('spec.scope', spec.scope ?? '', ['Cluster', 'Namespaced']));
  const versions = spec.versions ?? [];
  if (versions.length === 0)
    errs.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  else if (versions.filter((v) => v.storage).length !== 1)
    errs.push(
      invalid(
        'spec.versions',
        versions.filter((v) => v.storage).map((v) => v.name),
        'must have exactly one version marked as storage version',
      ),
    );
  if (names.plural && spec.group && o.metadata.name !== `${names.plural}.${spec.group}`) {
    errs.push(invalid('metadata.name', o.metadata.name ?? '', `must be spec.names.plural+"."+spec.group`));
  }
  if (errs.length) throw newInvalid(CRD_GK, o.metadata.name ?? '', errs);
}

/** Fills name defaults and the status the naming and establishing controllers would write. */
export function prepareCrd(o: KubeObject, now: number): void {
  const spec = crdSpec(o);
  const names = (spec.names ??= {});
  names.singular ||= (names.kind ?? '').toLowerCase();
  names.listKind ||= `${names.kind}List`;
  const t = rfc3339(now);
  const storage = (spec.versions ?? []).find((v) => v.storage)?.name;
  const prev = isObject(o.status) ? o.status : {};
  const prevStored = Array.isArray(prev.storedVersions) ? (prev.storedVersions as string[]) : [];
  const prevConds = Array.isArray(prev.conditions) ? (prev.conditions as JsonObject[]) : [];
  const keep = (c: JsonObject): JsonObject => prevConds.find((p) => p.type === c.type && p.status === c.status) ?? c;
  o.status = {
    conditions: [
      keep({
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: t,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      }),
      keep({
        type: 'Established',
        status: 'True',
        lastTransitionTime: t,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      }),
      ...prevConds.filter((c) => c.type !== 'NamesAccepted' && c.type !== 'Established'),
    ],
    acceptedNames: { ...names },
    storedVersions: storage && !prevStored.includes(storage) ? [...prevStored, storage] : prevStored,
  };
}

export function markCrdTerminating(o: KubeObject, now: number): void {
  const status = isObject(o.status) ? o.status : {};
  const conds = Array.isArray(status.conditions)
    ? (status.conditions as JsonObject[]).filter((c) => c.type !== 'Terminating')
    : [];
  conds.push({
    type: 'Terminating',
    status: 'True',
    lastTransitionTime: rfc3339(now),
    reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  });
  o.status = { ...status, conditions: conds };
}

function readPath(obj: unknown, jsonPath: string): unknown {
  let cur: unknown = obj;
  for (const part of jsonPath.replace(/^\./, '').split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

export { readPath as readJsonPath };

/** The ResourceTypes a CRD serves, one per served version. */
export function crdResourceTypes(crd: KubeObject): ResourceType[] {
  const spec = crdSpec(crd);
  const names = spec.names ?? {};
  const out: ResourceType[] = [];
  for (const v of spec.versions ?? []) {
    if (v.served === false) continue;
    const columns: PrinterColumn[] = (v.additionalPrinterColumns ?? []).map((c) => ({
      name: c.name,
      type: c.type,
      jsonPath: c.jsonPath,
      ...(c.format ? { format: c.format } : {}),
      ...(c.description ? { description: c.description } : {}),
      priority: c.priority ?? 0,
    }));
    if (!(v.additionalPrinterColumns ?? []).some((c) => c.name === 'Age'))
      columns.push({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 });
    const selectable = (v.selectableFields ?? []).map((f) => f.jsonPath);
    const schema = v.schema?.openAPIV3Schema;
    out.push({
      group: spec.group ?? '',
      version: v.name,
      resource: names.plural ?? '',
      singular: names.singular || (names.kind ?? '').toLowerCase(),
      kind: names.kind ?? '',
      listKind: names.listKind || `${names.kind}List`,
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: CUSTOM_RESOURCE_VERBS,
      status: v.subresources?.status !== undefined,
      ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      generation: 'nonMetadata',
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: false,
      strategicMerge: false,
      listItemsTyped: true,
      returnsDeletedObject: false,
      printerColumns: columns,
      crdName: crd.metadata.name ?? '',
      ...(selectable.length
        ? {
            fieldLabels: (o: KubeObject) => {
              const f: Record<string, string> = {};
              for (const p of selectable) {
                const val = readPath(o, p);
                f[p.replace(/^\./, '')] = val === undefined || val === null ? '' : String(val);
              }
              return f;
            },
          }
        : {}),
      ...(schema
        ? {
            normalize: (o: KubeObject) => applyStructuralSchema(o, schema),
            validate: (o: KubeObject) => validateAgainstSchema(o, schema),
          }
        : {}),
    });
  }
  return out;
}

/** Re-registers a CRD's versions; returns the group/resource it serves. */
export function syncCrdTypes(registry: ResourceRegistry, crd: KubeObject): void {
  const name = crd.metadata.name ?? '';
  for (const t of [...registry.all()]) if (t.crdName === name) registry.remove(t.group, t.version, t.resource, false);
  for (const t of crdResourceTypes(crd)) registry.add(t);
}

export function removeCrdTypes(registry: ResourceRegistry, crdName: string): void {
  const mine = registry.all().filter((t) => t.crdName === crdName);
  mine.forEach((t, i) => registry.remove(t.group, t.version, t.resource, i === mine.length - 1));
}
