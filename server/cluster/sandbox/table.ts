// Server-side printing: apiserver pkg/registry/rest/table.go (default Name/Created At table), the
// kubernetes pkg/printers/internalversion printers for a few built-ins, and CRD additionalPrinterColumns.
import type { KubeObject } from '../../../shared/models/object';
import { readJsonPath } from './crds';
import type { PrinterColumn, ResourceType } from './resources';
import { newBadRequest } from './status-errors';
import { moreColumns } from './table-printers';
import { humanDuration, isObject } from './util';

export type IncludeObject = 'Metadata' | 'Object' | 'None';

export function parseIncludeObject(v: string | null): IncludeObject {
  if (v === null || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'Object' || v === 'None') return v;
  throw newBadRequest(`unsupported includeObject value: ${v}`);
}

export interface Column extends PrinterColumn {
  cell: (o: KubeObject, now: number) => unknown;
}

const age = (o: KubeObject, now: number): string => {
  const t = o.metadata.creationTimestamp ? Date.parse(o.metadata.creationTimestamp) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
};
export const name: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
  priority: 0,
  cell: (o) => o.metadata.name ?? '',
};
export const ageCol: Column = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: age,
};
const rec = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);

function podColumns(): Column[] {
  const statuses = (o: KubeObject): Record<string, unknown>[] => arr(rec(o.status).containerStatuses);
  return [
    name,
    {
      name: 'Ready',
      type: 'string',
      priority: 0,
      cell: (o) => `${statuses(o).filter((s) => s.ready === true).length}/${arr(rec(o.spec).containers).length}`,
    },
    {
      name: 'Status',
      type: 'string',
      priority: 0,
      cell: (o) =>
        o.metadata.deletionTimestamp ? 'Terminating' : String(rec(o.status).reason ?? rec(o.status).phase ?? ''),
    },
    {
      name: 'Restarts',
      type: 'string',
      priority: 0,
      cell: (o) => String(statuses(o).reduce((n, s) => n + Number(s.restartCount ?? 0), 0)),
    },
    ageCol,
    { name: 'IP', type: 'string', priority: 1, cell: (o) => String(rec(o.status).podIP ?? '<none>') },
    { name: 'Node', type: 'string', priority: 1, cell: (o) => String(rec(o.spec).nodeName ?? '<none>') },
    {
      name: 'Nominated Node',
      type: 'string',
      priority: 1,
      cell: (o) => String(rec(o.status).nominatedNodeName ?? '<none>'),
    },
    { name: 'Readiness Gates', type: 'string', priority: 1, cell: () => '<none>' },
  ];
}

function eventColumns(): Column[] {
  const lastSeen = (o: KubeObject, now: number): string => {
    const t = String(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp ?? '');
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? '<unknown>' : humanDuration(now - ms);
  };
  const io = (o: KubeObject): Record<string, unknown> => rec(o.involvedObject);
  return [
    { name: 'Last Seen', type: 'string', priority: 0, cell: lastSeen },
    { name: 'Type', type: 'string', priority: 0, cell: (o) => String(o.type ?? '') },
    { name: 'Reason', type: 'string', priority: 0, cell: (o) => String(o.reason ?? '') },
    {
      name: 'Object',
      type: 'string',
      priority: 0,
      cell: (o) => `${String(io(o).kind ?? '').toLowerCase()}/${String(io(o).name ?? '')}`,
    },
    { name: 'Message', type: 'string', priority: 0, cell: (o) => String(o.message ?? '') },
    { ...name, priority: 1 },
  ];
}

function workloadColumns(kind: 'Deployment' | 'ReplicaSet'): Column[] {
  const s = (o: KubeObject): Record<string, unknown> => rec(o.status);
  const desired = (o: KubeObject): number => Number(rec(o.spec).replicas ?? 0);
  if (kind === 'Deployment') {
    return [
      name,
      { name: 'Ready', type: 'string', priority: 0, cell: (o) => `${Number(s(o).readyReplicas ?? 0)}/${desired(o)}` },
      { name: 'Up-to-date', type: 'integer', priority: 0, cell: (o) => Number(s(o).updatedReplicas ?? 0) },
      { name: 'Available', type: 'integer', priority: 0, cell: (o) => Number(s(o).availableReplicas ?? 0) },
      ageCol,
    ];
  }
  return [
    name,
    { name: 'Desired', type: 'integer', priority: 0, cell: desired },
    { name: 'Current', type: 'integer', priority: 0, cell: (o) => Number(s(o).replicas ?? 0) },
    { name: 'Ready', type: 'integer', priority: 0, cell: (o) => Number(s(o).readyReplicas ?? 0) },
    ageCol,
  ];
}

function columnsFor(type: ResourceType): Column[] {
  if (type.printerColumns) {
    return [
      name,
      ...type.printerColumns.map((c) => ({
        ...c,
        cell: (o: KubeObject, now: number) => {
          const v = readJsonPath(o, c.jsonPath ?? '');
          if (c.type === 'date') return typeof v === 'string' ? humanDuration(now - Date.parse(v)) : '<unknown>';
          return v ?? null;
        },
      })),
    ];
  }
  if (type.group === '') {
    switch (type.resource) {
      case 'pods':
        return podColumns();
      case 'namespaces':
        return [
          name,
          { name: 'Status', type: 'string', priority: 0, cell: (o) => String(rec(o.status).phase ?? '') },
          ageCol,
        ];
      case 'configmaps':
        return [
          name,
          {
            name: 'Data',
            type: 'integer',
            priority: 0,
            cell: (o) => Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length,
          },
          ageCol,
        ];
      case 'events':
        return eventColumns();
      case 'nodes':
        return [
          name,
          {
            name: 'Status',
            type: 'string',
            priority: 0,
            cell: (o) =>
              arr(rec(o.status).conditions).some((c) => c.type === 'Ready' && c.status === 'True')
                ? 'Ready'
                : 'NotReady',
          },
          ageCol,
        ];
    }
  }
  const more = moreColumns(type);
  if (more) return more;
  if (type.group === 'apps' && type.resource === 'deployments') return workloadColumns('Deployment');
  if (type.group === 'apps' && type.resource === 'replicasets') return workloadColumns('ReplicaSet');
  return [
    name,
    {
      name: 'Created At',
      type: 'date',
      description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
      priority: 0,
      cell: (o) => o.metadata.creationTimestamp ?? '',
    },
  ];
}

function rowObject(o: KubeObject, include: IncludeObject): KubeObject | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return o;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}

export interface TableOptions {
  include: IncludeObject;
  now: number;
  withColumns?: boolean;
  listMeta?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
}

export function toTable(type: ResourceType, objects: KubeObject[], opts: TableOptions): Record<string, unknown> {
  const cols = columnsFor(type);
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: opts.listMeta ?? {} };
  if (opts.withColumns !== false) {
    table.columnDefinitions = cols.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    }));
  }
  table.rows = objects.map((o) => {
    const row: Record<string, unknown> = { cells: cols.map((c) => c.cell(o, opts.now)) };
    const obj = rowObject(o, opts.include);
    if (obj) row.object = obj;
    return row;
  });
  return table;
}

export function toPartialObjectMetadata(o: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}
