// Ports client-go tools/cache/listwatch.go (NewListWatchFromClient, NewFilteredListWatchFromClient) and the
// decoding half of apimachinery's watch.StreamWatcher: newline-delimited watch events become WatchEvents,
// and a line that does not decode ends the stream with an ERROR event, as StreamWatcher reports it.
// client-node's Watch class is not used: it drops undecodable lines silently and throws away the Status
// body of a refused watch, both of which a reflector needs to see.
import type {
  GroupVersionKind,
  GroupVersionResource,
  KubeList,
  KubeObject,
  KubeStatus,
  WatchEvent,
  WatchEventType,
} from '../../../shared/models/object';
import { apiVersionOf, resourcePath } from './gvk';
import type { HttpClient, LineStream, QueryValue } from './http';
import type { DecodeHint, ListerWatcher, ListOptions, WatchStream } from './lister-watcher';
import { parseListWithoutManagedFields, parseWatchEventWithoutManagedFields } from './managed-fields-cut';
import type { DynamicRESTMapper } from './rest-mapper';

export interface ListWatchFromClientOptions {
  http: HttpClient;
  gvr: GroupVersionResource;
  /** Namespace to list/watch; '' or undefined means all namespaces (or a cluster-scoped resource). */
  namespace?: string;
  /** Applied to every list and watch unless the caller's options set their own. */
  labelSelector?: string;
  fieldSelector?: string;
  /** Edits the options before each request (NewFilteredListWatchFromClient's optionsModifier). */
  optionsModifier?: (options: ListOptions) => void;
  /**
   * List and watch metav1.PartialObjectMetadata (client-go's metadata client) and name each object with this
   * kind, as controller-runtime's metadata informers fix up the GVK. Default off.
   */
  metadataOnlyAs?: GroupVersionKind;
  /** What decoding may leave out (see ListerWatcher.withDecodeHint). Default none. */
  decodeHint?: DecodeHint;
}

/** What the metadata client asks for (JSON only; kube-apiserver answers protobuf too). */
export const PARTIAL_OBJECT_METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
export const PARTIAL_OBJECT_METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** A ListerWatcher over HTTP for one resource, optionally one namespace and selectors. */
export class ListWatch<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  private readonly http: HttpClient;
  private readonly path: string;
  private readonly dropManagedFields: boolean;

  constructor(private readonly opts: ListWatchFromClientOptions) {
    this.http = opts.http;
    this.path = resourcePath(opts.gvr, { namespace: opts.namespace || undefined });
    this.dropManagedFields = opts.decodeHint?.dropManagedFields === true;
  }

  withDecodeHint(hint: DecodeHint): ListWatch<T> {
    return new ListWatch<T>({ ...this.opts, decodeHint: { ...this.opts.decodeHint, ...hint } });
  }

  async list(options: ListOptions, signal?: AbortSignal): Promise<KubeList<T>> {
    const o = this.effective(options);
    const list = await this.http.request<KubeList<T>>({
      path: this.path,
      query: {
        labelSelector: o.labelSelector,
        fieldSelector: o.fieldSelector,
        resourceVersion: o.resourceVersion,
        resourceVersionMatch: o.resourceVersionMatch,
        limit: o.limit,
        continue: o.continue,
        timeoutSeconds: o.timeoutSeconds,
      },
      signal,
      ...(this.opts.metadataOnlyAs ? { accept: `${PARTIAL_OBJECT_METADATA_LIST_ACCEPT},application/json` } : {}),
      ...(this.dropManagedFields ? { parse: parseListWithoutManagedFields } : {}),
    });
    const as = this.opts.metadataOnlyAs;
    if (!as) return withItemTypeMeta(list);
    const items = (list.items ?? []).map((i) => nameAs(i, as));
    return { ...list, apiVersion: apiVersionOf(as), kind: `${as.kind}List`, metadata: list.metadata ?? {}, items };
  }

  async watch(options: ListOptions, signal?: AbortSignal): Promise<WatchStream<T>> {
    const o = this.effective(options);
    const query: Record<string, QueryValue> = {
      watch: true,
      labelSelector: o.labelSelector,
      fieldSelector: o.fieldSelector,
      resourceVersion: o.resourceVersion,
      resourceVersionMatch: o.resourceVersionMatch,
      timeoutSeconds: o.timeoutSeconds,
      allowWatchBookmarks: o.allowWatchBookmarks || undefined,
      sendInitialEvents: o.sendInitialEvents,
    };
    const as = this.opts.metadataOnlyAs;
    const lines = await this.http.stream({
      path: this.path,
      query,
      signal,
      ...(as ? { accept: `${PARTIAL_OBJECT_METADATA_ACCEPT},application/json` } : {}),
    });
    return new DecodingWatchStream<T>(
      lines,
      as,
      this.dropManagedFields ? parseWatchEventWithoutManagedFields : JSON.parse,
    );
  }

  private effective(options: ListOptions): ListOptions {
    const o: ListOptions = {
      ...options,
      labelSelector: options.labelSelector ?? this.opts.labelSelector,
      fieldSelector: options.fieldSelector ?? this.opts.fieldSelector,
    };
    this.opts.optionsModifier?.(o);
    return o;
  }
}

/** NewListWatchFromClient / NewFilteredListWatchFromClient in one: a ListerWatcher for a GVR. */
export function newListWatchFromClient<T extends KubeObject = KubeObject>(
  opts: ListWatchFromClientOptions,
): ListerWatcher<T> {
  return new ListWatch<T>(opts);
}

export interface ListWatchForGVKOptions extends Omit<ListWatchFromClientOptions, 'gvr' | 'metadataOnlyAs'> {
  mapper: Pick<DynamicRESTMapper, 'restMapping'>;
  gvk: GroupVersionKind;
  /** List and watch PartialObjectMetadata named as gvk. Default false. */
  metadataOnly?: boolean;
}

/**
 * A ListerWatcher for a kind: the REST mapper finds its resource and scope (a namespace given for a
 * cluster-scoped kind is dropped). Rejects with NoKindMatchError when the server does not serve the kind.
 */
export async function newListWatchForGVK<T extends KubeObject = KubeObject>(
  opts: ListWatchForGVKOptions,
): Promise<ListerWatcher<T>> {
  const { mapper, gvk, metadataOnly, ...rest } = opts;
  const m = await mapper.restMapping({ group: gvk.group, kind: gvk.kind }, gvk.version);
  return new ListWatch<T>({
    ...rest,
    gvr: m.resource,
    namespace: m.scope === 'namespace' ? rest.namespace : undefined,
    ...(metadataOnly ? { metadataOnlyAs: gvk } : {}),
  });
}

/**
 * Fills in apiVersion/kind on items that came without them (typed lists omit them), from the list's own
 * kind minus "List", as apimachinery's UnstructuredList does, so downstream code can always read a GVK.
 */
export function withItemTypeMeta<T extends KubeObject>(list: KubeList<T>): KubeList<T> {
  const items = list.items ?? [];
  const kind = list.kind?.endsWith('List') ? list.kind.slice(0, -4) : undefined;
  for (const item of items) {
    if (!item.apiVersion && list.apiVersion) item.apiVersion = list.apiVersion;
    if (!item.kind && kind) item.kind = kind;
  }
  return { ...list, metadata: list.metadata ?? {}, items };
}

/** A Status for a watch line that could not be decoded (StreamWatcher wraps the error as an internal error). */
export function decodeErrorStatus(detail: string): KubeStatus {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    reason: 'InternalError',
    code: 500,
    message: `unable to decode an event from the watch stream: ${detail}`,
  };
}

/** Parses one watch line (with parse, default JSON.parse); returns an error description instead of throwing. */
export function decodeWatchLine<T extends KubeObject>(
  line: string,
  parse: (text: string) => unknown = JSON.parse,
): WatchEvent<T> | { error: string } {
  let v: unknown;
  try {
    v = parse(line);
  } catch {
    // Neither the line nor the parser's message (which quotes it) goes into the error: a watch line is an
    // object, a Secret's data included, and the error travels on to the view, /api/view and recordings.
    return { error: `a line of ${line.length} characters that is not valid JSON` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { error: `expected a JSON object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}` };
  const e = v as { type?: unknown; object?: unknown };
  if (typeof e.type !== 'string' || !EVENT_TYPES.has(e.type)) {
    const shown = typeof e.type === 'string' ? JSON.stringify(e.type.slice(0, 20)) : typeof e.type;
    return { error: `unknown watch event type ${shown}` };
  }
  if (typeof e.object !== 'object' || e.object === null) {
    return { error: `watch event ${e.type} has no object` };
  }
  return { type: e.type as WatchEventType, object: e.object as T | KubeStatus };
}

/** newGVKFixupWatcher: a PartialObjectMetadata carries the kind it stands for. */
function nameAs<T extends KubeObject>(obj: T, gvk: GroupVersionKind): T {
  return { ...obj, apiVersion: apiVersionOf(gvk), kind: gvk.kind };
}

class DecodingWatchStream<T extends KubeObject> implements WatchStream<T> {
  constructor(
    private readonly lines: LineStream,
    private readonly as: GroupVersionKind | undefined,
    private readonly parse: (text: string) => unknown,
  ) {}

  stop(): void {
    this.lines.stop();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    try {
      for await (const line of this.lines) {
        const ev = decodeWatchLine<T>(line, this.parse);
        if ('error' in ev) {
          yield { type: 'ERROR', object: decodeErrorStatus(ev.error) };
          return;
        }
        if (this.as && ev.type !== 'ERROR') yield { type: ev.type, object: nameAs(ev.object as T, this.as) };
        else yield ev;
      }
    } finally {
      this.lines.stop();
    }
  }
}
