// The built-in resources the sandbox serves: every group-version, resource and subresource of
// resources.generated.json (recorded from a real kube-apiserver's discovery by
// scripts/gen-sandbox-resources.ts), served by the generic storage, with the per-kind rules of the kube
// registry strategies (kubernetes pkg/registry/*/strategy.go) laid over it from KIND_RULES.
import type { KubeObject } from '../../../shared/models/object';
import table from './resources.generated.json';
import { coreEventToEventsV1, eventsV1ToCoreEvent } from './events';
import * as core from './defaults-core';
import * as kinds from './defaults-kinds';
import { hpaV1FromStorage, hpaV1ToStorage } from './hpa-v1';
import { virtualCreate } from './reviews';
import { validateConfigData, validateWorkloadSelector } from './builtin-validation';
import type { Clock } from '../../runtime';
import { STANDARD_VERBS, type ResourceType, type SubresourceInfo } from './resources';

/** One resource of resources.generated.json, as scripts/gen-sandbox-resources.ts records it. */
export interface GeneratedResource {
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { name: string; kind: string; group?: string; version?: string; verbs: string[] }[];
}

/** Subresources the sandbox implements beyond status and scale (the others are left out of discovery). */
const SERVED_SUBRESOURCES = new Set(['finalize', 'binding', 'eviction', 'token', 'approval']);

const SCALE = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.selector',
};

type Rules = Partial<ResourceType>;

/** Per `group/resource` behaviour; everything not named here is plain generic storage. */
function kindRules(clock: Clock): Record<string, Rules> {
  const now = (): number => clock.now();
  return {
    '/namespaces': {
      returnsDeletedObject: true,
      fieldLabels: (o) => ({ 'status.phase': core.str(core.rec(o.status).phase) }),
    },
    '/pods': {
      generation: 'spec',
      returnsDeletedObject: true,
      fieldLabels: core.podFields,
      prepareForCreate: core.defaultPod,
    },
    '/configmaps': { validate: validateConfigData('ConfigMap') },
    '/secrets': {
      prepareForCreate: core.defaultSecret,
      normalize: core.foldStringData,
      validate: validateConfigData('Secret'),
      fieldLabels: (o) => ({ type: core.str(o.type) }),
    },
    '/services': {
      returnsDeletedObject: true,
      prepareForCreate: core.serviceDefaulter(),
      fieldLabels: (o) => ({
        'spec.clusterIP': core.str(core.rec(o.spec).clusterIP),
        'spec.type': core.str(core.rec(o.spec).type),
      }),
    },
    '/serviceaccounts': { returnsDeletedObject: true },
    '/nodes': {
      returnsDeletedObject: true,
      fieldLabels: (o) => ({ 'spec.unschedulable': core.rec(o.spec).unschedulable === true ? 'true' : 'false' }),
    },
    '/events': { fieldLabels: core.eventFields },
    '/podtemplates': { generation: 'nonMetadata', prepareForCreate: kinds.defaultPodTemplate },
    '/replicationcontrollers': {
      generation: 'spec',
      returnsDeletedObject: true,
      prepareForCreate: kinds.defaultReplicationController,
    },
    '/endpoints': { prepareForCreate: kinds.defaultEndpoints },
    '/persistentvolumeclaims': { returnsDeletedObject: true, prepareForCreate: kinds.defaultPvc },
    '/persistentvolumes': { returnsDeletedObject: true, prepareForCreate: kinds.pvDefaulter(now) },
    '/limitranges': { prepareForCreate: kinds.defaultLimitRange },
    '/resourcequotas': { returnsDeletedObject: true, prepareForCreate: (o) => void (o.status = {}) },
    'apps/deployments': {
      generation: 'specOrAnnotations',
      prepareForCreate: core.defaultDeployment,
      validate: validateWorkloadSelector('Deployment'),
    },
    'apps/replicasets': {
      generation: 'spec',
      prepareForCreate: core.defaultReplicaSet,
      validate: validateWorkloadSelector('ReplicaSet'),
    },
    'apps/statefulsets': {
      generation: 'spec',
      prepareForCreate: kinds.defaultStatefulSet,
      validate: validateWorkloadSelector('StatefulSet'),
    },
    'apps/daemonsets': {
      generation: 'spec',
      prepareForCreate: kinds.defaultDaemonSet,
      validate: validateWorkloadSelector('DaemonSet'),
    },
    'batch/jobs': { generation: 'spec', prepareForCreate: kinds.defaultJob },
    'batch/cronjobs': { generation: 'spec', prepareForCreate: kinds.defaultCronJob },
    'autoscaling/horizontalpodautoscalers': { prepareForCreate: kinds.defaultHpa },
    'networking.k8s.io/ingresses': { generation: 'spec', prepareForCreate: kinds.defaultIngress },
    'networking.k8s.io/ingressclasses': { generation: 'spec' },
    'networking.k8s.io/networkpolicies': { generation: 'spec', prepareForCreate: kinds.defaultNetworkPolicy },
    'policy/poddisruptionbudgets': { generation: 'spec', prepareForCreate: kinds.defaultPdb },
    'discovery.k8s.io/endpointslices': { generation: 'nonMetadata', prepareForCreate: kinds.defaultEndpointSlice },
    'storage.k8s.io/storageclasses': { prepareForCreate: kinds.defaultStorageClass },
    'storage.k8s.io/csidrivers': { prepareForCreate: kinds.defaultCsiDriver },
    'scheduling.k8s.io/priorityclasses': { generation: 'nonMetadata', prepareForCreate: kinds.defaultPriorityClass },
    'admissionregistration.k8s.io/validatingwebhookconfigurations': {
      generation: 'nonMetadata',
      prepareForCreate: kinds.webhookDefaulter(false),
    },
    'admissionregistration.k8s.io/mutatingwebhookconfigurations': {
      generation: 'nonMetadata',
      prepareForCreate: kinds.webhookDefaulter(true),
    },
    'admissionregistration.k8s.io/validatingadmissionpolicies': { generation: 'spec' },
    'admissionregistration.k8s.io/mutatingadmissionpolicies': { generation: 'spec' },
    'admissionregistration.k8s.io/validatingadmissionpolicybindings': { generation: 'spec' },
    'admissionregistration.k8s.io/mutatingadmissionpolicybindings': { generation: 'spec' },
    'certificates.k8s.io/certificatesigningrequests': { prepareForCreate: kinds.defaultCsr },
    'flowcontrol.apiserver.k8s.io/flowschemas': { generation: 'spec' },
    'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': { generation: 'spec' },
    'resource.k8s.io/resourceclaims': { generation: 'spec' },
    'resource.k8s.io/resourceslices': { generation: 'spec' },
    'resource.k8s.io/deviceclasses': { generation: 'spec' },
    'apiextensions.k8s.io/customresourcedefinitions': { generation: 'spec', allowUnconditionalUpdate: false },
    'coordination.k8s.io/leases': { allowCreateOnUpdate: true },
  };
}

function typeFor(group: string, version: string, r: GeneratedResource, rules: Rules): ResourceType {
  const subs = r.subresources ?? [];
  const extra: SubresourceInfo[] = subs
    .filter((s) => SERVED_SUBRESOURCES.has(s.name))
    .map((s) => ({
      name: s.name,
      kind: s.kind,
      group: s.group ?? group,
      version: s.version ?? version,
      verbs: s.verbs,
    }));
  const virtual = !r.verbs.includes('get') && r.verbs.includes('create');
  return {
    group,
    version,
    resource: r.resource,
    singular: r.singular,
    kind: r.kind,
    listKind: `${r.kind}List`,
    namespaced: r.namespaced,
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    verbs: r.verbs.length ? r.verbs : STANDARD_VERBS,
    status: subs.some((s) => s.name === 'status'),
    ...(subs.some((s) => s.name === 'scale') ? { scale: SCALE } : {}),
    ...(extra.length ? { subresources: extra } : {}),
    generation: 'none',
    allowUnconditionalUpdate: true,
    allowCreateOnUpdate: false,
    strategicMerge: true,
    listItemsTyped: false,
    returnsDeletedObject: false,
    ...(virtual ? { virtualCreate: virtualCreate(group, r.resource) } : {}),
    ...rules,
  };
}

/** Every built-in type, in the order kube-apiserver lists them in discovery. */
export function builtinTypes(clock: Clock): ResourceType[] {
  const rules = kindRules(clock);
  const out: ResourceType[] = [];
  for (const gv of table.groupVersions) {
    for (const r of gv.resources as GeneratedResource[]) {
      const t = typeFor(gv.group, gv.version, r, rules[`${gv.group}/${r.resource}`] ?? {});
      if (gv.group === 'events.k8s.io' && r.resource === 'events') {
        t.storageGroup = '';
        t.fromStorage = coreEventToEventsV1;
        t.toStorage = eventsV1ToCoreEvent;
        t.fieldLabels = eventsV1Fields;
      }
      if (gv.group === 'autoscaling' && gv.version === 'v1') {
        t.fromStorage = hpaV1FromStorage;
        t.toStorage = hpaV1ToStorage;
      }
      out.push(t);
    }
  }
  return out;
}

/** events.k8s.io/v1 field selector names → the core Event field labels they stand for (its conversion.go). */
const EVENTS_V1_FIELD_LABELS: [string, string][] = [
  ['reason', 'reason'],
  ['type', 'type'],
  ['reportingController', 'reportingComponent'],
  ...['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f): [string, string] => [
    `regarding.${f}`,
    `involvedObject.${f}`,
  ]),
];

function eventsV1Fields(o: KubeObject): Record<string, string> {
  const coreFields = core.eventFields(eventsV1ToCoreEvent(o));
  const out: Record<string, string> = {};
  for (const [v1, c] of EVENTS_V1_FIELD_LABELS) out[v1] = coreFields[c] ?? '';
  return out;
}
