// A lean ListerWatcher for the informer workloads, the counterpart of the Go peer's ListWatch over
// watch.NewFake(): the list is built when asked for, and the watch makes each MODIFIED event only when the
// reflector pulls it (as the Go fake's unbuffered channel does), so neither side holds a backlog. Unlike
// server/runtime/testing/scripted-list-watch.ts it copies nothing, so the figures are the informer's own.
import type { KubeList, KubeObject, WatchEvent } from '../shared/models/object';
import type { ListOptions, ListerWatcher, WatchStream } from '../server/runtime/client';

/** The pod the Go peer builds (bench/go/main.go pod()), as JSON. */
export function benchPod(i: number, rv: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${i}`,
      namespace: `ns-${i % 10}`,
      resourceVersion: String(rv),
      uid: `uid-${i}`,
      labels: { app: 'bench', shard: String(i % 7) },
    },
    spec: { nodeName: `node-${i % 50}`, containers: [{ name: 'c', image: 'nginx:1.27' }] },
    status: { phase: 'Running', podIP: `10.0.${Math.floor(i / 250) % 250}.${i % 250}` },
  };
}

class LazyWatch implements WatchStream<KubeObject> {
  private sent = 0;
  private stopped = false;
  private parked: ((r: IteratorResult<WatchEvent<KubeObject>>) => void) | undefined;

  constructor(
    private readonly pods: number,
    private readonly updates: number,
  ) {}

  stop(): void {
    this.stopped = true;
    this.parked?.({ value: undefined, done: true });
    this.parked = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> {
    return {
      next: (): Promise<IteratorResult<WatchEvent<KubeObject>>> => {
        if (this.stopped) return Promise.resolve({ value: undefined, done: true });
        if (this.sent < this.updates) {
          const u = this.sent++;
          const object = benchPod(u % this.pods, this.pods + u + 1);
          return Promise.resolve({ value: { type: 'MODIFIED', object }, done: false });
        }
        // Everything sent: stay open, as a quiet watch does, until the client stops it.
        return new Promise((r) => (this.parked = r));
      },
      return: (): Promise<IteratorResult<WatchEvent<KubeObject>>> => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/** Lists `pods` pods at resourceVersion `pods`, then watches `updates` modifications cycling over them. */
export class BenchListWatch implements ListerWatcher<KubeObject> {
  constructor(
    private readonly pods: number,
    private readonly updates: number,
  ) {}

  async list(_options: ListOptions): Promise<KubeList<KubeObject>> {
    const items = Array.from({ length: this.pods }, (_, i) => benchPod(i, i + 1));
    return { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: String(this.pods) }, items };
  }

  async watch(_options: ListOptions): Promise<WatchStream<KubeObject>> {
    return new LazyWatch(this.pods, this.updates);
  }

  /**
   * This watch never sends the initial-events-end bookmark, so informers (which stream with a WatchList by
   * default) must list first, as client-go's fake does (the Go peer's noWatchList).
   */
  isWatchListSemanticsUnSupported(): boolean {
    return true;
  }
}
