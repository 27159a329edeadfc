// Table columns of more built-ins, as kubectl shows them from kube-apiserver (kubernetes
// pkg/printers/internalversion/printers.go, checked against kube-apiserver 1.36's answers): Services,
// Secrets, ServiceAccounts, StatefulSets, DaemonSets, Jobs, CronJobs, Leases. Wide columns (priority 1,
// `kubectl get -o wide`) are left out.
import type { KubeObject } from '../../../shared/models/object';
import type { ResourceType } from './resources';
import { ageCol, name, type Column } from './table';
import { humanDuration, isObject } from './util';

const rec = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
const col = (n: string, cell: Column['cell'], type = 'string'): Column => ({ name: n, type, priority: 0, cell });
const spec = (o: KubeObject): Record<string, unknown> => rec(o.spec);
const status = (o: KubeObject): Record<string, unknown> => rec(o.status);
const num = (v: unknown): number => Number(v ?? 0);

function servicePorts(o: KubeObject): string {
  const ports = arr(spec(o).ports).map(
    (p) => `${String(p.port)}${p.nodePort ? `:${String(p.nodePort)}` : ''}/${String(p.protocol ?? 'TCP')}`,
  );
  return ports.length ? ports.join(',') : '<none>';
}

function jobStatus(o: KubeObject): string {
  const conds = arr(status(o).conditions).filter((c) => c.status === 'True');
  for (const t of ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet', 'Suspended'])
    if (conds.some((c) => c.type === t)) return t === 'FailureTarget' ? 'FailureTarget' : t;
  return o.metadata.deletionTimestamp ? 'Terminating' : 'Running';
}

function jobDuration(o: KubeObject, now: number): string {
  const start = Date.parse(String(status(o).startTime ?? ''));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(String(status(o).completionTime ?? ''));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

const COLUMNS: Record<string, () => Column[]> = {
  '/services': () => [
    name,
    col('Type', (o) => String(spec(o).type ?? '')),
    col('Cluster-IP', (o) => String(spec(o).clusterIP ?? '')),
    col('External-IP', (o) => {
      const ips = [...(Array.isArray(spec(o).externalIPs) ? (spec(o).externalIPs as string[]) : [])];
      for (const i of arr(rec(status(o).loadBalancer).ingress)) ips.push(String(i.ip ?? i.hostname ?? ''));
      if (spec(o).type === 'ExternalName') return String(spec(o).externalName ?? '');
      if (ips.length) return ips.join(',');
      return spec(o).type === 'LoadBalancer' ? '<pending>' : '<none>';
    }),
    col('Port(s)', servicePorts),
    ageCol,
  ],
  '/secrets': () => [
    name,
    col('Type', (o) => String(o.type ?? '')),
    col('Data', (o) => Object.keys(rec(o.data)).length, 'string'),
    ageCol,
  ],
  '/serviceaccounts': () => [name, ageCol],
  'apps/statefulsets': () => [
    name,
    col('Ready', (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`),
    ageCol,
  ],
  'apps/daemonsets': () => [
    name,
    col('Desired', (o) => num(status(o).desiredNumberScheduled), 'integer'),
    col('Current', (o) => num(status(o).currentNumberScheduled), 'integer'),
    col('Ready', (o) => num(status(o).numberReady), 'integer'),
    col('Up-to-date', (o) => num(status(o).updatedNumberScheduled), 'integer'),
    col('Available', (o) => num(status(o).numberAvailable), 'integer'),
    col('Node Selector', (o) => {
      const sel = rec(rec(rec(spec(o).template).spec).nodeSelector);
      const parts = Object.entries(sel).map(([k, v]) => `${k}=${String(v)}`);
      return parts.length ? parts.join(',') : '<none>';
    }),
    ageCol,
  ],
  'batch/jobs': () => [
    name,
    col('Status', jobStatus),
    col('Completions', (o) => `${num(status(o).succeeded)}/${num(spec(o).completions ?? 1)}`),
    col('Duration', jobDuration),
    ageCol,
  ],
  'batch/cronjobs': () => [
    name,
    col('Schedule', (o) => String(spec(o).schedule ?? '')),
    col('Timezone', (o) => String(spec(o).timeZone ?? '<none>')),
    col('Suspend', (o) => (spec(o).suspend === true ? 'True' : 'False'), 'boolean'),
    col('Active', (o) => arr(status(o).active).length, 'integer'),
    col('Last Schedule', (o, now) => {
      const t = Date.parse(String(status(o).lastScheduleTime ?? ''));
      return Number.isNaN(t) ? '<none>' : humanDuration(now - t);
    }),
    ageCol,
  ],
  'coordination.k8s.io/leases': () => [name, col('Holder', (o) => String(spec(o).holderIdentity ?? '')), ageCol],
};

export function moreColumns(type: ResourceType): Column[] | undefined {
  return COLUMNS[`${type.group}/${type.resource}`]?.();
}
