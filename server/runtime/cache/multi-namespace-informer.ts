// Ports multiNamespaceInformer from controller-runtime pkg/cache/multi_namespace_cache.go: one informer per
// namespace behind one handle. Handlers go to every namespace's informer; the registration has synced
// when each namespace's has.
import type { KubeObject } from '../../../shared/models/object';
import type {
  HandlerOptions,
  Indexer,
  Indexers,
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
  SharedIndexInformer,
  Store,
  TransformFunc,
  WatchErrorHandler,
} from './interfaces';

/** multiNamespaceInformerHandlerRegistration: one registration per namespace. */
export class MultiNamespaceRegistration implements ResourceEventHandlerRegistration {
  constructor(readonly handles: ReadonlyMap<string, ResourceEventHandlerRegistration>) {}

  hasSynced(): boolean {
    for (const h of this.handles.values()) if (!h.hasSynced()) return false;
    return true;
  }

  /** For shutDownEventHandler: every namespace's listener has stopped. */
  async whenShutDown(): Promise<void> {
    await Promise.all(
      [...this.handles.values()].map((h) => (h as Partial<{ whenShutDown(): Promise<void> }>).whenShutDown?.call(h)),
    );
  }
}

export class MultiNamespaceInformer<T = KubeObject> implements SharedIndexInformer<T> {
  /** namespace ("" for all the others) → that namespace's informer. */
  constructor(readonly namespaceToInformer: ReadonlyMap<string, SharedIndexInformer<T>>) {}

  addEventHandler(handler: ResourceEventHandler<T>, options?: HandlerOptions): MultiNamespaceRegistration {
    const handles = new Map<string, ResourceEventHandlerRegistration>();
    for (const [ns, informer] of this.namespaceToInformer) handles.set(ns, informer.addEventHandler(handler, options));
    return new MultiNamespaceRegistration(handles);
  }

  removeEventHandler(registration: ResourceEventHandlerRegistration): void {
    if (!(registration instanceof MultiNamespaceRegistration)) {
      throw new Error('registration is not a registration returned by multiNamespaceInformer');
    }
    for (const [ns, informer] of this.namespaceToInformer) {
      const h = registration.handles.get(ns);
      if (h) informer.removeEventHandler(h);
    }
  }

  addIndexers(indexers: Indexers<T>): void {
    for (const informer of this.namespaceToInformer.values()) informer.addIndexers(indexers);
  }

  hasSynced(): boolean {
    for (const informer of this.namespaceToInformer.values()) if (!informer.hasSynced()) return false;
    return true;
  }

  isStopped(): boolean {
    for (const informer of this.namespaceToInformer.values()) if (!informer.isStopped()) return false;
    return true;
  }

  /** The last namespace's, as upstream's List reports the last namespace's resourceVersion. */
  lastSyncResourceVersion(): string {
    let rv = '';
    for (const informer of this.namespaceToInformer.values()) rv = informer.lastSyncResourceVersion();
    return rv;
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    for (const informer of this.namespaceToInformer.values()) informer.setWatchErrorHandler(handler);
  }

  setTransform(transform: TransformFunc<T>): void {
    for (const informer of this.namespaceToInformer.values()) informer.setTransform(transform);
  }

  getStore(): Store<T> {
    return this.getIndexer();
  }

  /** Upstream's multi-namespace Informer has no store of its own; reads go through the cache. */
  getIndexer(): Indexer<T> {
    throw new Error(
      `a multi-namespace informer keeps one store per namespace (${[...this.namespaceToInformer.keys()].join(', ')}): read through the cache's get/list`,
    );
  }

  /** The cache runs each namespace's informer itself. */
  run(): Promise<void> {
    return Promise.reject(new Error('a multi-namespace informer is run by its cache, one informer per namespace'));
  }
}
