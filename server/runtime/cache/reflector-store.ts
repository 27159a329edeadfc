// Ports the ReflectorStore interface of client-go tools/cache/reflector.go: what a Reflector writes to.
import type { DeletedFinalStateUnknown } from './interfaces';

export interface ReflectorStore<T> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T | DeletedFinalStateUnknown<T>): void;
  /** Queues may return how many deletions the replace inferred (for probes). */
  replace(list: T[], resourceVersion: string): number | void;
  /** Queues may return how many keys they re-queued (for probes). */
  resync(): number | void;
  /** Optional (ResourceVersionUpdater / bookmark support). */
  bookmark?(resourceVersion: string): void;
  updateResourceVersion?(resourceVersion: string): void;
}

/** cache.KeyListerGetter: the queue's view of what the consumer already knows (the informer's indexer). */
export interface KeyListerGetter<T> {
  listKeys(): string[];
  getByKey(key: string): T | undefined;
}
