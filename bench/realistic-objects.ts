// Objects of the size and shape a real cluster serves, generated deterministically so every peer gets the same
// bytes: Pods of 3–8 KB (labels, annotations, an owner reference, two containers with env and resources,
// status with conditions and container statuses, managedFields) and a custom resource of similar weight.

import { prng } from '../shared/prng';

type Json = Record<string, unknown>;

const hex = (rnd: () => number, n: number): string =>
  Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
const uid = (rnd: () => number): string =>
  `${hex(rnd, 8)}-${hex(rnd, 4)}-${hex(rnd, 4)}-${hex(rnd, 4)}-${hex(rnd, 12)}`;
const TS = '2026-11-30T10:00:00Z';

function managedFields(rnd: () => number): Json[] {
  const fields = (n: number, prefix: string): Json =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`f:${prefix}${i}`, {}]));
  return [
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time: TS,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': fields(4, 'l'), 'f:ownerReferences': {} },
        'f:spec': fields(6 + Math.floor(rnd() * 6), 's'),
      },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: TS,
      fieldsType: 'FieldsV1',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:conditions': fields(4, 'c'), 'f:containerStatuses': {}, 'f:podIP': {} } },
    },
  ];
}

function container(rnd: () => number, name: string, envs: number): Json {
  return {
    name,
    image: `registry.example.com/team/${name}:v1.${Math.floor(rnd() * 40)}.${Math.floor(rnd() * 10)}`,
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: Array.from({ length: envs }, (_, i) => ({
      name: `SETTING_${i}_${hex(rnd, 4).toUpperCase()}`,
      value: hex(rnd, 8 + Math.floor(rnd() * 24)),
    })),
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
    volumeMounts: [
      { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ],
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

/** managedFields draw from a generator of their own, so an object without them equals one with them dropped. */
const fieldsRnd = (seed: number, i: number): (() => number) => prng(seed * 7_919 + i + 1_000_000_007);

/** Pod i of a cluster; withManagedFields false drops them (as a transform would). Sizes spread over 3–8 KB. */
export function realisticPod(i: number, resourceVersion: number, withManagedFields = true, seed = 1): Json {
  const rnd = prng(seed * 1_000_003 + i);
  const ns = `team-${i % 20}`;
  const app = `svc-${i % 250}`;
  const rs = `${app}-${hex(rnd, 10)}`;
  const envs = Math.floor(rnd() * 44);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rs}-${hex(rnd, 5)}`,
      namespace: ns,
      uid: uid(rnd),
      resourceVersion: String(resourceVersion),
      generateName: `${rs}-`,
      creationTimestamp: TS,
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
      ...(withManagedFields ? { managedFields: managedFields(fieldsRnd(seed, i)) } : {}),
    },
    spec: {
      containers: [container(rnd, 'app', envs), container(rnd, 'sidecar', Math.floor(envs / 3))],
      volumes: [
        {
          name: 'kube-api-access',
          projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }] },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${i % 50}`,
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      enableServiceLinks: true,
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
        (type) => ({
          type,
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: TS,
        }),
      ),
      hostIP: `10.0.${i % 50}.1`,
      podIP: `10.244.${(i >> 8) % 256}.${i % 256}`,
      startTime: TS,
      qosClass: 'Burstable',
      containerStatuses: ['app', 'sidecar'].map((name) => ({
        name,
        ready: true,
        restartCount: Math.floor(rnd() * 3),
        image: `registry.example.com/team/${name}:v1`,
        imageID: `registry.example.com/team/${name}@sha256:${hex(rnd, 64)}`,
        containerID: `containerd://${hex(rnd, 64)}`,
        started: true,
        state: { running: { startedAt: TS } },
      })),
    },
  };
}

/** A custom resource of similar weight: spec with nested lists, status with conditions. */
export function realisticWidget(i: number, resourceVersion: number, withManagedFields = true, seed = 2): Json {
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
      ...(withManagedFields ? { managedFields: managedFields(fieldsRnd(seed, i)) } : {}),
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
