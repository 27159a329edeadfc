// Defaults and field labels of the core and apps kinds (kubernetes pkg/apis/core/v1/defaults.go,
// pkg/apis/apps/v1/defaults.go, the default admission plugins, pkg/apis/core/v1/conversion.go).
import type { KubeObject } from '../../../shared/models/object';

export type Obj = Record<string, unknown>;
export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export function podFields(o: KubeObject): Record<string, string> {
  const spec = rec(o.spec);
  const status = rec(o.status);
  const ips = Array.isArray(status.podIPs) ? (status.podIPs as Obj[]).map((p) => str(p.ip)).join(',') : '';
  return {
    'spec.nodeName': str(spec.nodeName),
    'spec.host': str(spec.nodeName),
    'spec.restartPolicy': str(spec.restartPolicy),
    'spec.schedulerName': str(spec.schedulerName),
    'spec.serviceAccountName': str(spec.serviceAccountName),
    'spec.hostNetwork': spec.hostNetwork === true ? 'true' : 'false',
    'status.phase': str(status.phase),
    'status.podIP': str(status.podIP),
    'status.podIPs': ips,
    'status.nominatedNodeName': str(status.nominatedNodeName),
  };
}

export function eventFields(o: KubeObject): Record<string, string> {
  const io = rec(o.involvedObject);
  const source = rec(o.source);
  return {
    'involvedObject.kind': str(io.kind),
    'involvedObject.namespace': str(io.namespace),
    'involvedObject.name': str(io.name),
    'involvedObject.uid': str(io.uid),
    'involvedObject.apiVersion': str(io.apiVersion),
    'involvedObject.resourceVersion': str(io.resourceVersion),
    'involvedObject.fieldPath': str(io.fieldPath),
    reason: str(o.reason),
    reportingComponent: str(o.reportingComponent),
    // As kube-apiserver's event strategy: an Event written through events.k8s.io has no source.component,
    // so `source=` matches its reporting controller instead.
    source: str(source.component) || str(o.reportingComponent),
    type: str(o.type),
  };
}

export function defaultPodSpec(spec: Obj): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  if (Array.isArray(spec.containers)) {
    for (const c of spec.containers as Obj[]) {
      const image = String(c.image ?? '');
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      c.imagePullPolicy ??= image.endsWith(':latest') || !image.includes(':') ? 'Always' : 'IfNotPresent';
      c.resources ??= {};
      if (Array.isArray(c.ports)) for (const p of c.ports as Obj[]) p.protocol ??= 'TCP';
    }
  }
}

/** The pod's QoS class (kubernetes pkg/apis/core/helper/qos): Guaranteed, Burstable or BestEffort. */
export function qosClass(spec: Obj): string {
  const containers = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ] as Obj[];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const res = rec(c.resources);
    const req = rec(res.requests);
    const lim = rec(res.limits);
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const limit = lim[r];
      const request = req[r] ?? limit;
      if (limit === undefined || String(request) !== String(limit)) guaranteed = false;
    }
  }
  return guaranteed ? 'Guaranteed' : any ? 'Burstable' : 'BestEffort';
}

const DEFAULT_TOLERATIONS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export function defaultPod(o: KubeObject): void {
  const spec = rec(o.spec);
  o.spec = spec;
  defaultPodSpec(spec);
  // SetDefaults_Pod, not the PodSpec defaults: templates never get it.
  spec.enableServiceLinks ??= true;
  // Admission plugins enabled by default (also under envtest): Priority and DefaultTolerationSeconds.
  if (spec.priorityClassName === undefined) spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Obj[]) : [];
  for (const key of DEFAULT_TOLERATIONS) {
    if (
      !tolerations.some(
        (t) =>
          (t.key === key || (t.key === undefined && t.operator === 'Exists')) &&
          (t.effect === undefined || t.effect === 'NoExecute'),
      )
    ) {
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    }
  }
  spec.tolerations = tolerations;
  o.status = { phase: 'Pending', qosClass: qosClass(spec) };
}

export function defaultTemplate(spec: Obj): void {
  const template = rec(spec.template);
  spec.template = template;
  const podSpec = rec(template.spec);
  template.spec = podSpec;
  defaultPodSpec(podSpec);
}

/** Service defaults and ClusterIP allocation from 10.96.0.0/12 (the kube-apiserver default range). */
export function serviceDefaulter(): (o: KubeObject) => void {
  let next = 10;
  return (o) => {
    const spec = rec(o.spec);
    o.spec = spec;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (spec.type !== 'ExternalName') {
      if (!spec.clusterIP) {
        const n = next++;
        spec.clusterIP = `10.96.${Math.floor(n / 256) % 256}.${n % 256}`;
      }
      spec.clusterIPs ??= [spec.clusterIP];
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      spec.internalTrafficPolicy ??= 'Cluster';
    }
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports as Obj[]) {
        p.protocol ??= 'TCP';
        if (spec.clusterIP !== 'None') p.targetPort ??= p.port;
      }
    }
    o.status = { loadBalancer: {} };
  };
}

export function defaultDeployment(o: KubeObject): void {
  const spec = rec(o.spec);
  o.spec = spec;
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  const strategy = rec(spec.strategy);
  spec.strategy = strategy;
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate')
    strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...rec(strategy.rollingUpdate) };
  defaultTemplate(spec);
  o.status = {};
}

export function defaultReplicaSet(o: KubeObject): void {
  const spec = rec(o.spec);
  o.spec = spec;
  spec.replicas ??= 1;
  defaultTemplate(spec);
  o.status = { replicas: 0 };
}

export function defaultSecret(o: KubeObject): void {
  o.type ??= 'Opaque';
}

/** v1→internal Secret conversion: stringData entries overwrite data as base64 and are never stored. */
export function foldStringData(o: KubeObject): void {
  if (o.stringData === undefined) return;
  const data = rec(o.data);
  for (const [k, v] of Object.entries(rec(o.stringData))) data[k] = Buffer.from(String(v)).toString('base64');
  if (Object.keys(data).length > 0) o.data = data;
  delete o.stringData;
}
