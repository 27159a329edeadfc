// A hand-driven SharedIndexInformer and informer cache for source/controller/builder tests
// (controller-runtime's informertest.FakeInformers plays the same role).
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import {
  DeletedFinalStateUnknown,
  type HandlerOptions,
  type Indexer,
  type Indexers,
  type ResourceEventHandler,
  type ResourceEventHandlerRegistration,
  type SharedIndexInformer,
  type Store,
  type TransformFunc,
  type WatchErrorHandler,
} from '../cache/interfaces';

const keyOf = (o: KubeObject): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');

interface Registration extends ResourceEventHandlerRegistration {
  handler: ResourceEventHandler<KubeObject>;
  synced: boolean;
}

export class FakeInformer implements SharedIndexInformer<KubeObject> {
  readonly registrations: Registration[] = [];
  readonly objects = new Map<string, KubeObject>();
  synced = true;
  /** When false, new registrations report unsynced until markHandlersSynced(). */
  handlersSyncImmediately = true;
  running = false;
  private stopped = false;

  addEventHandler(
    handler: ResourceEventHandler<KubeObject>,
    _options?: HandlerOptions,
  ): ResourceEventHandlerRegistration {
    const reg: Registration = {
      handler,
      synced: this.handlersSyncImmediately,
      hasSynced: () => reg.synced,
    };
    this.registrations.push(reg);
    for (const o of this.objects.values()) handler.onAdd?.(o, true);
    return reg;
  }

  markHandlersSynced(): void {
    for (const r of this.registrations) r.synced = true;
  }

  removeEventHandler(registration: ResourceEventHandlerRegistration): void {
    const i = this.registrations.indexOf(registration as Registration);
    if (i >= 0) this.registrations.splice(i, 1);
  }

  add(obj: KubeObject): void {
    this.objects.set(keyOf(obj), obj);
    for (const r of this.registrations) r.handler.onAdd?.(obj, false);
  }

  update(oldObj: KubeObject, newObj: KubeObject): void {
    this.objects.set(keyOf(newObj), newObj);
    for (const r of this.registrations) r.handler.onUpdate?.(oldObj, newObj);
  }

  delete(obj: KubeObject, tombstone = false): void {
    this.objects.delete(keyOf(obj));
    const arg = tombstone ? new DeletedFinalStateUnknown(keyOf(obj), obj) : obj;
    for (const r of this.registrations) r.handler.onDelete?.(arg);
  }

  getStore(): Store<KubeObject> {
    return this.getIndexer();
  }

  getIndexer(): Indexer<KubeObject> {
    const objects = this.objects;
    const list = (): KubeObject[] => [...objects.values()];
    const unsupported = (): never => {
      throw new Error('not supported by FakeInformer');
    };
    return {
      add: (o) => void objects.set(keyOf(o), o),
      update: (o) => void objects.set(keyOf(o), o),
      delete: (o) => void objects.delete(keyOf(o)),
      list,
      listKeys: () => [...objects.keys()],
      get: (o) => objects.get(keyOf(o)),
      getByKey: (k) => objects.get(k),
      replace: (items) => {
        objects.clear();
        for (const o of items) objects.set(keyOf(o), o);
      },
      resync: () => undefined,
      index: unsupported,
      indexKeys: unsupported,
      listIndexFuncValues: unsupported,
      byIndex: (name, value) =>
        name === 'namespace' ? list().filter((o) => (o.metadata.namespace ?? '') === value) : unsupported(),
      getIndexers: () => ({}),
      addIndexers: (_i: Indexers<KubeObject>) => undefined,
    };
  }

  addIndexers(): void {}

  async run(signal: AbortSignal): Promise<void> {
    this.running = true;
    await new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r())));
    this.running = false;
    this.stopped = true;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  lastSyncResourceVersion(): string {
    return '';
  }

  setWatchErrorHandler(_h: WatchErrorHandler): void {}
  setTransform(_t: TransformFunc<KubeObject>): void {}

  isStopped(): boolean {
    return this.stopped;
  }
}

const gvkKey = (g: GroupVersionKind): string => `${g.group}/${g.version}/${g.kind}`;

/** Implements the informer-cache surface sources use; informers are created on first request. */
export class FakeInformerCache {
  readonly informers = new Map<string, FakeInformer>();
  synced = true;
  /** When set, getInformer rejects with it (e.g. a kind that is not installed). */
  getInformerError?: Error;
  /** When true, getInformer never resolves (until its signal aborts). */
  blockGetInformer = false;
  getInformerCalls = 0;

  informerFor(gvk: GroupVersionKind): FakeInformer {
    let inf = this.informers.get(gvkKey(gvk));
    if (!inf) {
      inf = new FakeInformer();
      this.informers.set(gvkKey(gvk), inf);
    }
    return inf;
  }

  async getInformer(gvk: GroupVersionKind, opts?: { signal?: AbortSignal }): Promise<SharedIndexInformer<KubeObject>> {
    this.getInformerCalls++;
    if (this.blockGetInformer) {
      await new Promise<void>((_r, reject) => {
        opts?.signal?.addEventListener('abort', () => reject(new Error('context canceled')), { once: true });
      });
    }
    if (this.getInformerError) throw this.getInformerError;
    return this.informerFor(gvk);
  }

  async waitForCacheSync(_signal: AbortSignal): Promise<boolean> {
    return this.synced;
  }
}
