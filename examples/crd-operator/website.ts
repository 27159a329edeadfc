// The Website custom resource: its Go-style types, the kinds the controller touches, and the
// CustomResourceDefinition the example installs. A Website asks for a static site: an nginx Deployment
// serving a page (from a ConfigMap the user names, or a default one), behind a Service.
import type { Condition, KubeObject } from 'controller-scope';

export const GROUP = 'example.controller-scope.dev';
export const VERSION = 'v1alpha1';
export const Website = { apiVersion: `${GROUP}/${VERSION}`, kind: 'Website' } as const;
export const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
export const Deployment = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
export const Service = { apiVersion: 'v1', kind: 'Service' } as const;
export const Namespace = { apiVersion: 'v1', kind: 'Namespace' } as const;

/** Held while the site is listed in its namespace's directory ConfigMap; removed once the entry is gone. */
export const FINALIZER = `${GROUP}/directory-entry`;
/** The field index over Websites by the ConfigMap they read their page from. */
export const CONTENT_CONFIGMAP_INDEX = 'spec.contentFrom.configMapName';
/** Pods roll when the page changes: its hash is a pod-template annotation. */
export const CONTENT_HASH_ANNOTATION = `${GROUP}/content-hash`;
/** One ConfigMap per namespace lists every site's URL (shared, so owner references cannot clean it up). */
export const DIRECTORY_CONFIGMAP = 'website-directory';

export const CONDITION_AVAILABLE = 'Available';
export const CONDITION_CONTENT_READY = 'ContentReady';

export interface WebsiteSpec {
  /** Container image serving /usr/share/nginx/html. Default nginx:1.27-alpine. */
  image?: string;
  /** Default 1. */
  replicas?: number;
  /** Heading of the default page, when no contentFrom is given. */
  title?: string;
  /** A ConfigMap in the same namespace whose `index.html` key is the page. */
  contentFrom?: { configMapName?: string };
}

export interface WebsiteStatus {
  observedGeneration?: number;
  availableReplicas?: number;
  url?: string;
  conditions?: Condition[];
  /** When the controller last reconciled. Writing this on every pass is the bug in controller-buggy.ts. */
  lastReconcileTime?: string;
}

export interface WebsiteObject extends KubeObject {
  spec?: WebsiteSpec;
  status?: WebsiteStatus;
}

const condition = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    reason: { type: 'string' },
    message: { type: 'string' },
  },
};

export const websiteCRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `websites.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'websites', singular: 'website', kind: 'Website', listKind: 'WebsiteList', shortNames: ['ws'] },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
          { name: 'URL', type: 'string', jsonPath: '.status.url' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  image: { type: 'string' },
                  replicas: { type: 'integer', minimum: 0, maximum: 20 },
                  title: { type: 'string' },
                  contentFrom: { type: 'object', properties: { configMapName: { type: 'string' } } },
                },
              },
              status: {
                type: 'object',
                properties: {
                  observedGeneration: { type: 'integer', format: 'int64' },
                  availableReplicas: { type: 'integer' },
                  url: { type: 'string' },
                  lastReconcileTime: { type: 'string', format: 'date-time' },
                  conditions: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['type'],
                    items: condition,
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};
