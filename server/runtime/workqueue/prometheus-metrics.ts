// Ports controller-runtime pkg/internal/metrics/workqueue.go: the workqueue_* metrics, labelled with the
// queue name as both `name` and `controller`, registered on a Registry the caller owns (never prom-client's
// global one). The depth gauge also carries `priority` ("" for queues without priorities).
import { Counter, exponentialBuckets, Gauge, Histogram, type Registry } from 'prom-client';
import type {
  CounterMetric,
  DepthMetricWithPriority,
  GaugeMetric,
  HistogramMetric,
  MetricsProviderWithPriority,
  SettableGaugeMetric,
} from './metrics';

export const WORKQUEUE_SUBSYSTEM = 'workqueue';
export const DEPTH_KEY = 'depth';
export const ADDS_KEY = 'adds_total';
export const QUEUE_LATENCY_KEY = 'queue_duration_seconds';
export const WORK_DURATION_KEY = 'work_duration_seconds';
export const UNFINISHED_WORK_KEY = 'unfinished_work_seconds';
export const LONGEST_RUNNING_PROCESSOR_KEY = 'longest_running_processor_seconds';
export const RETRIES_KEY = 'retries_total';

/** Past this many distinct priorities a queue's depth is reported under one placeholder label. */
export const MAX_RECOMMENDED_UNIQUE_PRIORITIES = 25;
export const PRIORITY_CARDINALITY_EXCEEDED = 'exceeded_cardinality_limit';

const name = (key: string): string => `${WORKQUEUE_SUBSYSTEM}_${key}`;
/** 1e-8 s … 1e3 s, as prometheus.ExponentialBuckets(10e-9, 10, 12). */
const DURATION_BUCKETS = exponentialBuckets(1e-8, 10, 12);

type Labels2 = 'name' | 'controller';
type Labels3 = Labels2 | 'priority';

export interface PrometheusMetricsProviderOptions {
  /** Where the metrics are registered; a second provider on the same registry shares them. */
  registry: Registry;
}

export class PrometheusMetricsProvider implements MetricsProviderWithPriority {
  private readonly depth: Gauge<Labels3>;
  private readonly adds: Counter<Labels2>;
  private readonly latency: Histogram<Labels2>;
  private readonly workDuration: Histogram<Labels2>;
  private readonly unfinished: Gauge<Labels2>;
  private readonly longestRunning: Gauge<Labels2>;
  private readonly retries: Counter<Labels2>;

  constructor({ registry }: PrometheusMetricsProviderOptions) {
    const labelNames: Labels2[] = ['name', 'controller'];
    this.depth = reuse(registry, name(DEPTH_KEY), () => {
      return new Gauge<Labels3>({
        name: name(DEPTH_KEY),
        help: 'Items ready in the workqueue now, by queue and priority',
        labelNames: ['name', 'controller', 'priority'],
        registers: [registry],
      });
    });
    this.adds = reuse(registry, name(ADDS_KEY), () => {
      return new Counter<Labels2>({
        name: name(ADDS_KEY),
        help: 'Adds the workqueue accepted (re-adds of a queued item are not counted)',
        labelNames,
        registers: [registry],
      });
    });
    this.latency = reuse(registry, name(QUEUE_LATENCY_KEY), () => {
      return new Histogram<Labels2>({
        name: name(QUEUE_LATENCY_KEY),
        help: 'Seconds an item waited in the workqueue before a worker took it',
        labelNames,
        buckets: DURATION_BUCKETS,
        registers: [registry],
      });
    });
    this.workDuration = reuse(registry, name(WORK_DURATION_KEY), () => {
      return new Histogram<Labels2>({
        name: name(WORK_DURATION_KEY),
        help: 'Seconds a worker spent processing an item taken from the workqueue',
        labelNames,
        buckets: DURATION_BUCKETS,
        registers: [registry],
      });
    });
    this.unfinished = reuse(registry, name(UNFINISHED_WORK_KEY), () => {
      return new Gauge<Labels2>({
        name: name(UNFINISHED_WORK_KEY),
        help:
          'Seconds of work in progress not yet observed by work_duration; a steady rise means stuck workers ' +
          '(its rate of increase is the number of them).',
        labelNames,
        registers: [registry],
      });
    });
    this.longestRunning = reuse(registry, name(LONGEST_RUNNING_PROCESSOR_KEY), () => {
      return new Gauge<Labels2>({
        name: name(LONGEST_RUNNING_PROCESSOR_KEY),
        help: 'Seconds the longest-running worker of the workqueue has held its current item',
        labelNames,
        registers: [registry],
      });
    });
    this.retries = reuse(registry, name(RETRIES_KEY), () => {
      return new Counter<Labels2>({
        name: name(RETRIES_KEY),
        help: 'Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, RequeueAfter or addAfter)',
        labelNames,
        registers: [registry],
      });
    });
  }

  newDepthMetric(queue: string): GaugeMetric {
    const g = this.depth.labels(queue, queue, '');
    return { inc: () => g.inc(), dec: () => g.dec() };
  }

  newDepthMetricWithPriority(queue: string): DepthMetricWithPriority {
    const observed = new Set<number>();
    let exceeded = false;
    const label = (priority: number): string => {
      if (exceeded) return PRIORITY_CARDINALITY_EXCEEDED;
      observed.add(priority);
      if (observed.size > MAX_RECOMMENDED_UNIQUE_PRIORITIES) {
        exceeded = true;
        observed.clear();
        return PRIORITY_CARDINALITY_EXCEEDED;
      }
      return String(priority);
    };
    return {
      inc: (priority) => this.depth.labels(queue, queue, label(priority)).inc(),
      dec: (priority) => this.depth.labels(queue, queue, label(priority)).dec(),
    };
  }

  newAddsMetric(queue: string): CounterMetric {
    const c = this.adds.labels(queue, queue);
    return { inc: () => c.inc() };
  }

  newLatencyMetric(queue: string): HistogramMetric {
    const h = this.latency.labels(queue, queue);
    return { observe: (v) => h.observe(v) };
  }

  newWorkDurationMetric(queue: string): HistogramMetric {
    const h = this.workDuration.labels(queue, queue);
    return { observe: (v) => h.observe(v) };
  }

  newUnfinishedWorkSecondsMetric(queue: string): SettableGaugeMetric {
    const g = this.unfinished.labels(queue, queue);
    return { set: (v) => g.set(v) };
  }

  newLongestRunningProcessorSecondsMetric(queue: string): SettableGaugeMetric {
    const g = this.longestRunning.labels(queue, queue);
    return { set: (v) => g.set(v) };
  }

  newRetriesMetric(queue: string): CounterMetric {
    const c = this.retries.labels(queue, queue);
    return { inc: () => c.inc() };
  }
}

/** Returns the metric already registered under that name, or makes it. */
function reuse<M>(registry: Registry, metricName: string, make: () => M): M {
  return (registry.getSingleMetric(metricName) as M | undefined) ?? make();
}
