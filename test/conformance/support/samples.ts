// One minimal valid object per built-in resource an operator creates, as a user would write it. The
// built-in-resources case creates, reads, lists, updates and deletes each one on every target and checks
// the defaults kube-apiserver fills in.
import type { KubeObject } from '../../../shared/models/object';

const podSpec = { containers: [{ name: 'app', image: 'registry.example/app:1' }] };
const template = (app: string): Record<string, unknown> => ({ metadata: { labels: { app } }, spec: podSpec });
const selector = (app: string): Record<string, unknown> => ({ matchLabels: { app } });
const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }];
const webhook = (name: string): Record<string, unknown> => ({
  name,
  clientConfig: { url: 'https://webhook.example/validate' },
  // A group no request uses: kube-apiserver calls registered webhooks, this one must never match.
  rules: [{ operations: ['CREATE'], apiGroups: ['sample.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
// A CSR needs a PEM request (an EC key's, for CN=sample); it is only parsed, never signed.
const CSR_PEM =
  '-----BEGIN CERTIFICATE REQUEST-----\n' +
  'MIHMMHMCAQAwETEPMA0GA1UEAwwGc2FtcGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0D\n' +
  'AQcDQgAECIf6IaMeFK1LgcZ/87MwtjU7mWBWwJ+k6wmGNG1FppHmjRp0Y2nOdusw\n' +
  'QX7hlUXqesN7u1JQ4GqSTqvD0hKmhKAAMAoGCCqGSM49BAMCA0kAMEYCIQCqQa4B\n' +
  'q0r7cyxM6/br0DUei3H+Av8vN3OorQvUWAspWwIhAL+NZ9koTwSjxilJvL3f24Ng\n' +
  'PEjZX1YDvKtfSJd8rkpe\n' +
  '-----END CERTIFICATE REQUEST-----\n';

export interface Sample {
  /** group/resource, e.g. apps/statefulsets (core: /pods). */
  gr: string;
  object: (namespace: string, name: string) => KubeObject;
  /** A change an update makes (merged into the object read back). */
  change: Record<string, unknown>;
}

const o =
  (apiVersion: string, kind: string, body: Record<string, unknown> = {}) =>
  (namespace: string | undefined, name: string): KubeObject => ({
    apiVersion,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), labels: { sample: 'yes' } },
    ...body,
  });
const ns = (f: (n: string | undefined, name: string) => KubeObject) => (n: string, name: string) => f(n, name);
const cluster = (f: (n: string | undefined, name: string) => KubeObject) => (_n: string, name: string) =>
  f(undefined, name);
const relabel = { metadata: { labels: { sample: 'changed' } } };

export const SAMPLES: Sample[] = [
  { gr: '/podtemplates', object: ns(o('v1', 'PodTemplate', { template: template('t') })), change: relabel },
  {
    gr: '/replicationcontrollers',
    object: ns(o('v1', 'ReplicationController', { spec: { selector: { app: 'rc' }, template: template('rc') } })),
    change: relabel,
  },
  {
    gr: '/endpoints',
    object: ns(o('v1', 'Endpoints', { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] })),
    change: relabel,
  },
  {
    gr: '/persistentvolumeclaims',
    object: ns(
      o('v1', 'PersistentVolumeClaim', {
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
    ),
    change: relabel,
  },
  {
    gr: '/persistentvolumes',
    object: cluster(
      o('v1', 'PersistentVolume', {
        spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
      }),
    ),
    change: relabel,
  },
  {
    gr: '/limitranges',
    object: ns(o('v1', 'LimitRange', { spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] } })),
    change: relabel,
  },
  { gr: '/resourcequotas', object: ns(o('v1', 'ResourceQuota', { spec: { hard: { pods: '10' } } })), change: relabel },
  {
    gr: 'apps/statefulsets',
    object: ns(o('apps/v1', 'StatefulSet', { spec: { selector: selector('ss'), template: template('ss') } })),
    change: { spec: { replicas: 2 } },
  },
  {
    gr: 'apps/daemonsets',
    object: ns(o('apps/v1', 'DaemonSet', { spec: { selector: selector('ds'), template: template('ds') } })),
    change: relabel,
  },
  {
    gr: 'apps/controllerrevisions',
    object: ns(o('apps/v1', 'ControllerRevision', { revision: 1, data: { spec: {} } })),
    change: relabel,
  },
  {
    gr: 'batch/jobs',
    object: ns(
      o('batch/v1', 'Job', {
        spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } },
      }),
    ),
    change: relabel,
  },
  {
    gr: 'batch/cronjobs',
    object: ns(
      o('batch/v1', 'CronJob', {
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } },
        },
      }),
    ),
    change: { spec: { suspend: true } },
  },
  {
    gr: 'autoscaling/horizontalpodautoscalers',
    object: ns(
      o('autoscaling/v2', 'HorizontalPodAutoscaler', {
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
      }),
    ),
    change: { spec: { maxReplicas: 4 } },
  },
  {
    gr: 'rbac.authorization.k8s.io/roles',
    object: ns(o('rbac.authorization.k8s.io/v1', 'Role', { rules })),
    change: relabel,
  },
  {
    gr: 'rbac.authorization.k8s.io/rolebindings',
    object: ns(
      o('rbac.authorization.k8s.io/v1', 'RoleBinding', {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }],
      }),
    ),
    change: relabel,
  },
  {
    gr: 'rbac.authorization.k8s.io/clusterroles',
    object: cluster(o('rbac.authorization.k8s.io/v1', 'ClusterRole', { rules })),
    change: relabel,
  },
  {
    gr: 'rbac.authorization.k8s.io/clusterrolebindings',
    object: cluster(
      o('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
      }),
    ),
    change: relabel,
  },
  {
    gr: 'networking.k8s.io/ingresses',
    object: ns(
      o('networking.k8s.io/v1', 'Ingress', {
        spec: {
          rules: [
            {
              host: 'web.example',
              http: {
                paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
              },
            },
          ],
        },
      }),
    ),
    change: relabel,
  },
  {
    gr: 'networking.k8s.io/ingressclasses',
    object: cluster(o('networking.k8s.io/v1', 'IngressClass', { spec: { controller: 'example.com/ingress' } })),
    change: relabel,
  },
  {
    gr: 'networking.k8s.io/networkpolicies',
    object: ns(o('networking.k8s.io/v1', 'NetworkPolicy', { spec: { podSelector: {} } })),
    change: relabel,
  },
  {
    gr: 'policy/poddisruptionbudgets',
    object: ns(o('policy/v1', 'PodDisruptionBudget', { spec: { minAvailable: 1, selector: selector('web') } })),
    change: relabel,
  },
  {
    gr: 'discovery.k8s.io/endpointslices',
    object: ns(
      o('discovery.k8s.io/v1', 'EndpointSlice', {
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.1'] }],
        ports: [{ name: 'http', port: 80 }],
      }),
    ),
    change: relabel,
  },
  {
    gr: 'storage.k8s.io/storageclasses',
    object: cluster(o('storage.k8s.io/v1', 'StorageClass', { provisioner: 'example.com/disk' })),
    change: relabel,
  },
  {
    gr: 'storage.k8s.io/csidrivers',
    object: cluster(o('storage.k8s.io/v1', 'CSIDriver', { spec: {} })),
    change: relabel,
  },
  {
    gr: 'scheduling.k8s.io/priorityclasses',
    object: cluster(o('scheduling.k8s.io/v1', 'PriorityClass', { value: 1000 })),
    change: relabel,
  },
  {
    gr: 'node.k8s.io/runtimeclasses',
    object: cluster(o('node.k8s.io/v1', 'RuntimeClass', { handler: 'runc' })),
    change: relabel,
  },
  {
    gr: 'admissionregistration.k8s.io/validatingwebhookconfigurations',
    object: cluster(
      o('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', { webhooks: [webhook('v.example.com')] }),
    ),
    change: relabel,
  },
  {
    gr: 'admissionregistration.k8s.io/mutatingwebhookconfigurations',
    object: cluster(
      o('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', { webhooks: [webhook('m.example.com')] }),
    ),
    change: relabel,
  },
  {
    gr: 'certificates.k8s.io/certificatesigningrequests',
    object: cluster(
      o('certificates.k8s.io/v1', 'CertificateSigningRequest', {
        spec: {
          request: Buffer.from(CSR_PEM).toString('base64'),
          signerName: 'example.com/signer',
          usages: ['client auth'],
        },
      }),
    ),
    change: relabel,
  },
];
