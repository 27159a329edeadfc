// The custom resource every example here reconciles: a Widget asks for a ConfigMap child holding its size.
// Scenarios install the CRD in `prepare`, so the controllers start against a cluster that serves it.
import type { KubeObject } from 'controller-scope';

export const GROUP = 'testlab.controller-scope.dev';
export const Widget = { apiVersion: `${GROUP}/v1`, kind: 'Widget' } as const;
export const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
/** Children carry their widget's name here, so a list finds them. */
export const WIDGET_LABEL = `${GROUP}/widget`;

export interface WidgetObject extends KubeObject {
  spec?: { size?: number; phase?: string };
  status?: { observedGeneration?: number; child?: string; prepared?: boolean };
}

export const widgetCRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer' }, phase: { type: 'string' } } },
              status: {
                type: 'object',
                properties: {
                  observedGeneration: { type: 'integer' },
                  child: { type: 'string' },
                  prepared: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

export function widget(name: string, spec: WidgetObject['spec'] = {}): WidgetObject {
  return { ...Widget, metadata: { name, namespace: 'default' }, spec };
}

export const sizeOf = (w: WidgetObject): string => String(w.spec?.size ?? 1);
