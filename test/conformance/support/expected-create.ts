// What kube-apiserver 1.36 answers to the create of each sample (everything but metadata), recorded from
// the real server; the built-in-resources case expects the same answer from every target.
import { expect } from 'vitest';

export const EXPECTED_CREATE: Record<string, { generation: number | null; body: Record<string, unknown> }> = {
  '/podtemplates': {
    generation: 1,
    body: {
      template: {
        metadata: { labels: { app: 't' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.example/app:1',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
    },
  },
  '/replicationcontrollers': {
    generation: 1,
    body: {
      spec: {
        replicas: 1,
        selector: { app: 'rc' },
        template: {
          metadata: { labels: { app: 'rc' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'registry.example/app:1',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
      },
      status: { replicas: 0 },
    },
  },
  '/endpoints': {
    generation: null,
    body: { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] }] },
  },
  '/persistentvolumeclaims': {
    generation: null,
    body: {
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    },
  },
  '/persistentvolumes': {
    generation: null,
    body: {
      spec: {
        capacity: { storage: '1Gi' },
        hostPath: { path: '/data', type: '' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Pending', lastPhaseTransitionTime: expect.any(String) },
    },
  },
  '/limitranges': {
    generation: null,
    body: { spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '500m' } }] } },
  },
  '/resourcequotas': { generation: null, body: { spec: { hard: { pods: '10' } }, status: {} } },
  'apps/statefulsets': {
    generation: 1,
    body: {
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'ss' } },
        template: {
          metadata: { labels: { app: 'ss' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'registry.example/app:1',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        serviceName: '',
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      },
      status: { replicas: 0, availableReplicas: 0 },
    },
  },
  'apps/daemonsets': {
    generation: 1,
    body: {
      spec: {
        selector: { matchLabels: { app: 'ds' } },
        template: {
          metadata: { labels: { app: 'ds' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'registry.example/app:1',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        revisionHistoryLimit: 10,
      },
      status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    },
  },
  'apps/controllerrevisions': { generation: null, body: { data: { spec: {} }, revision: 1 } },
  'batch/jobs': {
    generation: 1,
    body: {
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 6,
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': expect.any(String) } },
        manualSelector: false,
        template: {
          metadata: {
            labels: {
              'batch.kubernetes.io/controller-uid': expect.any(String),
              'batch.kubernetes.io/job-name': 'sample',
              'controller-uid': expect.any(String),
              'job-name': 'sample',
            },
          },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'registry.example/app:1',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            restartPolicy: 'Never',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
      },
      status: {},
    },
  },
  'batch/cronjobs': {
    generation: 1,
    body: {
      spec: {
        schedule: '*/5 * * * *',
        concurrencyPolicy: 'Allow',
        suspend: false,
        jobTemplate: {
          metadata: {},
          spec: {
            template: {
              metadata: {},
              spec: {
                containers: [
                  {
                    name: 'app',
                    image: 'registry.example/app:1',
                    resources: {},
                    terminationMessagePath: '/dev/termination-log',
                    terminationMessagePolicy: 'File',
                    imagePullPolicy: 'IfNotPresent',
                  },
                ],
                restartPolicy: 'OnFailure',
                terminationGracePeriodSeconds: 30,
                dnsPolicy: 'ClusterFirst',
                securityContext: {},
                schedulerName: 'default-scheduler',
              },
            },
          },
        },
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
      },
      status: {},
    },
  },
  'autoscaling/horizontalpodautoscalers': {
    generation: null,
    body: {
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        ],
      },
      status: { desiredReplicas: 0, currentMetrics: null },
    },
  },
  'rbac.authorization.k8s.io/roles': {
    generation: null,
    body: { rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
  },
  'rbac.authorization.k8s.io/rolebindings': {
    generation: null,
    body: {
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    },
  },
  'rbac.authorization.k8s.io/clusterroles': {
    generation: null,
    body: { rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
  },
  'rbac.authorization.k8s.io/clusterrolebindings': {
    generation: null,
    body: {
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
    },
  },
  'networking.k8s.io/ingresses': {
    generation: 1,
    body: {
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
      status: { loadBalancer: {} },
    },
  },
  'networking.k8s.io/ingressclasses': { generation: 1, body: { spec: { controller: 'example.com/ingress' } } },
  'networking.k8s.io/networkpolicies': { generation: 1, body: { spec: { podSelector: {}, policyTypes: ['Ingress'] } } },
  'policy/poddisruptionbudgets': {
    generation: 1,
    body: {
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  'discovery.k8s.io/endpointslices': {
    generation: 1,
    body: {
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], conditions: {} }],
      ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
    },
  },
  'storage.k8s.io/storageclasses': {
    generation: null,
    body: { provisioner: 'example.com/disk', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' },
  },
  'storage.k8s.io/csidrivers': {
    generation: null,
    body: {
      spec: {
        attachRequired: true,
        podInfoOnMount: false,
        volumeLifecycleModes: ['Persistent'],
        storageCapacity: false,
        fsGroupPolicy: 'ReadWriteOnceWithFSType',
        requiresRepublish: false,
        seLinuxMount: false,
      },
    },
  },
  'scheduling.k8s.io/priorityclasses': {
    generation: 1,
    body: { value: 1000, preemptionPolicy: 'PreemptLowerPriority' },
  },
  'node.k8s.io/runtimeclasses': { generation: null, body: { handler: 'runc' } },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': {
    generation: 1,
    body: {
      webhooks: [
        {
          name: 'v.example.com',
          clientConfig: { url: 'https://webhook.example/validate' },
          rules: [
            {
              operations: ['CREATE'],
              apiGroups: ['sample.example.com'],
              apiVersions: ['v1'],
              resources: ['widgets'],
              scope: '*',
            },
          ],
          failurePolicy: 'Fail',
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          sideEffects: 'None',
          timeoutSeconds: 10,
          admissionReviewVersions: ['v1'],
        },
      ],
    },
  },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': {
    generation: 1,
    body: {
      webhooks: [
        {
          name: 'm.example.com',
          clientConfig: { url: 'https://webhook.example/validate' },
          rules: [
            {
              operations: ['CREATE'],
              apiGroups: ['sample.example.com'],
              apiVersions: ['v1'],
              resources: ['widgets'],
              scope: '*',
            },
          ],
          failurePolicy: 'Fail',
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          sideEffects: 'None',
          timeoutSeconds: 10,
          admissionReviewVersions: ['v1'],
          reinvocationPolicy: 'Never',
        },
      ],
    },
  },
  'certificates.k8s.io/certificatesigningrequests': {
    generation: null,
    body: {
      spec: {
        request: expect.any(String),
        signerName: 'example.com/signer',
        usages: ['client auth'],
        username: 'admin',
        groups: ['system:masters', 'system:authenticated'],
      },
      status: {},
    },
  },
};
