// Create-only built-ins that store nothing: the authentication/authorization reviews (kubernetes
// pkg/registry/authentication, pkg/registry/authorization) and core `bindings`. The sandbox has no
// authentication or authorization, so every review answers as kube-apiserver does for a cluster admin:
// every request allowed, the caller is the sandbox's one user.
import type { KubeObject } from '../../../shared/models/object';
import { bindPod } from './binding';
import type { SandboxContext } from './context';
import { SANDBOX_USER } from './defaults-kinds';
import { newBadRequest } from './status-errors';
import { isObject, rfc3339 } from './util';

type Review = (ctx: SandboxContext, namespace: string | undefined, body: KubeObject) => KubeObject | undefined;

const ALLOWED = { allowed: true, reason: 'the sandbox authorizes every request' };

function withStatus(body: KubeObject, status: Record<string, unknown>): KubeObject {
  const { metadata: _m, ...rest } = body;
  return { ...rest, metadata: {}, status };
}

const REVIEWS: Record<string, Review> = {
  '/bindings': (ctx, namespace, body) => {
    const pods = ctx.registry.get('', 'v1', 'pods');
    if (!pods || !namespace) throw newBadRequest('a Binding needs a namespace');
    bindPod(ctx, pods, namespace, body.metadata.name ?? '', body);
    return undefined;
  },
  'authorization.k8s.io/selfsubjectaccessreviews': (_c, _n, body) => withStatus(body, { allowed: true }),
  'authorization.k8s.io/subjectaccessreviews': (_c, _n, body) => withStatus(body, ALLOWED),
  'authorization.k8s.io/localsubjectaccessreviews': (_c, namespace, body) => {
    const spec = isObject(body.spec) ? body.spec : {};
    const attrs = isObject(spec.resourceAttributes) ? spec.resourceAttributes : {};
    if (attrs.namespace !== namespace)
      throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace ?? ''}`);
    return { ...withStatus(body, ALLOWED), metadata: { namespace } };
  },
  'authorization.k8s.io/selfsubjectrulesreviews': (_c, _n, body) =>
    withStatus(body, {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    }),
  'authentication.k8s.io/selfsubjectreviews': (ctx, _n, body) => ({
    ...withStatus(body, { userInfo: { ...SANDBOX_USER, groups: [...SANDBOX_USER.groups] } }),
    metadata: { creationTimestamp: rfc3339(ctx.clock.now()) },
  }),
  'authentication.k8s.io/tokenreviews': (_c, _n, body) => {
    const spec = isObject(body.spec) ? body.spec : {};
    if (!spec.token) throw newBadRequest('TokenReview "" is invalid: spec.token: Required value: token must be set');
    return withStatus(body, {
      authenticated: true,
      user: { ...SANDBOX_USER, groups: [...SANDBOX_USER.groups] },
      audiences: Array.isArray(spec.audiences) ? spec.audiences : [],
    });
  },
};

export function virtualCreate(group: string, resource: string): Review {
  const review = REVIEWS[`${group}/${resource}`];
  if (review) return review;
  return () => {
    throw newBadRequest(`${resource} are not served by the sandbox`);
  };
}
