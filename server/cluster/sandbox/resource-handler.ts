// Resource requests: apiserver pkg/endpoints/installer.go (which verbs exist on which paths) and the
// handlers in pkg/endpoints/handlers/{get,create,update,patch,delete,watch}.go, wired to the sandbox's
// storage logic, content negotiation and fault injection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeList, KubeObject, WatchEvent } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { createObject, decodeBody, validateWriteOptions, type WriteOptions } from './create';
import { deleteCollection, deleteObject, parseDeleteOptions } from './delete';
import type { FaultInjector, RequestVerb } from './faults';
import { parseJsonBody, readBody, sendError, sendJson, wantsPretty } from './http-util';
import { listObjects } from './list';
import { parseListOptions, selectorMatcher } from './list-options';
import { decodeRequestBody, negotiateOutput, type OutputTarget } from './negotiation';
import { applyPatch } from './patch';
import { patchObject, resolvePatchType } from './patch-handler';
import { withTypeMeta, type ResourceType } from './resources';
import { createOnSubresource, SUCCESS_201 } from './subresources';
import { applyScale, toScale } from './scale';
import { parseFieldSelector } from './selectors';
import { objectKey } from './storage';
import { newBadRequest, newMethodNotSupported, newNotFound, StatusError } from './status-errors';
import { parseIncludeObject, toPartialObjectMetadata, toTable } from './table';
import { commitUpdate, updateObject, type Subresource } from './update';
import type { WatchHub } from './watch-hub';

export interface ResourceRequest {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** Came in through the deprecated /watch/ prefix. */
  legacyWatch: boolean;
}

export interface ResourceHandlerDeps {
  ctx: SandboxContext;
  hub: WatchHub;
  faults: FaultInjector;
}

type Verb = RequestVerb;

function verbOf(method: string, r: ResourceRequest, q: URLSearchParams): Verb | undefined {
  const isWatch = r.legacyWatch || /^(1|t|true|True|TRUE)$/.test(q.get('watch') ?? '');
  if (r.name === undefined) {
    switch (method) {
      case 'GET':
        return isWatch ? 'watch' : 'list';
      case 'POST':
        return 'create';
      case 'DELETE':
        return 'deletecollection';
      default:
        return undefined;
    }
  }
  switch (method) {
    case 'POST':
      return r.subresource && r.type.subresources?.some((x) => x.name === r.subresource && x.verbs.includes('create'))
        ? 'create'
        : undefined;
    case 'GET':
      return isWatch && !r.subresource ? 'watch' : 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return r.subresource ? undefined : 'delete';
    default:
      return undefined;
  }
}

const SUB_VERBS: Record<string, Verb[]> = {
  status: ['get', 'update', 'patch'],
  scale: ['get', 'update', 'patch'],
};

const subVerbs = (t: ResourceType, sub: string): string[] =>
  SUB_VERBS[sub] ?? t.subresources?.find((x) => x.name === sub)?.verbs ?? [];

/** Subresources that write like `status` (CSR approval only changes status conditions). */
const asStatus = (sub: string | undefined): Subresource | undefined =>
  sub === 'approval' ? 'status' : (sub as Subresource | undefined);

export async function handleResource(
  deps: ResourceHandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  r: ResourceRequest,
  q: URLSearchParams,
): Promise<void> {
  const { ctx } = deps;
  const pretty = wantsPretty(req, q);
  const t = r.type;
  const gr = { group: t.group, resource: t.resource };
  try {
    const method = req.method ?? 'GET';
    const verb = verbOf(method, r, q);
    if (!verb) throw newMethodNotSupported(gr, method.toLowerCase());
    if (r.subresource && !subVerbs(t, r.subresource).includes(verb)) throw newMethodNotSupported(gr, verb);
    if (!r.subresource && !t.verbs.includes(verb)) throw newMethodNotSupported(gr, verb);
    if (t.namespaced && r.namespace === undefined && verb !== 'list' && verb !== 'watch')
      throw newMethodNotSupported(gr, verb);

    const resourceTargets: OutputTarget[] =
      r.subresource === 'scale'
        ? ['json']
        : verb === 'list'
          ? ['json', 'table', 'partialList']
          : ['json', 'table', 'partial'];
    const target = negotiateOutput(req.headers.accept, resourceTargets);
    await deps.faults.before({
      verb,
      group: t.group,
      resource: t.resource,
      namespaced: t.namespaced,
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
      ...(r.name !== undefined ? { name: r.name } : {}),
    });

    if (verb === 'watch') return await serveWatch(deps, req, res, r, q, target);

    let body: unknown;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
      const raw = await readBody(req);
      if (method === 'PATCH') {
        const kind = resolvePatchType(t, req.headers['content-type']);
        body = parseJsonBody(raw);
        if (body === undefined) throw newBadRequest('the body of the request was empty');
        const sub = r.subresource === 'scale' ? 'scale' : asStatus(r.subresource);
        const wopts = withWarnings(res, validateWriteOptions('PatchOptions', q));
        if (q.has('force'))
          throw new StatusError(
            422,
            'Invalid',
            'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
          );
        let out: KubeObject;
        if (sub === 'scale') {
          const stored = getStored(ctx, r);
          const scaled = applyScale(t, stored, applyPatch(kind, toScale(t, stored), body));
          out = toScale(t, commitUpdate(ctx, t, stored, scaled, wopts));
        } else {
          out = patchObject(ctx, t, r.namespace, r.name as string, kind, body, wopts, sub);
        }
        return respondObject(res, 200, out, t, target, q, pretty, ctx);
      }
      body = decodeRequestBody(req.headers['content-type'], raw, !t.crdName);
    }

    switch (verb) {
      case 'get': {
        const stored = getStored(ctx, r);
        const out = r.subresource === 'scale' ? toScale(t, stored) : withTypeMeta(stored, t);
        return respondObject(res, 200, out, t, target, q, pretty, ctx);
      }
      case 'list': {
        const opts = parseListOptions(q);
        const list = await listObjects(ctx, t, r.namespace, opts);
        return respondList(res, list, t, target, q, pretty, ctx);
      }
      case 'create': {
        if (r.subresource) {
          const out = createOnSubresource(ctx, r, body);
          if (out) return sendJson(res, 201, out, { pretty });
          return sendJson(res, 201, SUCCESS_201, { pretty });
        }
        if (t.virtualCreate) {
          const obj = decodeBody(t, r.namespace, body);
          const out = t.virtualCreate(ctx, r.namespace, obj);
          return sendJson(res, 201, out ?? SUCCESS_201, { pretty });
        }
        const out = createObject(
          ctx,
          t,
          r.namespace,
          body,
          withWarnings(res, validateWriteOptions('CreateOptions', q)),
        );
        return respondObject(res, 201, out, t, target, q, pretty, ctx);
      }
      case 'update': {
        const wopts = withWarnings(res, validateWriteOptions('UpdateOptions', q));
        if (r.subresource === 'scale') {
          const stored = getStored(ctx, r);
          const out = toScale(t, commitUpdate(ctx, t, stored, applyScale(t, stored, body), wopts));
          return respondObject(res, 200, out, t, target, q, pretty, ctx);
        }
        const result = updateObject(ctx, t, r.namespace, r.name as string, body, wopts, asStatus(r.subresource));
        return respondObject(res, result.created ? 201 : 200, result.object, t, target, q, pretty, ctx);
      }
      case 'delete': {
        const result = deleteObject(ctx, t, r.namespace, r.name as string, parseDeleteOptions(body, q));
        if ((result.body as { kind?: string }).kind === 'Status')
          return sendJson(res, result.code, result.body, { pretty });
        return respondObject(res, result.code, result.body as KubeObject, t, target, q, pretty, ctx);
      }
      case 'deletecollection': {
        const lopts = parseListOptions(q);
        const list = deleteCollection(ctx, t, r.namespace, selectorMatcher(t, lopts), parseDeleteOptions(body, q));
        return respondList(res, list, t, target, q, pretty, ctx);
      }
      default:
        throw newMethodNotSupported(gr, verb);
    }
  } catch (e) {
    sendError(res, e, pretty);
  }
}

/** Sends collected warnings as `Warning: 299 - "<text>"` headers when the response goes out. */
function withWarnings(res: ServerResponse, opts: WriteOptions): WriteOptions {
  const warnings: string[] = [];
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
    if (warnings.length && !res.headersSent)
      res.setHeader(
        'Warning',
        warnings.map((w) => `299 - ${JSON.stringify(w)}`),
      );
    return writeHead(...args);
  }) as typeof res.writeHead;
  return { ...opts, warnings };
}

function getStored(ctx: SandboxContext, r: ResourceRequest): KubeObject {
  const stored = ctx.storage.get(
    grOf(r.type),
    objectKey(r.type.namespaced ? r.namespace : undefined, r.name as string),
  );
  if (!stored) throw newNotFound({ group: r.type.group, resource: r.type.resource }, r.name as string);
  return stored;
}

function respondObject(
  res: ServerResponse,
  code: number,
  obj: KubeObject,
  t: ResourceType,
  target: OutputTarget,
  q: URLSearchParams,
  pretty: boolean,
  ctx: SandboxContext,
): void {
  if (target === 'table') {
    return sendJson(
      res,
      code,
      toTable(t, [obj], { include: parseIncludeObject(q.get('includeObject')), now: ctx.clock.now() }),
      { pretty },
    );
  }
  if (target === 'partial') return sendJson(res, code, toPartialObjectMetadata(obj), { pretty });
  sendJson(res, code, obj, { pretty });
}

function respondList(
  res: ServerResponse,
  list: KubeList,
  t: ResourceType,
  target: OutputTarget,
  q: URLSearchParams,
  pretty: boolean,
  ctx: SandboxContext,
): void {
  if (target === 'table') {
    const items = list.items.map((o) => withTypeMeta(o, t));
    return sendJson(
      res,
      200,
      toTable(t, items, {
        include: parseIncludeObject(q.get('includeObject')),
        now: ctx.clock.now(),
        listMeta: list.metadata,
      }),
      { pretty },
    );
  }
  if (target === 'partialList') {
    return sendJson(
      res,
      200,
      {
        kind: 'PartialObjectMetadataList',
        apiVersion: 'meta.k8s.io/v1',
        metadata: list.metadata,
        items: list.items.map(toPartialObjectMetadata),
      },
      { pretty },
    );
  }
  sendJson(res, 200, list, { pretty });
}

function flushCorked(res: ServerResponse): void {
  const socket = res.socket;
  while (socket && socket.writableCorked > 0) socket.uncork();
}

/** Default watch deadline when the client sets none: kube-apiserver's minimum request timeout. */
export const DEFAULT_WATCH_TIMEOUT_MS = 1800_000;

async function serveWatch(
  deps: ResourceHandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  r: ResourceRequest,
  q: URLSearchParams,
  target: OutputTarget,
): Promise<void> {
  const { ctx, hub } = deps;
  const t = r.type;
  if (r.name !== undefined) {
    const explicit = parseFieldSelector(q.get('fieldSelector') ?? '').requiresExactMatch('metadata.name');
    if (explicit !== undefined && explicit !== r.name)
      throw newBadRequest("fieldSelector metadata.name doesn't match requested name");
    const fs = q.get('fieldSelector');
    q.set('fieldSelector', fs ? `${fs},metadata.name=${r.name}` : `metadata.name=${r.name}`);
  }
  const opts = parseListOptions(q, true);
  const matches = selectorMatcher(t, opts);
  const include = target === 'table' ? parseIncludeObject(q.get('includeObject')) : 'Metadata';

  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();
  res.socket?.setNoDelay(true);

  let first = true;
  const encode = (ev: WatchEvent): WatchEvent | { type: string; object: unknown } => {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    const obj = ev.object as KubeObject;
    if (target === 'table') {
      const table = toTable(t, [obj], {
        include,
        now: ctx.clock.now(),
        withColumns: first,
        listMeta: { resourceVersion: obj.metadata.resourceVersion ?? '' },
      });
      first = false;
      return { type: ev.type, object: table };
    }
    if (target === 'partial') return { type: ev.type, object: toPartialObjectMetadata(obj) };
    return ev;
  };
  const handle = await hub.start(
    {
      type: t,
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
      matches,
      ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}),
      ...(opts.sendInitialEvents !== undefined ? { sendInitialEvents: opts.sendInitialEvents } : {}),
      allowWatchBookmarks: opts.allowWatchBookmarks,
      timeoutMs: opts.timeoutSeconds !== undefined ? opts.timeoutSeconds * 1000 : DEFAULT_WATCH_TIMEOUT_MS,
    },
    {
      send: (ev) => {
        if (res.writableEnded) return;
        res.write(JSON.stringify(encode(ev)) + '\n');
        // node corks a chunked write until the next tick; the answer to the write that caused this
        // event would then reach the client first. kube-apiserver's watchers usually see the event
        // before the writer sees its answer, and controllers rely on that order (their next reconcile
        // reads a cache that already holds their own write), so flush now.
        flushCorked(res);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    },
  );
  const stop = (): void => handle.stop();
  res.on('close', stop);
  if (res.destroyed) handle.stop();
}
