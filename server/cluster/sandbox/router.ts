// URL dispatch: apiserver pkg/endpoints/installer.go path layout, the non-resource handlers
// (/version, health checks, discovery, OpenAPI) and the mapping of resource paths to a type.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, aggregatedDiscovery } from './discovery';
import { notFound, sendError, sendJson, sendText, wantsPretty } from './http-util';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, negotiateOutput } from './negotiation';
import { hashDoc, openApiGroupVersionDoc, openApiRoot } from './openapi';
import { handleResource, type ResourceHandlerDeps, type ResourceRequest } from './resource-handler';
import type { ResourceRegistry } from './resources';

/** The Kubernetes version the sandbox reports by default (kubectl 1.32 is the reference client). */
export const DEFAULT_KUBERNETES_VERSION = 'v1.32.0';

/** version.Info for a semver like `v1.36.3`; major/minor must be plain integers for e2e clients. */
export function versionInfo(gitVersion: string): Record<string, string> {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '32',
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.23.4',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export interface RouterDeps extends ResourceHandlerDeps {
  isReady(): boolean;
  /** gitVersion served at /version. */
  version: string;
  hostPort(): string;
}

const HEALTH_CHECKS = [
  'ping',
  'log',
  'etcd',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
];

function health(res: ServerResponse, path: string, q: URLSearchParams, ok: boolean): void {
  const kind = path.split('/')[1] as string;
  const single = path.split('/').slice(2).join('/');
  const excluded = q.getAll('exclude');
  const checks = (single ? HEALTH_CHECKS.filter((c) => c === single) : HEALTH_CHECKS).filter(
    (c) => !excluded.includes(c),
  );
  if (single && checks.length === 0) return notFound(res);
  const failing = (c: string): boolean => !ok && kind === 'readyz' && c.startsWith('poststarthook');
  const allOk = checks.every((c) => !failing(c));
  if (!q.has('verbose') && allOk) return sendText(res, 200, 'ok');
  const lines = checks.map((c) => (failing(c) ? `[-]${c} failed: reason withheld` : `[+]${c} ok`));
  lines.push(allOk ? `${kind} check passed` : `${kind} check failed`);
  sendText(res, allOk ? 200 : 500, lines.join('\n') + '\n');
}

function parseResourcePath(
  registry: ResourceRegistry,
  group: string,
  version: string,
  segs: string[],
): ResourceRequest | undefined {
  let legacyWatch = false;
  if (segs[0] === 'watch') {
    legacyWatch = true;
    segs = segs.slice(1);
  }
  let namespace: string | undefined;
  if (segs[0] === 'namespaces' && segs.length >= 3 && registry.get(group, version, segs[2] as string)?.namespaced) {
    namespace = segs[1];
    segs = segs.slice(2);
  }
  if (segs.length === 0 || segs.length > 3) return undefined;
  const type = registry.get(group, version, segs[0] as string);
  if (!type) return undefined;
  if (namespace !== undefined && !type.namespaced) return undefined;
  if (namespace === undefined && type.namespaced && segs.length > 1) return undefined;
  const r: ResourceRequest = { type, legacyWatch };
  if (namespace !== undefined) r.namespace = namespace;
  if (segs[1] !== undefined) r.name = segs[1];
  if (segs[2] !== undefined) {
    const sub = segs[2];
    const allowed =
      (sub === 'status' && type.status) ||
      (sub === 'scale' && !!type.scale) ||
      !!type.subresources?.some((x) => x.name === sub);
    if (!allowed || legacyWatch) return undefined;
    r.subresource = sub;
  }
  return r;
}

/** Discovery answers: aggregated when asked for (and JSON content type says so), else legacy. */
function discovery(
  req: IncomingMessage,
  res: ServerResponse,
  pretty: boolean,
  legacy: () => unknown,
  aggregated: () => unknown,
): void {
  const target = negotiateOutput(req.headers.accept, ['json', 'aggregatedDiscovery']);
  if (target === 'aggregatedDiscovery') {
    const doc = aggregated();
    const etag = `"${hashDoc(doc).slice(0, 64)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    return sendJson(res, 200, doc, {
      pretty,
      contentType: AGGREGATED_DISCOVERY_CONTENT_TYPE,
      headers: { ETag: etag, Vary: 'Accept' },
    });
  }
  sendJson(res, 200, legacy(), { pretty });
}

export async function route(deps: RouterDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const q = url.searchParams;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const pretty = wantsPretty(req, q);
  const registry = deps.ctx.registry;
  const method = req.method ?? 'GET';
  try {
    if (path === '/version' && method === 'GET') return sendJson(res, 200, versionInfo(deps.version), { pretty });
    if (/^\/(healthz|livez|readyz)(\/|$)/.test(path)) return health(res, path, q, deps.isReady());
    const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (segs[0] === 'openapi') {
      if (segs[1] === 'v3' && segs.length === 2) return sendJson(res, 200, openApiRoot(registry), { pretty });
      if (segs[1] === 'v3') {
        const [g, v] =
          segs[2] === 'api' ? ['', segs[3] ?? ''] : segs[2] === 'apis' ? [segs[3] ?? '', segs[4] ?? ''] : ['', ''];
        const doc = v ? openApiGroupVersionDoc(registry, g, v) : undefined;
        if (doc) return sendJson(res, 200, doc, { pretty, headers: { ETag: `"${hashDoc(doc)}"` } });
      }
      return notFound(res);
    }
    if (segs[0] === 'api') {
      if (segs.length === 1 && method === 'GET') {
        return discovery(
          req,
          res,
          pretty,
          () => apiVersions(deps.hostPort()),
          () => aggregatedDiscovery(registry, true),
        );
      }
      if (segs.length === 2 && method === 'GET') {
        const doc = apiResourceList(registry, '', segs[1] as string);
        return doc ? sendJson(res, 200, doc, { pretty }) : notFound(res);
      }
      const r = segs[1] === 'v1' ? parseResourcePath(registry, '', 'v1', segs.slice(2)) : undefined;
      return r ? handleResource(deps, req, res, r, q) : notFound(res);
    }
    if (segs[0] === 'apis') {
      if (segs.length === 1 && method === 'GET') {
        return discovery(
          req,
          res,
          pretty,
          () => apiGroupList(registry),
          () => aggregatedDiscovery(registry, false),
        );
      }
      if (segs.length === 2 && method === 'GET') {
        const doc = apiGroup(registry, segs[1] as string);
        return doc ? sendJson(res, 200, doc, { pretty }) : notFound(res);
      }
      if (segs.length === 3 && method === 'GET') {
        const doc = apiResourceList(registry, segs[1] as string, segs[2] as string);
        return doc ? sendJson(res, 200, doc, { pretty }) : notFound(res);
      }
      const r = parseResourcePath(registry, segs[1] as string, segs[2] as string, segs.slice(3));
      return r ? handleResource(deps, req, res, r, q) : notFound(res);
    }
    notFound(res);
  } catch (e) {
    sendError(res, e, pretty);
  }
}
