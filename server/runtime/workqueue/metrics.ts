// Ports client-go util/workqueue/metrics.go (the provider interfaces and the per-queue bookkeeping) and the
// priority-aware depth of controller-runtime pkg/internal/metrics/workqueue.go. Times are read from the
// queue's Clock and reported in seconds, as Prometheus expects.
import type { Clock, TimerHandle } from '../util/clock';

export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

export interface SettableGaugeMetric {
  set(value: number): void;
}

export interface CounterMetric {
  inc(): void;
}

export interface HistogramMetric {
  observe(value: number): void;
}

/** workqueue.MetricsProvider: one metric of each kind per queue name. */
export interface MetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
}

/** controller-runtime's DepthMetricWithPriority. */
export interface DepthMetricWithPriority {
  inc(priority: number): void;
  dec(priority: number): void;
}

/** controller-runtime's MetricsProviderWithPriority: the priority queue uses it when the provider has it. */
export interface MetricsProviderWithPriority extends MetricsProvider {
  newDepthMetricWithPriority(name: string): DepthMetricWithPriority;
}

export function hasPriorityDepth(p: MetricsProvider): p is MetricsProviderWithPriority {
  return typeof (p as Partial<MetricsProviderWithPriority>).newDepthMetricWithPriority === 'function';
}

const noop = (): void => {};
const NOOP_METRIC = Object.freeze({ inc: noop, dec: noop, set: noop, observe: noop });

/** The default: records nothing, and a queue given it skips its bookkeeping entirely. */
export const NOOP_METRICS_PROVIDER: MetricsProviderWithPriority = Object.freeze({
  newDepthMetric: () => NOOP_METRIC,
  newAddsMetric: () => NOOP_METRIC,
  newLatencyMetric: () => NOOP_METRIC,
  newWorkDurationMetric: () => NOOP_METRIC,
  newUnfinishedWorkSecondsMetric: () => NOOP_METRIC,
  newLongestRunningProcessorSecondsMetric: () => NOOP_METRIC,
  newRetriesMetric: () => NOOP_METRIC,
  newDepthMetricWithPriority: () => NOOP_METRIC,
});

/** The unfinished-work gauges are refreshed this often (client-go defaultUnfinishedWorkUpdatePeriod). */
export const DEFAULT_UNFINISHED_WORK_UPDATE_PERIOD_MS = 500;

/** What a queue tells its metrics, keyed by item identity. priority is only used by the priority queue. */
export interface QueueMetrics {
  readonly enabled: boolean;
  add(key: string, priority?: number): void;
  get(key: string, priority?: number): void;
  done(key: string): void;
  updateDepthWithPriority(oldPriority: number, newPriority: number): void;
  updateUnfinishedWork(): void;
  retry(): void;
}

const NO_QUEUE_METRICS: QueueMetrics = Object.freeze({
  enabled: false,
  add: noop,
  get: noop,
  done: noop,
  updateDepthWithPriority: noop,
  updateUnfinishedWork: noop,
  retry: noop,
});

export interface QueueMetricsOptions {
  /** Empty → no metrics, as upstream: only named queues report. */
  name: string;
  provider: MetricsProvider;
  clock: Clock;
  /** Use the provider's priority-labelled depth when it has one (the priority queue does). */
  withPriority?: boolean;
}

export function newQueueMetrics(opts: QueueMetricsOptions): QueueMetrics {
  if (opts.name === '' || opts.provider === NOOP_METRICS_PROVIDER) return NO_QUEUE_METRICS;
  return new DefaultQueueMetrics(opts);
}

class DefaultQueueMetrics implements QueueMetrics {
  readonly enabled = true;
  private readonly clock: Clock;
  private readonly depth?: GaugeMetric;
  private readonly depthWithPriority?: DepthMetricWithPriority;
  private readonly adds: CounterMetric;
  private readonly latency: HistogramMetric;
  private readonly workDuration: HistogramMetric;
  private readonly unfinishedWorkSeconds: SettableGaugeMetric;
  private readonly longestRunningProcessor: SettableGaugeMetric;
  private readonly retries: CounterMetric;
  private readonly addTimes = new Map<string, number>();
  private readonly processingStartTimes = new Map<string, number>();

  constructor({ name, provider, clock, withPriority }: QueueMetricsOptions) {
    this.clock = clock;
    if (withPriority && hasPriorityDepth(provider)) this.depthWithPriority = provider.newDepthMetricWithPriority(name);
    else this.depth = provider.newDepthMetric(name);
    this.adds = provider.newAddsMetric(name);
    this.latency = provider.newLatencyMetric(name);
    this.workDuration = provider.newWorkDurationMetric(name);
    this.unfinishedWorkSeconds = provider.newUnfinishedWorkSecondsMetric(name);
    this.longestRunningProcessor = provider.newLongestRunningProcessorSecondsMetric(name);
    this.retries = provider.newRetriesMetric(name);
  }

  add(key: string, priority = 0): void {
    this.adds.inc();
    if (this.depthWithPriority) this.depthWithPriority.inc(priority);
    else this.depth?.inc();
    // The latency of an item re-added while it waits is measured from its first add.
    if (!this.addTimes.has(key)) this.addTimes.set(key, this.clock.now());
  }

  get(key: string, priority = 0): void {
    if (this.depthWithPriority) this.depthWithPriority.dec(priority);
    else this.depth?.dec();
    const now = this.clock.now();
    this.processingStartTimes.set(key, now);
    const addedAt = this.addTimes.get(key);
    if (addedAt !== undefined) {
      this.latency.observe(seconds(now - addedAt));
      this.addTimes.delete(key);
    }
  }

  done(key: string): void {
    const startedAt = this.processingStartTimes.get(key);
    if (startedAt === undefined) return;
    this.workDuration.observe(seconds(this.clock.now() - startedAt));
    this.processingStartTimes.delete(key);
  }

  updateDepthWithPriority(oldPriority: number, newPriority: number): void {
    if (!this.depthWithPriority) return;
    this.depthWithPriority.dec(oldPriority);
    this.depthWithPriority.inc(newPriority);
  }

  updateUnfinishedWork(): void {
    const now = this.clock.now();
    let total = 0;
    let oldest = 0;
    for (const startedAt of this.processingStartTimes.values()) {
      const age = seconds(now - startedAt);
      total += age;
      if (age > oldest) oldest = age;
    }
    this.unfinishedWorkSeconds.set(total);
    this.longestRunningProcessor.set(oldest);
  }

  retry(): void {
    this.retries.inc();
  }
}

function seconds(ms: number): number {
  return ms / 1000;
}

/**
 * Refreshes the unfinished-work gauges every period on the queue's clock until stopped; does nothing for a
 * queue without metrics (upstream starts the goroutine only then).
 */
export class UnfinishedWorkUpdater {
  private timer?: TimerHandle;
  private stopped = false;

  constructor(
    private readonly metrics: QueueMetrics,
    private readonly clock: Clock,
    private readonly periodMs: number,
  ) {
    if (metrics.enabled) this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = this.clock.setTimer(() => {
      if (this.stopped) return;
      this.metrics.updateUnfinishedWork();
      this.arm();
    }, this.periodMs);
  }
}
