// Objects of the size and shape a real cluster serves, generated deterministically so every peer gets the same
// bytes: Pods of 5.6–8 KB (labels, annotations, an owner reference, an app container and in one Pod of three a
// sidecar, with env, resources and the API server's defaults, status with conditions and container statuses,
// and the managedFields kube-apiserver records for them, about 45 % of the bytes) and a custom resource.

import { managedFieldsEntry, sectionFields } from './managed-fields';
import { prng } from '../shared/prng';

type Json = Record<string, unknown>;

const hex = (rnd: () => number, n: number): string =>
  Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
const uid = (rnd: () => number): string =>
  `${hex(rnd, 8)}-${hex(rnd, 4)}-${hex(rnd, 4)}-${hex(rnd, 4)}-${hex(rnd, 12)}`;
const TS = '2026-11-30T10:00:00Z';
const T0 = Date.parse(TS);

/** A time `s` seconds after TS, as the API server writes times. */
const at = (s: number): string => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

/**
 * When Pod i was created, started and became ready: Pods of a cluster were made at different times, so their
 * timestamps differ as their names do (spread over a day; the kubelet starts containers 2 s and reports ready
 * 6 s after creation).
 */
function podTimes(i: number): { created: string; started: string; ready: string } {
  const s = (i * 7_919) % 86_400;
  return { created: at(s), started: at(s + 2), ready: at(s + 6) };
}

function container(rnd: () => number, name: string, envs: number): Json {
  return {
    name,
    image: `registry.example.com/team/${name}:v1.${Math.floor(rnd() * 40)}.${Math.floor(rnd() * 10)}`,
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    // The API server leaves an empty list out.
    ...(envs
      ? {
          env: Array.from({ length: envs }, (_, i) => ({
            name: `SETTING_${i}_${hex(rnd, 4).toUpperCase()}`,
            value: hex(rnd, 8 + Math.floor(rnd() * 24)),
          })),
        }
      : {}),
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
    volumeMounts: [
      { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ],
    livenessProbe: {
      httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

/**
 * Pod i of a cluster, with the managedFields kube-apiserver records when the ReplicaSet controller creates it
 * and the kubelet writes its status (test/bench/realistic-pods.envtest.test.ts compares them with the real
 * server's); withManagedFields false drops them, as a transform would.
 */
export function realisticPod(i: number, resourceVersion: number, withManagedFields = true, seed = 1): Json {
  const pod = podWithoutManagedFields(i, resourceVersion, seed);
  if (!withManagedFields) return pod;
  const md = pod['metadata'] as Json;
  const { generateName, labels, annotations, ownerReferences } = md;
  // The API server sets qosClass on create; the kubelet writes the rest of status.
  const { qosClass: _set, ...kubeletStatus } = pod['status'] as Json;
  const times = podTimes(i);
  // The ReplicaSet controller created it (its template's fields, defaults included); the kubelet writes status.
  return withEntries(pod, [
    managedFieldsEntry(
      'kube-controller-manager',
      'v1',
      times.created,
      sectionFields({ metadata: { generateName, labels, annotations, ownerReferences }, spec: pod['spec'] }),
    ),
    managedFieldsEntry('kubelet', 'v1', times.ready, sectionFields({ status: kubeletStatus }), 'status'),
  ]);
}

/** The object with managedFields last in its metadata, where the API server puts them. */
function withEntries(obj: Json, managedFields: Json[]): Json {
  return { ...obj, metadata: { ...(obj['metadata'] as Json), managedFields } };
}

function podWithoutManagedFields(i: number, resourceVersion: number, seed: number): Json {
  const rnd = prng(seed * 1_000_003 + i);
  const times = podTimes(i);
  const ns = `team-${i % 20}`;
  const app = `svc-${i % 250}`;
  const rs = `${app}-${hex(rnd, 10)}`;
  const envs = Math.floor(rnd() * 5);
  // One Pod in three runs a sidecar next to its app.
  const sidecar = i % 3 === 0;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rs}-${hex(rnd, 5)}`,
      namespace: ns,
      uid: uid(rnd),
      resourceVersion: String(resourceVersion),
      generateName: `${rs}-`,
      creationTimestamp: times.created,
      labels: {
        app,
        'pod-template-hash': hex(rnd, 10),
        tier: i % 3 === 0 ? 'frontend' : 'backend',
        version: `v${i % 7}`,
      },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': TS,
        'prometheus.io/scrape': 'true',
        'example.com/owner-team': ns,
        'example.com/config-hash': hex(rnd, 40),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: rs,
          uid: uid(rnd),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: sidecar
        ? [container(rnd, 'app', envs), container(rnd, 'sidecar', Math.floor(envs / 4))]
        : [container(rnd, 'app', envs)],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
            defaultMode: 420,
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      securityContext: {},
      nodeName: `node-${i % 50}`,
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      enableServiceLinks: true,
    },
    status: {
      phase: 'Running',
      conditions: (
        [
          ['PodReadyToStartContainers', times.started],
          ['Initialized', times.started],
          ['Ready', times.ready],
          ['ContainersReady', times.ready],
          ['PodScheduled', times.created],
        ] as const
      ).map(([type, lastTransitionTime]) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime })),
      hostIP: `10.0.${i % 50}.1`,
      podIP: `10.244.${(i >> 8) % 256}.${i % 256}`,
      podIPs: [{ ip: `10.244.${(i >> 8) % 256}.${i % 256}` }],
      startTime: times.created,
      qosClass: 'Burstable',
      containerStatuses: (sidecar ? ['app', 'sidecar'] : ['app']).map((name) => ({
        name,
        ready: true,
        restartCount: Math.floor(rnd() * 3),
        image: `registry.example.com/team/${name}:v1`,
        imageID: `registry.example.com/team/${name}@sha256:${hex(rnd, 64)}`,
        containerID: `containerd://${hex(rnd, 64)}`,
        started: true,
        state: { running: { startedAt: times.started } },
      })),
    },
  };
}

/** A custom resource of similar weight: spec with nested lists, status with conditions. */
export function realisticWidget(i: number, resourceVersion: number, withManagedFields = true, seed = 2): Json {
  const widget = widgetWithoutManagedFields(i, resourceVersion, seed);
  if (!withManagedFields) return widget;
  const { labels, annotations } = widget['metadata'] as Json;
  // A user applied it (kubectl's client-side apply); its controller writes status.
  return withEntries(widget, [
    managedFieldsEntry(
      'kubectl-client-side-apply',
      'example.com/v1',
      TS,
      sectionFields({ metadata: { labels, annotations }, spec: widget['spec'] }),
    ),
    managedFieldsEntry(
      'widget-controller',
      'example.com/v1',
      TS,
      sectionFields({ status: widget['status'] }),
      'status',
    ),
  ]);
}

function widgetWithoutManagedFields(i: number, resourceVersion: number, seed: number): Json {
  const rnd = prng(seed * 1_000_003 + i);
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: {
      name: `widget-${i}`,
      namespace: `team-${i % 20}`,
      uid: uid(rnd),
      resourceVersion: String(resourceVersion),
      generation: 1 + (i % 5),
      creationTimestamp: TS,
      labels: { app: `svc-${i % 250}`, 'example.com/shard': String(i % 16) },
      annotations: { 'example.com/last-applied': hex(rnd, 200 + Math.floor(rnd() * 600)) },
    },
    spec: {
      replicas: 1 + (i % 5),
      routes: Array.from({ length: 5 + Math.floor(rnd() * 20) }, (_, r) => ({
        path: `/api/v${r}/${hex(rnd, 6)}`,
        backend: `svc-${r}`,
        weight: r,
      })),
    },
    status: {
      observedGeneration: 1 + (i % 5),
      conditions: ['Ready', 'Progressing', 'Degraded'].map((type) => ({
        type,
        status: type === 'Ready' ? 'True' : 'False',
        reason: 'AsExpected',
        message: hex(rnd, 30),
        lastTransitionTime: TS,
      })),
    },
  };
}

/**
 * ConfigMap i: an application's settings as a Helm chart renders them (release labels and annotations, an
 * owner reference, a properties file and a logging file in data, one managedFields entry). 2–5 KB, mean about
 * 3.4 KB with managedFields.
 */
export function realisticConfigMap(i: number, resourceVersion: number, withManagedFields = true, seed = 3): Json {
  const rnd = prng(seed * 1_000_003 + i);
  const ns = `team-${i % 20}`;
  const app = `svc-${i % 250}`;
  const lines = 18 + Math.floor(rnd() * 56);
  const properties = Array.from(
    { length: lines },
    (_, l) => `${app}.setting.${hex(rnd, 6)}.${l}=${hex(rnd, 8 + Math.floor(rnd() * 28))}`,
  ).join('\n');
  const logging = ['root', app, 'http', 'db']
    .map((logger) => `${logger}:\n  level: ${rnd() < 0.5 ? 'INFO' : 'DEBUG'}\n  format: json\n`)
    .join('');
  const fields = rnd();
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `${app}-config-${i}`,
      namespace: ns,
      uid: uid(rnd),
      resourceVersion: String(resourceVersion),
      creationTimestamp: TS,
      labels: {
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/instance': `${app}-${i % 3}`,
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': `${app}-1.${i % 9}.0`,
      },
      annotations: {
        'meta.helm.sh/release-name': `${app}-${i % 3}`,
        'meta.helm.sh/release-namespace': ns,
        'example.com/config-hash': hex(rnd, 40),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: uid(rnd), controller: true }],
      ...(withManagedFields
        ? {
            managedFields: [
              {
                manager: 'helm',
                operation: 'Update',
                apiVersion: 'v1',
                time: TS,
                fieldsType: 'FieldsV1',
                fieldsV1: {
                  'f:data': { '.': {}, 'f:application.properties': {}, 'f:logging.yaml': {} },
                  'f:metadata': {
                    'f:annotations': {
                      '.': {},
                      'f:meta.helm.sh/release-name': {},
                      'f:meta.helm.sh/release-namespace': {},
                    },
                    'f:labels': { '.': {}, 'f:app.kubernetes.io/managed-by': {}, 'f:helm.sh/chart': {} },
                    ...(fields < 0.5 ? {} : { 'f:ownerReferences': {} }),
                  },
                },
              },
            ],
          }
        : {}),
    },
    data: { 'application.properties': properties, 'logging.yaml': logging },
  };
}
