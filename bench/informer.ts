// Workload 3 (and the pipeline workload 4 reuses): a SharedIndexInformer with a namespace index and one
// handler lists `pods` pods, then takes `updates` MODIFIED events. Same shape as benchInformer in
// bench/go/main.go. The heap figure is taken with the informer still running, so it is what the cache keeps.
import type { KubeObject } from '../shared/models/object';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX, newSharedIndexInformer } from '../server/runtime/cache';
import type { CacheStore } from '../server/runtime/cache';
import type { Probe } from '../server/runtime';
import { WorkQueue } from '../server/runtime/workqueue';
import { BenchListWatch, benchPod } from './fake-list-watch';
import { heapDeltaMB, heapUsed, measure, settle, startTimer, type Figure, type Sample } from './harness';
import type { Shape } from './shapes';

export const informerLabel = (s: Shape): string => `informer list ${s.pods / 1000}k + ${s.updates / 1000}k updates`;

export interface PipelineOptions {
  probe?: Probe;
  /** Handler enqueues namespace/name into a workqueue drained by one worker (get/done). Default false. */
  withQueue?: boolean;
  /** Called with the informer's store before it runs (e.g. to give a recorder an object source). */
  onStore?: (store: CacheStore<KubeObject>) => void;
  /** Read the retained heap (forced collections before and after the run). Default true. */
  measureHeap?: boolean;
}

/** One run: start to the last event handled (and, with a queue, the last key done). */
export async function runInformerOnce(s: Shape, opts: PipelineOptions = {}): Promise<Sample> {
  const measureHeap = opts.measureHeap ?? true;
  const before = measureHeap ? heapUsed() : 0;
  const total = s.pods + s.updates;
  const probe = opts.probe;
  const informer = newSharedIndexInformer<KubeObject>({
    listerWatcher: new BenchListWatch(s.pods, s.updates),
    objectType: 'v1/Pod',
    indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
    ...(probe ? { probe } : {}),
  });
  opts.onStore?.(informer.getStore());
  const queue = opts.withQueue ? new WorkQueue<string>({ name: 'pods', ...(probe ? { probe } : {}) }) : undefined;
  let count = 0;
  let allHandled!: () => void;
  const handled = new Promise<void>((r) => (allHandled = r));
  const tick = (obj: KubeObject): void => {
    queue?.add(`${obj.metadata.namespace}/${obj.metadata.name}`);
    if (++count === total) allHandled();
  };
  informer.addEventHandler({ onAdd: tick, onUpdate: (_old, obj) => tick(obj) });
  const worker = queue
    ? (async () => {
        for (;;) {
          const got = await queue.get();
          if (got.shutdown) return;
          queue.done(got.item);
        }
      })()
    : Promise.resolve();
  const ctl = new AbortController();
  const timer = startTimer();
  const running = informer.run(ctl.signal);
  await handled;
  if (queue) {
    await queue.shutDownWithDrain();
    await worker;
  }
  const { ms, cpuMs } = timer.stop();
  const heapMB = measureHeap ? heapDeltaMB(before, heapUsed()) : undefined;
  ctl.abort();
  await running;
  return { ms, cpuMs, ...(heapMB !== undefined ? { heapMB } : {}) };
}

/**
 * The heap figure comes from one more repetition after the timed ones: a heap reading forces full collections
 * before the run, and a run that starts on a heap just collected and shrunk does about twice the collector's
 * work of one in a process that has been running (the informer workload's CPU went from about 120 to about
 * 220 ms). The Go peer measures its heap the same way (runWithHeap).
 */
export async function heapOfOneMoreRun(run: () => Promise<Sample> | Sample): Promise<number | undefined> {
  await settle();
  return (await run()).heapMB;
}

/** Heap held by the pods themselves, as plain objects in an array: the floor under the informer's figure. */
async function plainPodsKB(n: number): Promise<number | undefined> {
  await settle();
  const before = heapUsed();
  const pods = Array.from({ length: n }, (_, i) => benchPod(i, i + 1));
  const mb = heapDeltaMB(before, heapUsed());
  if (pods.length !== n) return undefined;
  return mb === undefined ? undefined : (mb * 1024) / n;
}

export async function benchInformer(s: Shape): Promise<Figure> {
  const f = await measure(informerLabel(s), s.pods + s.updates, s.reps, () =>
    runInformerOnce(s, { measureHeap: false }),
  );
  f.heapMB = await heapOfOneMoreRun(() => runInformerOnce(s));
  const plain = await plainPodsKB(s.pods);
  if (f.heapMB !== undefined && plain !== undefined) {
    f.note = `${((f.heapMB * 1024) / s.pods).toFixed(2)} KB/object retained (the pod JSON alone: ${plain.toFixed(2)} KB)`;
  }
  return f;
}
