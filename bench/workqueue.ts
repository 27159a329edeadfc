// Workloads 1 and 2: the basic workqueue under heavy de-duplication, and the rate-limiting queue with the
// default controller rate limiter. Same shapes as benchQueue/benchRateLimited in bench/go/main.go.
import { RateLimitingQueue, WorkQueue } from '../server/runtime/workqueue';
import type { Probe } from '../server/runtime';
import { heapDeltaMB, heapUsed, measure, startTimer, type Figure, type Sample } from './harness';
import { heapOfOneMoreRun } from './informer';
import type { Shape } from './shapes';

export const keyNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `ns/obj-${i}`);

export const queueLabel = 'workqueue add/get/done (dedup)';
export const rateLimitedLabel = 'ratelimited addRateLimited+forget';

/**
 * Each round adds every key `queueDup` times (all but the first add are absorbed by the dirty set), then one
 * worker drains the queue with get/done. ops = add calls.
 */
export async function runQueueOnce(s: Shape, probe?: Probe, measureHeap = true): Promise<Sample> {
  const keys = keyNames(s.queueKeys);
  const before = measureHeap ? heapUsed() : 0;
  const q = new WorkQueue<string>(probe ? { probe, name: 'bench' } : {});
  const timer = startTimer();
  for (let r = 0; r < s.queueRounds; r++) {
    addEach(q, keys, s.queueDup);
    await drain(q);
  }
  const { ms, cpuMs } = timer.stop();
  const heapMB = measureHeap ? heapDeltaMB(before, heapUsed()) : undefined;
  q.shutDown();
  keepUntilNextRun(q);
  return { ms, cpuMs, ...(heapMB !== undefined ? { heapMB } : {}) };
}

// The loops live in functions of their own so V8 optimizes them once and keeps them: inlined in the run
// function, whose tail (the timer and heap reading) has not run when the loop is compiled, the optimized code
// was thrown away at the end of every repetition and each one started in the interpreter again. The Go peer's
// loops are compiled ahead of time; this measures the queue, not the driver's warm-up.
function addEach(q: WorkQueue<string>, keys: readonly string[], dup: number): void {
  for (let d = 0; d < dup; d++) for (const k of keys) q.add(k);
}

async function drain(q: WorkQueue<string>): Promise<void> {
  while (q.len() > 0) {
    const got = await q.get();
    if (got.shutdown) return;
    q.done(got.item);
  }
}

/**
 * The harness forces a GC before each repetition; once the last queue is collected, V8 discards the queue's
 * optimized code ("weak objects" deopts) and the next repetition would time the compiler, not the queue.
 * Holding the previous repetition's queue until the next one is timed keeps the code warm, as in a real
 * process where queues live for its whole life.
 */
const keptAlive: unknown[] = [];
function keepUntilNextRun(q: unknown): void {
  keptAlive[0] = q;
}

/**
 * Untimed runs before the harness's own warm-up: one run of this workload takes about 15 ms, less than V8
 * needs to finish optimizing the queue's methods on its background thread, so the first timed runs were
 * still paying for the compiler (CPU time above wall time). A controller's queue lives as long as its process.
 */
const WARM_UP_RUNS = 5;

/** Timed without heap readings; the heap figure is one more run's (see heapOfOneMoreRun). */
export async function benchQueue(s: Shape): Promise<Figure> {
  const ops = s.queueKeys * s.queueRounds * s.queueDup;
  for (let i = 0; i < WARM_UP_RUNS; i++) await runQueueOnce(s, undefined, false);
  const f = await measure(queueLabel, ops, s.reps, () => runQueueOnce(s, undefined, false));
  f.heapMB = await heapOfOneMoreRun(() => runQueueOnce(s));
  return f;
}

/**
 * addRateLimited then forget for every key, round after round. Past the bucket's burst of 100 every add is
 * delayed, so the delaying queue's waiting heap holds the keys (deduplicated by key). ops = pairs.
 */
export async function benchRateLimited(s: Shape): Promise<Figure> {
  const keys = keyNames(s.rlKeys);
  const once = (measureHeap: boolean): Sample => {
    const before = measureHeap ? heapUsed() : 0;
    const q = new RateLimitingQueue<string>();
    const timer = startTimer();
    addForgetRounds(q, keys, s.rlRounds);
    const { ms, cpuMs } = timer.stop();
    const heapMB = measureHeap ? heapDeltaMB(before, heapUsed()) : undefined;
    q.shutDown();
    keepUntilNextRun(q);
    return { ms, cpuMs, ...(heapMB !== undefined ? { heapMB } : {}) };
  };
  const f = await measure(rateLimitedLabel, s.rlKeys * s.rlRounds, s.reps, () => once(false));
  f.heapMB = await heapOfOneMoreRun(() => once(true));
  return f;
}

function addForgetRounds(q: RateLimitingQueue<string>, keys: readonly string[], rounds: number): void {
  for (let r = 0; r < rounds; r++) {
    for (const k of keys) {
      q.addRateLimited(k);
      q.forget(k);
    }
  }
}
