// cache.ListerWatcher: what a Reflector needs from an API server. One implementation speaks HTTP
// through @kubernetes/client-node; tests use a scripted one.
import type { KubeList, KubeObject, WatchEvent } from '../../../shared/models/object';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

/** An open watch: events until the server closes it, the timeout passes, or stop() is called. */
export interface WatchStream<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  /** One page (or the whole list when no limit is given). Rejects with ApiError on an error status. */
  list(options: ListOptions, signal?: AbortSignal): Promise<KubeList<T>>;
  /** Opens a watch. Rejects with ApiError when the server refuses it (e.g. 410 for an expired resourceVersion). */
  watch(options: ListOptions, signal?: AbortSignal): Promise<WatchStream<T>>;
  /**
   * client-go's watchlist.DoesClientNotSupportWatchListSemantics: a lister-watcher that returns true here
   * (fakes, recordings) never gets a WatchList request by default. Absent means supported.
   */
  isWatchListSemanticsUnSupported?(): boolean;
  /**
   * A lister-watcher over the same resource that may decode less, as the hint allows (no upstream counterpart:
   * client-go decodes into typed structs and drops managedFields afterwards). Absent means it decodes everything.
   */
  withDecodeHint?(hint: DecodeHint): ListerWatcher<T>;
}

/** What a decoder may leave out because the informer would drop it before storing the object. */
export interface DecodeHint {
  /** metadata.managedFields of each object (the informer's transform strips them first). */
  dropManagedFields?: boolean;
}

/** lw narrowed by the hint when it supports decode hints, else lw itself. */
export function withDecodeHint<T extends KubeObject>(
  lw: ListerWatcher<T>,
  hint: DecodeHint | undefined,
): ListerWatcher<T> {
  return hint && typeof lw.withDecodeHint === 'function' ? lw.withDecodeHint(hint) : lw;
}

/** True only when lw declares it cannot serve WatchList requests. */
export function doesClientNotSupportWatchListSemantics(lw: object): boolean {
  const f = (lw as { isWatchListSemanticsUnSupported?: unknown }).isWatchListSemanticsUnSupported;
  return typeof f === 'function' && (f as () => unknown).call(lw) === true;
}
