// More of kube-controller-manager, reduced like workload-controllers.ts to what an operator watching its
// objects sees: StatefulSets own ordinal pods (started in order under OrderedReady), DaemonSets one pod per
// schedulable node, Jobs run pods to completion, and every Service with a selector gets an EndpointSlice
// of its ready pods (shapes of kubernetes pkg/controller/{statefulset,daemon,job,endpointslice}).
import type { KubeObject } from '../../../../shared/models/object';
import { newControllerManagedBy } from '../../../runtime';
import { rawPatch } from '../../../runtime/client';
import type { Client } from '../../../runtime/client';
import { setControllerReference } from '../../../runtime';
import { enqueueRequestsFromMapFunc } from '../../../runtime';
import type { Manager } from '../../../runtime';
import { reconcileFunc, type Request } from '../../../runtime';
import { isAlreadyExists, isNotFound } from '../../../runtime';
import { cronJobReconciler } from './cronjob-controller';
import { templateHash } from './workload-controllers';

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;
const SERVICE = { apiVersion: 'v1', kind: 'Service' } as const;
const STS = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
const DS = { apiVersion: 'apps/v1', kind: 'DaemonSet' } as const;
const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
const SLICE = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice' } as const;
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const MANAGED_BY = { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' };

type Obj = Record<string, unknown>;
type Labels = Record<string, string>;
interface PodTemplate {
  metadata?: { labels?: Labels; annotations?: Labels };
  spec?: Obj;
}

const specOf = (o: KubeObject): Obj => (o.spec ?? {}) as Obj;
const templateOf = (o: KubeObject): PodTemplate => (specOf(o).template ?? {}) as PodTemplate;
const statusOf = (p: KubeObject): Obj => (p.status ?? {}) as Obj;
const ignoreNotFound = (err: unknown): Promise<void> => (isNotFound(err) ? Promise.resolve() : Promise.reject(err));

function isReady(pod: KubeObject): boolean {
  const conds = statusOf(pod).conditions as { type: string; status: string }[] | undefined;
  return conds?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

const ownedBy = (owner: KubeObject, obj: KubeObject): boolean =>
  obj.metadata.ownerReferences?.some((r) => r.controller && r.uid === owner.metadata.uid) ?? false;

const labelString = (labels: Labels | undefined): string =>
  Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

const matchLabelsOf = (o: KubeObject): Labels | undefined =>
  ((specOf(o).selector ?? {}) as { matchLabels?: Labels }).matchLabels;

async function getLive(client: Client, type: { apiVersion: string; kind: string }, req: Request) {
  try {
    const o = await client.get<KubeObject>(type, { namespace: req.namespace, name: req.name });
    return o.metadata.deletionTimestamp ? undefined : o;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function ownedPods(client: Client, owner: KubeObject): Promise<KubeObject[]> {
  const list = await client.list<KubeObject>(POD, {
    namespace: owner.metadata.namespace,
    labelSelector: labelString(matchLabelsOf(owner)),
  });
  return list.items.filter((p) => ownedBy(owner, p) && !p.metadata.deletionTimestamp);
}

async function createPod(client: Client, owner: KubeObject, pod: KubeObject): Promise<void> {
  setControllerReference(owner, pod);
  await client.create(pod).catch((err: unknown) => (isAlreadyExists(err) ? undefined : Promise.reject(err)));
}

function podFrom(owner: KubeObject, labels: Labels, extra: { name?: string; spec?: Obj } = {}): KubeObject {
  const t = templateOf(owner);
  return {
    ...POD,
    metadata: {
      ...(extra.name ? { name: extra.name } : { generateName: `${owner.metadata.name ?? ''}-` }),
      namespace: owner.metadata.namespace,
      labels: { ...(t.metadata?.labels ?? {}), ...labels },
      ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
    },
    spec: { ...structuredClone(t.spec ?? {}), ...(extra.spec ?? {}) },
  };
}

/** Writes status only when a field changed, so the controller does not wake itself up. */
async function patchStatus(client: Client, obj: KubeObject, status: Obj): Promise<void> {
  const current = statusOf(obj);
  if (Object.entries(status).every(([k, v]) => JSON.stringify(current[k]) === JSON.stringify(v))) return;
  await client.status().patch(obj, rawPatch('merge', { status }));
}

export function statefulSetReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    const sts = await getLive(client, STS, req);
    if (!sts) return;
    const spec = specOf(sts);
    const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const revision = `${req.name}-${templateHash(spec.template)}`;
    const pods = await ownedPods(client, sts);
    const byOrdinal = new Map(pods.map((p) => [Number((p.metadata.name ?? '').slice(req.name.length + 1)), p]));
    const ordered = spec.podManagementPolicy !== 'Parallel';
    for (let i = 0; i < want; i++) {
      const existing = byOrdinal.get(i);
      if (existing) {
        if (ordered && !isReady(existing)) break;
        continue;
      }
      const name = `${req.name}-${i}`;
      await createPod(
        client,
        sts,
        podFrom(
          sts,
          {
            'apps.kubernetes.io/pod-index': String(i),
            'controller-revision-hash': revision,
            'statefulset.kubernetes.io/pod-name': name,
          },
          { name, spec: { hostname: name, ...(spec.serviceName ? { subdomain: spec.serviceName } : {}) } },
        ),
      );
      if (ordered) break;
    }
    // Scale down from the highest ordinal, one at a time under OrderedReady.
    const extra = [...byOrdinal.entries()].filter(([i]) => i >= want).sort((a, b) => b[0] - a[0]);
    for (const [, p] of ordered ? extra.slice(0, 1) : extra) await client.delete(p).catch(ignoreNotFound);
    const live = pods.filter((p) => Number((p.metadata.name ?? '').slice(req.name.length + 1)) < want);
    const ready = live.filter(isReady).length;
    await patchStatus(client, sts, {
      observedGeneration: sts.metadata.generation ?? 0,
      replicas: live.length,
      readyReplicas: ready,
      availableReplicas: ready,
      currentReplicas: live.length,
      updatedReplicas: live.length,
      currentRevision: revision,
      updateRevision: revision,
    });
  });
}

export function daemonSetReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    const ds = await getLive(client, DS, req);
    if (!ds) return;
    const nodes = (await client.list<KubeObject>(NODE)).items.filter(
      (n) => !(n.spec as { unschedulable?: boolean } | undefined)?.unschedulable,
    );
    const pods = await ownedPods(client, ds);
    const nodeOf = (p: KubeObject): string => String((p.spec as Obj | undefined)?.nodeName ?? '');
    for (const n of nodes) {
      const node = n.metadata.name ?? '';
      if (pods.some((p) => nodeOf(p) === node)) continue;
      await createPod(
        client,
        ds,
        podFrom(ds, { 'controller-revision-hash': templateHash(specOf(ds).template) }, { spec: { nodeName: node } }),
      );
    }
    const names = new Set(nodes.map((n) => n.metadata.name));
    for (const p of pods.filter((p) => !names.has(nodeOf(p)))) await client.delete(p).catch(ignoreNotFound);
    const scheduled = pods.filter((p) => names.has(nodeOf(p)));
    const ready = scheduled.filter(isReady).length;
    await patchStatus(client, ds, {
      observedGeneration: ds.metadata.generation ?? 0,
      desiredNumberScheduled: nodes.length,
      currentNumberScheduled: scheduled.length,
      updatedNumberScheduled: scheduled.length,
      numberMisscheduled: 0,
      numberReady: ready,
      numberAvailable: ready,
      ...(nodes.length - ready > 0 ? { numberUnavailable: nodes.length - ready } : {}),
    });
  });
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function jobReconciler(client: Client, now: () => number = Date.now) {
  return reconcileFunc(async (_ctx, req) => {
    const job = await getLive(client, JOB, req);
    if (!job) return;
    const spec = specOf(job);
    const status = statusOf(job);
    const conditions = (status.conditions as { type: string; status: string }[] | undefined) ?? [];
    if (conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) return;
    const completions = typeof spec.completions === 'number' ? spec.completions : 1;
    const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 1;
    const pods = await ownedPods(client, job);
    const phase = (p: KubeObject): unknown => statusOf(p).phase;
    const succeeded = pods.filter((p) => phase(p) === 'Succeeded').length;
    const failed = pods.filter((p) => phase(p) === 'Failed').length;
    const active = pods.filter((p) => phase(p) !== 'Succeeded' && phase(p) !== 'Failed');
    const startTime = (status.startTime as string | undefined) ?? rfc3339(now());
    if (succeeded >= completions) {
      const at = rfc3339(now());
      await client.status().patch(
        job,
        rawPatch('merge', {
          status: {
            startTime,
            completionTime: at,
            active: 0,
            ready: 0,
            succeeded,
            failed,
            terminating: 0,
            conditions: [
              {
                type: 'SuccessCriteriaMet',
                status: 'True',
                reason: 'CompletionsReached',
                message: 'Reached expected number of succeeded pods',
                lastProbeTime: at,
                lastTransitionTime: at,
              },
              {
                type: 'Complete',
                status: 'True',
                reason: 'CompletionsReached',
                message: 'Reached expected number of succeeded pods',
                lastProbeTime: at,
                lastTransitionTime: at,
              },
            ],
          },
        }),
      );
      return;
    }
    if (spec.suspend !== true) {
      const missing = Math.min(parallelism, completions - succeeded) - active.length;
      for (let i = 0; i < missing; i++) {
        await createPod(client, job, podFrom(job, {}, { spec: {} }));
      }
    }
    await patchStatus(client, job, {
      startTime,
      active: active.length,
      ready: active.filter(isReady).length,
      succeeded,
      failed,
      terminating: 0,
    });
  });
}

/** One EndpointSlice per Service with a selector, listing the selected pods that have an IP. */
export function endpointSliceReconciler(client: Client) {
  return reconcileFunc(async (_ctx, req) => {
    const svc = await getLive(client, SERVICE, req);
    const slices = (
      await client.list<KubeObject>(SLICE, {
        namespace: req.namespace,
        labelSelector: `${SERVICE_NAME_LABEL}=${req.name}`,
      })
    ).items.filter(
      (s) =>
        s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] ===
        MANAGED_BY['endpointslice.kubernetes.io/managed-by'],
    );
    const selector = (svc?.spec as { selector?: Labels } | undefined)?.selector;
    if (!svc || !selector || Object.keys(selector).length === 0) {
      for (const s of slices) await client.delete(s).catch(ignoreNotFound);
      return;
    }
    const pods = (
      await client.list<KubeObject>(POD, { namespace: req.namespace, labelSelector: labelString(selector) })
    ).items.filter((p) => typeof statusOf(p).podIP === 'string');
    const ports = ((svc.spec as { ports?: Obj[] }).ports ?? []).map((p) => ({
      name: (p.name as string | undefined) ?? '',
      port: typeof p.targetPort === 'number' ? p.targetPort : p.port,
      protocol: (p.protocol as string | undefined) ?? 'TCP',
    }));
    const endpoints = pods
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
      .map((p) => ({
        addresses: [statusOf(p).podIP as string],
        conditions: {
          ready: isReady(p) && !p.metadata.deletionTimestamp,
          serving: isReady(p),
          terminating: !!p.metadata.deletionTimestamp,
        },
        ...((p.spec as Obj | undefined)?.nodeName ? { nodeName: (p.spec as Obj).nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name, uid: p.metadata.uid },
      }));
    const [current, ...stale] = slices;
    for (const s of stale) await client.delete(s).catch(ignoreNotFound);
    if (!current) {
      const slice: KubeObject = {
        ...SLICE,
        metadata: {
          generateName: `${req.name}-`,
          namespace: req.namespace,
          labels: { [SERVICE_NAME_LABEL]: req.name, ...MANAGED_BY },
        },
        addressType: 'IPv4',
        endpoints,
        ports,
      };
      setControllerReference(svc, slice);
      await client.create(slice);
      return;
    }
    if (
      JSON.stringify(current.endpoints ?? []) === JSON.stringify(endpoints) &&
      JSON.stringify(current.ports ?? []) === JSON.stringify(ports)
    )
      return;
    await client.update({ ...current, endpoints, ports });
  });
}

/** Services in the pod's namespace whose selector matches the pod's labels. */
function servicesSelecting(client: Client) {
  return async (_ctx: unknown, pod: KubeObject): Promise<Request[]> => {
    const services = await client.list<KubeObject>(SERVICE, { namespace: pod.metadata.namespace });
    const labels = pod.metadata.labels ?? {};
    return services.items
      .filter((s) => {
        const sel = (s.spec as { selector?: Labels } | undefined)?.selector;
        return !!sel && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);
      })
      .map((s) => ({ namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' }));
  };
}

/** Registers the StatefulSet, DaemonSet, CronJob, Job and EndpointSlice controllers with the sandbox's manager. */
export async function addMoreControllers(mgr: Manager): Promise<void> {
  const client = mgr.getClient();
  await newControllerManagedBy(mgr)
    .named('sandbox-statefulset')
    .for('apps/v1/StatefulSet')
    .owns('v1/Pod')
    .complete(statefulSetReconciler(client));
  await newControllerManagedBy(mgr)
    .named('sandbox-daemonset')
    .for('apps/v1/DaemonSet')
    .owns('v1/Pod')
    .watches(
      'v1/Node',
      enqueueRequestsFromMapFunc(async () =>
        (await client.list<KubeObject>(DS)).items.map((d) => ({
          namespace: d.metadata.namespace ?? '',
          name: d.metadata.name ?? '',
        })),
      ),
    )
    .complete(daemonSetReconciler(client));
  await newControllerManagedBy(mgr)
    .named('sandbox-cronjob')
    .for('batch/v1/CronJob')
    .owns('batch/v1/Job')
    .complete(cronJobReconciler(client));
  await newControllerManagedBy(mgr)
    .named('sandbox-job')
    .for('batch/v1/Job')
    .owns('v1/Pod')
    .complete(jobReconciler(client));
  await newControllerManagedBy(mgr)
    .named('sandbox-endpointslice')
    .for('v1/Service')
    .owns('discovery.k8s.io/v1/EndpointSlice')
    .watches('v1/Pod', enqueueRequestsFromMapFunc(servicesSelecting(client)))
    .complete(endpointSliceReconciler(client));
}
