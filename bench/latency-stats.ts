// The figures of one write → reconcile row from its samples: quantiles, the same less the CPU wait each
// sample went through, the slow samples and how many of them a GC pause overlapped, and the target's verdict.

/** The target: p99 ≤ 5 ms at 100 writes/s on the sandbox. */
export const TARGET_P99_MS = 5;
export const TARGET_RATE = 100;

export interface LatencySample {
  /** performance.now() when the write was sent, and when its first reconcile started. */
  sent: number;
  reconciled: number;
  /** Run-queue wait of the threads on the write's path between the two (ms). */
  waited: number;
}

export interface Interval {
  start: number;
  end: number;
}

export interface LatencyStats {
  p50: number;
  p99: number;
  max: number;
  /**
   * The p99 of each sample less the time the event-loop threads on its path (the bench process's main
   * thread, and the own-process sandbox's) spent waiting for a CPU meanwhile: an estimate of the tail on an
   * idle machine. kube-apiserver's threads are not subtracted.
   */
  p99LessWait: number;
  /** Samples over the target, and how many of them overlapped a GC pause. */
  slow: number;
  slowDuringGc: number;
}

/** The value below which p % of the sorted values lie (nearest rank); NaN for none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export function latencyStats(samples: LatencySample[], gc: Interval[]): LatencyStats {
  const latencies = samples.map((s) => s.reconciled - s.sent).sort((a, b) => a - b);
  const lessWait = samples.map((s) => Math.max(0, s.reconciled - s.sent - s.waited)).sort((a, b) => a - b);
  const slow = samples.filter((s) => s.reconciled - s.sent > TARGET_P99_MS);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    p99LessWait: percentile(lessWait, 99),
    slow: slow.length,
    slowDuringGc: slow.filter((s) => gc.some((g) => g.start < s.reconciled && g.end > s.sent)).length,
  };
}

/** Met / not met for the rows the target speaks of (the sandbox at 100 writes/s); undefined for the others. */
export function latencyVerdict(server: string, rate: number, p99: number): boolean | undefined {
  if (!server.startsWith('sandbox') || rate !== TARGET_RATE) return undefined;
  return p99 <= TARGET_P99_MS;
}
