// The typed in-process face of the sandbox for tests, simulators and controllers living in the same
// process: the same create/update/patch/delete rules as the HTTP API, objects deep-copied in and out.
import type { KubeObject, WatchEvent } from '../../../shared/models/object';
import { grOf, type SandboxContext } from './context';
import { createObject, type WriteOptions } from './create';
import { deleteObject, type DeleteOptions, type DeleteResult } from './delete';
import { fieldsOf } from './list-options';
import type { PatchType } from './patch';
import { patchObject } from './patch-handler';
import { apiVersionOf, withTypeMeta, type ResourceType } from './resources';
import { parseFieldSelector, parseLabelSelector } from './selectors';
import { objectKey, type StoredEvent } from './storage';
import { StatusError } from './status-errors';
import { updateObject } from './update';
import type { WatchHub } from './watch-hub';

/** A served type, by apiVersion + kind or by group + resource (version optional). */
export type TypeRef = { apiVersion: string; kind: string } | { group: string; resource: string; version?: string };

export interface StoreListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface StoreWatchOptions extends StoreListOptions {
  /** Start after this revision; unset = synthetic ADDED for current objects, then changes. */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
}

/** A committed change of any kind, as the change feed reports it. */
export interface StoreChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resourceVersion: string;
  group: string;
  resource: string;
  object: KubeObject;
}

export class SandboxStore {
  constructor(
    private readonly ctx: SandboxContext,
    private readonly hub: WatchHub,
  ) {}

  /** The newest committed resourceVersion. */
  get resourceVersion(): string {
    return String(this.ctx.storage.currentRv);
  }

  /** Types currently served (built-ins plus established CRDs). */
  types(): ResourceType[] {
    return this.ctx.registry.all().map((t) => ({ ...t }));
  }

  resolve(ref: TypeRef): ResourceType {
    const t =
      'apiVersion' in ref
        ? this.ctx.registry.byKind(ref.apiVersion, ref.kind)
        : ref.version
          ? this.ctx.registry.get(ref.group, ref.version, ref.resource)
          : this.ctx.registry.getByGroupResource(ref.group, ref.resource);
    if (!t) {
      const what = 'apiVersion' in ref ? `${ref.apiVersion}, Kind=${ref.kind}` : `${ref.group}/${ref.resource}`;
      throw new StatusError(404, 'NotFound', `the server could not find the requested resource (${what})`);
    }
    return t;
  }

  get(ref: TypeRef, name: string, namespace?: string): KubeObject | undefined {
    const t = this.resolve(ref);
    const o = this.ctx.storage.get(grOf(t), objectKey(t.namespaced ? namespace : undefined, name));
    return o ? withTypeMeta(o, t) : undefined;
  }

  list(ref: TypeRef, opts: StoreListOptions = {}): KubeObject[] {
    const t = this.resolve(ref);
    const ls = parseLabelSelector(opts.labelSelector);
    const fs = parseFieldSelector(opts.fieldSelector);
    return this.ctx.storage
      .list(grOf(t), t.namespaced && opts.namespace ? { namespace: opts.namespace } : {})
      .items.map((o) => withTypeMeta(o, t))
      .filter((o) => ls.matches(o.metadata.labels) && fs.matches(fieldsOf(t, o)));
  }

  create(obj: KubeObject, opts: WriteOptions = {}): KubeObject {
    const t = this.resolve({ apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' });
    return createObject(this.ctx, t, obj.metadata?.namespace, obj, opts);
  }

  update(obj: KubeObject, opts: WriteOptions = {}): KubeObject {
    const t = this.resolve({ apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' });
    return updateObject(this.ctx, t, obj.metadata.namespace, obj.metadata.name ?? '', obj, opts).object;
  }

  updateStatus(obj: KubeObject, opts: WriteOptions = {}): KubeObject {
    const t = this.resolve({ apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' });
    return updateObject(this.ctx, t, obj.metadata.namespace, obj.metadata.name ?? '', obj, opts, 'status').object;
  }

  patch(
    ref: TypeRef,
    name: string,
    namespace: string | undefined,
    type: PatchType,
    patch: unknown,
    opts: WriteOptions & { subresource?: 'status' } = {},
  ): KubeObject {
    const t = this.resolve(ref);
    return patchObject(this.ctx, t, namespace, name, type, structuredClone(patch), opts, opts.subresource);
  }

  delete(ref: TypeRef, name: string, namespace?: string, opts: DeleteOptions = {}): DeleteResult {
    return deleteObject(this.ctx, this.resolve(ref), namespace, name, opts);
  }

  /** Watches one type with server semantics; returns a stop function. Events are deep copies. */
  watch(ref: TypeRef, opts: StoreWatchOptions, onEvent: (e: WatchEvent) => void, onEnd?: () => void): () => void {
    const t = this.resolve(ref);
    const ls = parseLabelSelector(opts.labelSelector);
    const fs = parseFieldSelector(opts.fieldSelector);
    let stop: (() => void) | undefined;
    let stopped = false;
    void this.hub
      .start(
        {
          type: t,
          ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
          matches: (o) => ls.matches(o.metadata.labels) && fs.matches(fieldsOf(t, o)),
          ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}),
          allowWatchBookmarks: opts.allowWatchBookmarks ?? false,
        },
        { send: (e) => onEvent(structuredClone(e)), end: () => onEnd?.() },
      )
      .then((h) => {
        stop = () => h.stop();
        if (stopped) h.stop();
      });
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /** Every committed change of every kind, in commit order (deep copies). */
  onChange(listener: (c: StoreChange) => void): () => void {
    return this.ctx.storage.subscribe((e: StoredEvent) => {
      const i = e.gr.indexOf('/');
      const group = e.gr.slice(0, i);
      const resource = e.gr.slice(i + 1);
      const t = this.ctx.registry.getByGroupResource(group, resource);
      const object = structuredClone(t ? withTypeMeta(e.object, t) : e.object);
      listener({ type: e.type, resourceVersion: String(e.rv), group, resource, object });
    });
  }

  /** apiVersion string of a served type, for building objects. */
  apiVersionOf(ref: TypeRef): string {
    return apiVersionOf(this.resolve(ref));
  }
}
