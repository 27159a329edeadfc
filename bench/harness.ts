// Measuring helpers shared by every TypeScript workload: warm-up, repetitions, median time and retained heap.
// Heap figures need node's --expose-gc (the bench script passes it); without it they are left blank.

export interface Figure {
  /** Row label; ours and the Go peer's rows pair up by this exact string. */
  bench: string;
  impl: 'ours' | 'client-go';
  /** Operations one repetition performs (adds, events, items…). */
  ops: number;
  /** Median wall time of one repetition. */
  ms: number;
  /**
   * Median CPU time (user+system, all threads of the process) of one repetition: less disturbed than wall time
   * when other work shares the cores.
   */
  cpuMs?: number;
  opsPerSec: number;
  /** Heap still held by the workload's structures after it ran (MB), when measurable. */
  heapMB?: number;
  reps: number;
  /** A short remark printed beside the figure. */
  note?: string;
}

/** What one repetition reports: its wall and CPU time, and the heap it retains if it measured one. */
export interface Sample {
  ms: number;
  cpuMs?: number;
  heapMB?: number;
}

type GcFn = () => void;

const gcFn = (globalThis as { gc?: GcFn }).gc;

export const canMeasureHeap = gcFn !== undefined;

/** Collects garbage (twice, so weak/finalised leftovers go too) and returns the heap in use, in bytes. */
export function heapUsed(): number {
  if (gcFn) {
    gcFn();
    gcFn();
  }
  return process.memoryUsage().heapUsed;
}

/** Bytes between two heapUsed() readings, in MB; undefined when gc is unavailable. */
export function heapDeltaMB(before: number, after: number): number | undefined {
  if (!canMeasureHeap) return undefined;
  return Math.max(0, after - before) / (1 << 20);
}

/** Starts a wall + process-CPU stopwatch. */
export function startTimer(): { stop(): { ms: number; cpuMs: number } } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return {
    stop: () => {
      const d = process.cpuUsage(cpu);
      return { ms: performance.now() - wall, cpuMs: (d.user + d.system) / 1000 };
    },
  };
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Runs one untimed warm-up repetition (JIT, caches), then `reps` measured ones, and reports the median wall
 * and CPU times.
 * The heap figure is the last repetition's.
 */
export async function measure(
  bench: string,
  ops: number,
  reps: number,
  fn: () => Promise<Sample> | Sample,
): Promise<Figure> {
  await settle();
  await fn();
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let heapMB: number | undefined;
  for (let i = 0; i < reps; i++) {
    await settle();
    const s = await fn();
    times.push(s.ms);
    if (s.cpuMs !== undefined) cpuTimes.push(s.cpuMs);
    heapMB = s.heapMB;
  }
  const ms = median(times);
  return {
    bench,
    impl: 'ours',
    ops,
    ms,
    ...(cpuTimes.length ? { cpuMs: median(cpuTimes) } : {}),
    opsPerSec: ops / (ms / 1000),
    ...(heapMB !== undefined ? { heapMB } : {}),
    reps,
  };
}

/** Lets timers and I/O callbacks run (a macrotask turn), e.g. before reading a heap figure. */
export const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Lets the previous run's teardown finish (aborted informers unwind over a few turns), so a heap baseline
 * taken next does not count leftovers that are freed during the measured run.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await turn();
  await new Promise((r) => setTimeout(r, 5));
}
