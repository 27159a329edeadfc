// Connects to any cluster the way controller-runtime's GetConfig finds it (--kubeconfig, KUBECONFIG,
// in-cluster, ~/.kube/config; --context overrides), then probes it: GET /version, then an authenticated
// call (a SelfSubjectAccessReview, or a list when the server has no authorization API). Every failure
// becomes a ClusterConnectError whose message says what went wrong and what to do.
import type { GroupVersionResource } from '../../shared/models/object';
import type { GetConfigOptions, RestConfig } from '../runtime/client';
import {
  ConfigError,
  getConfig,
  groupResourceString,
  HttpClient,
  resourcePath,
  TransportReason,
} from '../runtime/client';
import { ApiError, errorMessage } from '../runtime';

export type ClusterConnectReason =
  ConfigError['reason'] | 'Unreachable' | 'TLSError' | 'Unauthorized' | 'Forbidden' | 'ServerError';

export class ClusterConnectError extends Error {
  override readonly name = 'ClusterConnectError';
  constructor(
    readonly reason: ClusterConnectReason,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export interface ServerVersion {
  major?: string;
  minor?: string;
  gitVersion?: string;
  platform?: string;
}

/** A resource the caller will list/watch, so missing RBAC is named before an informer hangs on it. */
export interface AccessRequirement {
  gvr: GroupVersionResource;
  /** Default ['list', 'watch'] (what an informer needs). */
  verbs?: string[];
  /** Check in this namespace; omit for cluster-wide. */
  namespace?: string;
  /** Kind name for messages, e.g. "Pod"; defaults to the resource name. */
  kind?: string;
}

export interface ConnectClusterOptions extends GetConfigOptions {
  /** Resources to check access for after connecting. Default none (authentication is still checked). */
  access?: AccessRequirement[];
  /** Throw a Forbidden ClusterConnectError when an access check finds missing verbs. Default true. */
  failOnMissingAccess?: boolean;
  signal?: AbortSignal;
}

export interface ClusterConnection {
  config: RestConfig;
  http: HttpClient;
  version: ServerVersion;
  access: AccessResult[];
}

export interface AccessResult {
  gvr: GroupVersionResource;
  namespace?: string;
  kind: string;
  allowed: string[];
  missing: string[];
  /** Verbs that could not be checked (no authorization API and no safe request to try). */
  unknown: string[];
  method: 'SelfSubjectAccessReview' | 'request';
  /** Set when something is missing: names the kind, verbs and the RBAC rule that would fix it. */
  message?: string;
}

/** Loads the config, probes the server and checks the requested access. Throws ClusterConnectError. */
export async function connectCluster(opts: ConnectClusterOptions = {}): Promise<ClusterConnection> {
  let config: RestConfig;
  try {
    config = getConfig(opts);
  } catch (err) {
    if (err instanceof ConfigError) throw new ClusterConnectError(err.reason, err.message, err);
    throw err;
  }
  const http = new HttpClient({ config });
  const version = await probeCluster(http, opts.signal);
  const access: AccessResult[] = [];
  for (const req of opts.access ?? []) {
    access.push(await checkAccess(http, req.gvr, req.verbs ?? ['list', 'watch'], req));
  }
  const missing = access.filter((a) => a.missing.length > 0);
  if (missing.length > 0 && (opts.failOnMissingAccess ?? true)) {
    throw new ClusterConnectError('Forbidden', missing.map((a) => a.message).join('\n'));
  }
  return { config, http, version, access };
}

/** GET /version, then one authenticated request, so bad credentials fail here rather than in an informer. */
export async function probeCluster(http: HttpClient, signal?: AbortSignal): Promise<ServerVersion> {
  const where = describe(http.config);
  let version: ServerVersion;
  try {
    version = (await http.request<ServerVersion>({ path: '/version', signal })) ?? {};
  } catch (err) {
    throw explain(err, where, 'GET /version');
  }
  try {
    // Any authenticated user may create a SelfSubjectAccessReview; its answer does not matter here.
    await accessReview(http, { group: '', version: 'v1', resource: 'namespaces' }, 'list', undefined, signal);
  } catch (err) {
    if (!(err instanceof ApiError) || (err.code !== 404 && err.code !== 403))
      throw explain(err, where, 'authentication check');
    try {
      await http.request({ path: '/api', signal });
    } catch (err2) {
      throw explain(err2, where, 'GET /api');
    }
  }
  return version;
}

/**
 * Which of `verbs` the current user may use on a resource. Asks SelfSubjectAccessReview; when the server has
 * no authorization API (404), tries list/watch/get requests instead and reports other verbs as unknown.
 */
export async function checkAccess(
  target: RestConfig | HttpClient,
  gvr: GroupVersionResource,
  verbs: string[],
  opts: { namespace?: string; kind?: string; signal?: AbortSignal } = {},
): Promise<AccessResult> {
  const http = target instanceof HttpClient ? target : new HttpClient({ config: target });
  const result: AccessResult = {
    gvr,
    namespace: opts.namespace,
    kind: opts.kind ?? gvr.resource,
    allowed: [],
    missing: [],
    unknown: [],
    method: 'SelfSubjectAccessReview',
  };
  for (const verb of verbs) {
    let allowed: boolean | undefined;
    try {
      allowed = await accessReview(http, gvr, verb, opts.namespace, opts.signal);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.code !== 404 && err.code !== 403)) {
        throw explain(err, describe(http.config), `access check for ${groupResourceString(gvr)}`);
      }
      result.method = 'request';
      allowed = await tryVerb(http, gvr, verb, opts.namespace, opts.signal);
    }
    if (allowed === undefined) result.unknown.push(verb);
    else (allowed ? result.allowed : result.missing).push(verb);
  }
  if (result.missing.length > 0) result.message = accessMessage(result, http.config);
  else if (result.method === 'SelfSubjectAccessReview' && result.allowed.includes('list')) {
    // The review answers for RBAC; another authorizer or an admission layer may still refuse the request.
    // Confirmed with one real limit=1 LIST, so such a 403 fails here, naming this kind, instead of every
    // informer retrying it until its cache-sync timeout (2 minutes) and the first to give up naming its own.
    const refused = await listRefusal(http, gvr, opts.namespace, opts.signal);
    if (refused !== undefined) {
      result.allowed = result.allowed.filter((v) => v !== 'list');
      result.missing.push('list');
      result.message = listRefusedMessage(result, http.config, refused);
    }
  }
  return result;
}

/** The server's message when a limit=1 LIST answers 403; undefined when it is allowed. */
async function listRefusal(
  http: HttpClient,
  gvr: GroupVersionResource,
  namespace: string | undefined,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    await http.request({ path: resourcePath(gvr, { namespace }), query: { limit: 1 }, signal });
    return undefined;
  } catch (err) {
    if (err instanceof ApiError && err.code === 403) return err.message.slice(0, 500);
    throw explain(err, describe(http.config), `list ${groupResourceString(gvr)}`);
  }
}

function listRefusedMessage(r: AccessResult, config: RestConfig, serverMessage: string): string {
  const scope = r.namespace ? `in namespace "${r.namespace}"` : 'cluster-wide';
  return (
    `cannot list ${r.kind} (${groupResourceString(r.gvr)}) ${scope}: SelfSubjectAccessReview allows it for the ` +
    `user of context "${config.contextName}", but the LIST itself answered 403 Forbidden (${serverMessage}). ` +
    'Something besides RBAC refuses it: an authorization webhook, or an admission or API-priority policy.'
  );
}

async function accessReview(
  http: HttpClient,
  gvr: GroupVersionResource,
  verb: string,
  namespace: string | undefined,
  signal?: AbortSignal,
): Promise<boolean> {
  const review = await http.request<{ status?: { allowed?: boolean } }>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { group: gvr.group, version: gvr.version, resource: gvr.resource, verb, namespace } },
    },
    signal,
  });
  return review?.status?.allowed === true;
}

/** Without an authorization API: a read verb is tried for real (limit=1 list, a watch closed at once). */
async function tryVerb(
  http: HttpClient,
  gvr: GroupVersionResource,
  verb: string,
  namespace: string | undefined,
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  if (verb !== 'list' && verb !== 'watch' && verb !== 'get') return undefined;
  const path = resourcePath(gvr, { namespace });
  try {
    if (verb === 'watch') {
      const stream = await http.stream({ path, query: { watch: true, timeoutSeconds: 1 }, signal });
      stream.stop();
    } else {
      await http.request({ path, query: { limit: 1 }, signal });
    }
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 403) return false;
    throw explain(err, describe(http.config), `${verb} ${groupResourceString(gvr)}`);
  }
}

function accessMessage(r: AccessResult, config: RestConfig): string {
  const scope = r.namespace ? `in namespace "${r.namespace}"` : 'cluster-wide';
  const binding = r.namespace
    ? `a Role in "${r.namespace}" (or a ClusterRole) bound`
    : 'a ClusterRole bound with a ClusterRoleBinding';
  return (
    `missing RBAC for ${r.kind} (${groupResourceString(r.gvr)}) ${scope}: the user of context "${config.contextName}" ` +
    `cannot ${r.missing.join(', ')}. Grant ${binding} with rules: apiGroups ["${r.gvr.group}"], ` +
    `resources ["${r.gvr.resource}"], verbs [${r.missing.map((v) => `"${v}"`).join(', ')}].`
  );
}

function describe(config: RestConfig): string {
  let host: string;
  try {
    host = config.host;
  } catch {
    host = '(no server)';
  }
  return `the API server at ${host} (context "${config.contextName}" from ${config.source})`;
}

/** Turns an error of a probe step into a ClusterConnectError that says what to do. */
function explain(err: unknown, where: string, step: string): ClusterConnectError {
  if (err instanceof ClusterConnectError) return err;
  if (!(err instanceof ApiError))
    return new ClusterConnectError('ServerError', `${step} against ${where} failed: ${errorMessage(err)}`, err);
  if (err.code === 0) {
    if (err.reason === TransportReason.TLSError)
      return new ClusterConnectError('TLSError', `${step}: ${err.message}`, err);
    if (err.reason === TransportReason.ConfigError)
      return new ClusterConnectError('Invalid', `${step}: ${err.message}`, err);
    const ctx = where.slice(where.indexOf('(context'));
    return new ClusterConnectError('Unreachable', `${step}: ${err.message} Using ${ctx.slice(1, -1)}.`, err);
  }
  if (err.code === 401) return new ClusterConnectError('Unauthorized', err.message, err);
  if (err.code === 403) {
    return new ClusterConnectError(
      'Forbidden',
      `${step} was forbidden by ${where}: ${err.message}. Ask for RBAC that allows it, or use another context.`,
      err,
    );
  }
  return new ClusterConnectError(
    'ServerError',
    `${step} against ${where} failed with ${err.code} ${err.reason}: ${err.message}`,
    err,
  );
}
