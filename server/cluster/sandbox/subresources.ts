// POST subresources: pods/binding (binding.ts), pods/eviction (kubernetes pkg/registry/core/pod/storage
// eviction.go: deletes the pod; PodDisruptionBudgets are not consulted) and serviceaccounts/token
// (pkg/registry/core/serviceaccount/storage/token.go: a bound token; the sandbox's is not a signed JWT).
import type { KubeObject } from '../../../shared/models/object';
import { bindPod } from './binding';
import type { SandboxContext } from './context';
import { deleteObject, parseDeleteOptions } from './delete';
import type { ResourceRequest } from './resource-handler';
import { newBadRequest, newNotFound } from './status-errors';
import { objectKey } from './storage';
import { grOf } from './context';
import { isObject, rfc3339 } from './util';

export const SUCCESS_201 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

/** Runs a POST on a subresource; returns the object to answer, or undefined for a Success Status. */
export function createOnSubresource(ctx: SandboxContext, r: ResourceRequest, body: unknown): KubeObject | undefined {
  const name = r.name as string;
  switch (r.subresource) {
    case 'binding':
      bindPod(ctx, r.type, r.namespace as string, name, body);
      return undefined;
    case 'eviction': {
      if (!isObject(body)) throw newBadRequest('the body of the request must be an Eviction');
      const opts = isObject(body.deleteOptions) ? body.deleteOptions : undefined;
      deleteObject(ctx, r.type, r.namespace, name, parseDeleteOptions(opts, new URLSearchParams()));
      return undefined;
    }
    case 'token': {
      const sa = ctx.storage.get(grOf(r.type), objectKey(r.namespace, name));
      if (!sa) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
      const spec = isObject(body) && isObject(body.spec) ? body.spec : {};
      const seconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : 3600;
      const now = ctx.clock.now();
      const claims = { sub: `system:serviceaccount:${r.namespace ?? ''}:${name}`, uid: sa.metadata.uid, iat: now };
      return {
        kind: 'TokenRequest',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { name, namespace: r.namespace, creationTimestamp: null },
        spec: { audiences: [], expirationSeconds: seconds, boundObjectRef: null, ...spec },
        status: {
          token: `sandbox.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`,
          expirationTimestamp: rfc3339(now + seconds * 1000),
        },
      } as unknown as KubeObject;
    }
  }
  throw newBadRequest(`${r.subresource ?? ''} does not take POST`);
}
