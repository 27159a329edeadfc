// Create-time defaults of the built-in kinds beyond core Pods/Services and Deployments/ReplicaSets, as
// kube-apiserver 1.36 fills them in (kubernetes pkg/apis/{core,apps,batch,autoscaling,networking,policy,
// discovery,storage,scheduling,admissionregistration}/v1/defaults.go and the registry strategies'
// PrepareForCreate), checked against the real server by the conformance suite's built-in-resources case.
import type { KubeObject } from '../../../shared/models/object';
import { defaultPodSpec, defaultTemplate, rec, type Obj } from './defaults-core';
import { rfc3339 } from './util';

const specOf = (o: KubeObject): Obj => {
  const spec = rec(o.spec);
  o.spec = spec;
  return spec;
};
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export function defaultPodTemplate(o: KubeObject): void {
  defaultTemplate(o as unknown as Obj);
}

export function defaultReplicationController(o: KubeObject): void {
  const spec = specOf(o);
  spec.replicas ??= 1;
  defaultTemplate(spec);
  const labels = rec(rec(spec.template).metadata).labels as Record<string, string> | undefined;
  if (labels && Object.keys(rec(spec.selector)).length === 0) spec.selector = { ...labels };
  if (labels && Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...labels };
  o.status = { replicas: 0 };
}

export function defaultEndpoints(o: KubeObject): void {
  for (const subset of list(o.subsets)) for (const p of list(subset.ports)) p.protocol ??= 'TCP';
}

export function defaultPvc(o: KubeObject): void {
  specOf(o).volumeMode ??= 'Filesystem';
  o.status = { phase: 'Pending' };
}

export function pvDefaulter(now: () => number): (o: KubeObject) => void {
  return (o) => {
    const spec = specOf(o);
    spec.persistentVolumeReclaimPolicy ??= 'Retain';
    spec.volumeMode ??= 'Filesystem';
    if (spec.hostPath && typeof spec.hostPath === 'object') (spec.hostPath as Obj).type ??= '';
    o.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(now()) };
  };
}

export function defaultLimitRange(o: KubeObject): void {
  for (const item of list(specOf(o).limits)) {
    if (item.type !== 'Container') continue;
    const max = rec(item.max);
    const def = { ...max, ...rec(item.default) };
    if (Object.keys(def).length) item.default = def;
    const req = { ...def, ...rec(item.defaultRequest) };
    for (const [k, v] of Object.entries(rec(item.min))) if (!(k in req)) req[k] = v;
    if (Object.keys(req).length) item.defaultRequest = req;
  }
}

export function defaultStatefulSet(o: KubeObject): void {
  const spec = specOf(o);
  spec.replicas ??= 1;
  defaultTemplate(spec);
  spec.serviceName ??= '';
  spec.podManagementPolicy ??= 'OrderedReady';
  const strategy = rec(spec.updateStrategy);
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') strategy.rollingUpdate = { partition: 0, ...rec(strategy.rollingUpdate) };
  spec.updateStrategy = strategy;
  spec.revisionHistoryLimit ??= 10;
  spec.persistentVolumeClaimRetentionPolicy = {
    whenDeleted: 'Retain',
    whenScaled: 'Retain',
    ...rec(spec.persistentVolumeClaimRetentionPolicy),
  };
  o.status = { replicas: 0, availableReplicas: 0 };
}

export function defaultDaemonSet(o: KubeObject): void {
  const spec = specOf(o);
  defaultTemplate(spec);
  const strategy = rec(spec.updateStrategy);
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate')
    strategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 0, ...rec(strategy.rollingUpdate) };
  spec.updateStrategy = strategy;
  spec.revisionHistoryLimit ??= 10;
  o.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
}

function defaultJobSpec(spec: Obj): void {
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= rec(spec.podFailurePolicy).rules ? 'Failed' : 'TerminatingOrFailed';
  const template = rec(spec.template);
  spec.template = template;
  template.metadata ??= {};
  const podSpec = rec(template.spec);
  template.spec = podSpec;
  defaultPodSpec(podSpec);
}

/** Job: spec defaults plus the generated selector and pod labels (batch job strategy generateSelector). */
export function defaultJob(o: KubeObject): void {
  const spec = specOf(o);
  defaultJobSpec(spec);
  spec.manualSelector ??= false;
  if (spec.manualSelector !== true) {
    const uid = o.metadata.uid ?? '';
    const meta = rec(rec(spec.template).metadata);
    const labels = rec(meta.labels) as Record<string, string>;
    meta.labels = {
      ...labels,
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': o.metadata.name ?? '',
      'controller-uid': uid,
      'job-name': o.metadata.name ?? '',
    };
    (spec.template as Obj).metadata = meta;
    spec.selector ??= { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  }
  o.status = {};
}

export function defaultCronJob(o: KubeObject): void {
  const spec = specOf(o);
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jt = rec(spec.jobTemplate);
  spec.jobTemplate = jt;
  jt.metadata ??= {};
  const jobSpec = rec(jt.spec);
  jt.spec = jobSpec;
  const template = rec(jobSpec.template);
  jobSpec.template = template;
  template.metadata ??= {};
  defaultPodSpec(((template.spec as Obj | undefined) ??= {}) as Obj);
  o.status = {};
}

export function defaultHpa(o: KubeObject): void {
  const spec = specOf(o);
  spec.minReplicas ??= 1;
  if (list(spec.metrics).length === 0)
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ];
  o.status = { desiredReplicas: 0, currentMetrics: null };
}

export function defaultIngress(o: KubeObject): void {
  o.status = { loadBalancer: {} };
}

export function defaultNetworkPolicy(o: KubeObject): void {
  const spec = specOf(o);
  if (spec.policyTypes === undefined) {
    spec.policyTypes = list(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export function defaultPdb(o: KubeObject): void {
  o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

export function defaultEndpointSlice(o: KubeObject): void {
  for (const e of list(o.endpoints)) e.conditions ??= {};
  for (const p of list(o.ports)) p.protocol ??= 'TCP';
}

export function defaultStorageClass(o: KubeObject): void {
  o.reclaimPolicy ??= 'Delete';
  o.volumeBindingMode ??= 'Immediate';
}

export function defaultCsiDriver(o: KubeObject): void {
  const spec = specOf(o);
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.volumeLifecycleModes ??= ['Persistent'];
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

export function defaultPriorityClass(o: KubeObject): void {
  o.preemptionPolicy ??= 'PreemptLowerPriority';
}

export function webhookDefaulter(mutating: boolean): (o: KubeObject) => void {
  return (o) => {
    for (const w of list(o.webhooks)) {
      for (const r of list(w.rules)) r.scope ??= '*';
      w.failurePolicy ??= 'Fail';
      w.matchPolicy ??= 'Equivalent';
      w.namespaceSelector ??= {};
      w.objectSelector ??= {};
      w.timeoutSeconds ??= 10;
      if (mutating) w.reinvocationPolicy ??= 'Never';
    }
  };
}

/** The sandbox's one user: what kube-apiserver records for envtest's admin certificate. */
export const SANDBOX_USER = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

export function defaultCsr(o: KubeObject): void {
  const spec = specOf(o);
  spec.username = SANDBOX_USER.username;
  spec.groups = [...SANDBOX_USER.groups];
  delete spec.uid;
  delete spec.extra;
  o.status = {};
}
