// A minimal OpenAPI v3 (kube-openapi handler3 layout): one document per group-version whose only
// content is a PATCH operation per kind carrying x-kubernetes-group-version-kind and an inline
// fieldValidation parameter. That is what kubectl 1.32 probes to turn on server-side field
// validation; listing no strategic-merge media type makes `kubectl apply` use its compiled-in
// strategic merge for built-ins and JSON merge patch for custom resources.
import { createHash } from 'node:crypto';
import { patchTypesFor } from './patch-handler';
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './resources';

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

function patchOperation(t: ResourceType): Record<string, unknown> {
  return {
    description: `partially update the specified ${t.kind}`,
    operationId: `patch${t.kind}`,
    parameters: [
      { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
      { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
      {
        name: 'fieldValidation',
        in: 'query',
        description:
          'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields.',
        schema: { type: 'string', uniqueItems: true },
      },
    ],
    requestBody: {
      content: Object.fromEntries(
        patchTypesFor(t)
          .filter((m) => !m.includes('strategic'))
          .map((m) => [m, { schema: { type: 'object' } }]),
      ),
      required: true,
    },
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
  };
}

export function openApiGroupVersionDoc(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const t of types) {
    const prefix = `/${gvPath(group, version)}`;
    const p = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.resource}/{name}` : `${prefix}/${t.resource}/{name}`;
    paths[p] = { patch: patchOperation(t) };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (controller-scope sandbox)', version: 'v1.32.0' },
    paths,
    components: { schemas: {} },
    'x-sandbox-apiVersion': types[0] ? apiVersionOf(types[0]) : '',
  };
}

export function hashDoc(doc: unknown): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
}

/** `/openapi/v3`: where each group-version's document lives, keyed by its content hash. */
export function openApiRoot(registry: ResourceRegistry): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const gvs: [string, string][] = [];
  for (const t of registry.all())
    if (!gvs.some(([g, v]) => g === t.group && v === t.version)) gvs.push([t.group, t.version]);
  for (const [g, v] of gvs) {
    const doc = openApiGroupVersionDoc(registry, g, v);
    paths[gvPath(g, v)] = { serverRelativeURL: `/openapi/v3/${gvPath(g, v)}?hash=${hashDoc(doc)}` };
  }
  return { paths };
}
