// Test helpers for the workqueue tests: promise state probes and an in-memory metrics provider shaped like
// upstream's test providers (client-go testMetricsProvider, controller-runtime fakeMetricsProvider).
import { flushMicrotasks } from './fake-clock';
import type {
  CounterMetric,
  DepthMetricWithPriority,
  GaugeMetric,
  HistogramMetric,
  MetricsProvider,
  MetricsProviderWithPriority,
  SettableGaugeMetric,
} from '../workqueue/metrics';

/** Tracks whether a promise has settled, and its value. */
export function track<V>(p: Promise<V>): { readonly settled: boolean; readonly value: V | undefined } {
  const state: { settled: boolean; value: V | undefined } = { settled: false, value: undefined };
  void p.then((v) => {
    state.settled = true;
    state.value = v;
  });
  return state;
}

export { flushMicrotasks };

/** client-go's testMetric: one object that can play every metric kind. */
export class TestMetric implements GaugeMetric, SettableGaugeMetric, CounterMetric, HistogramMetric {
  incs = 0;
  decs = 0;
  setValue = 0;
  observedValue = 0;
  observedCount = 0;
  onChange?: () => void;

  inc(): void {
    this.incs++;
    this.onChange?.();
  }
  dec(): void {
    this.decs++;
    this.onChange?.();
  }
  set(v: number): void {
    this.setValue = v;
    this.onChange?.();
  }
  observe(v: number): void {
    this.observedValue = v;
    this.observedCount++;
    this.onChange?.();
  }
  gaugeValue(): number {
    return this.setValue !== 0 ? this.setValue : this.incs - this.decs;
  }
}

export class TestMetricsProvider implements MetricsProvider {
  readonly depth = new TestMetric();
  readonly adds = new TestMetric();
  readonly latency = new TestMetric();
  readonly duration = new TestMetric();
  readonly unfinished = new TestMetric();
  readonly longest = new TestMetric();
  readonly retries = new TestMetric();

  newDepthMetric = (): GaugeMetric => this.depth;
  newAddsMetric = (): CounterMetric => this.adds;
  newLatencyMetric = (): HistogramMetric => this.latency;
  newWorkDurationMetric = (): HistogramMetric => this.duration;
  newUnfinishedWorkSecondsMetric = (): SettableGaugeMetric => this.unfinished;
  newLongestRunningProcessorSecondsMetric = (): SettableGaugeMetric => this.longest;
  newRetriesMetric = (): CounterMetric => this.retries;
}

/** controller-runtime's fakeMetricsProvider: depth per queue per priority, adds and retries per queue. */
export class FakePriorityMetricsProvider implements MetricsProviderWithPriority {
  readonly depth: Record<string, Record<number, number>> = {};
  readonly adds: Record<string, number> = {};
  readonly retries: Record<string, number> = {};

  newDepthMetric(): GaugeMetric {
    throw new Error('the priority queue must use the priority depth metric');
  }
  newDepthMetricWithPriority(name: string): DepthMetricWithPriority {
    const d = (this.depth[name] = {} as Record<number, number>);
    return {
      inc: (p) => {
        d[p] = (d[p] ?? 0) + 1;
      },
      dec: (p) => {
        d[p] = (d[p] ?? 0) - 1;
      },
    };
  }
  newAddsMetric(name: string): CounterMetric {
    this.adds[name] = 0;
    return { inc: () => void (this.adds[name] = (this.adds[name] ?? 0) + 1) };
  }
  newRetriesMetric(name: string): CounterMetric {
    this.retries[name] = 0;
    return { inc: () => void (this.retries[name] = (this.retries[name] ?? 0) + 1) };
  }
  newLatencyMetric = (): HistogramMetric => ({ observe: () => {} });
  newWorkDurationMetric = (): HistogramMetric => ({ observe: () => {} });
  newUnfinishedWorkSecondsMetric = (): SettableGaugeMetric => ({ set: () => {} });
  newLongestRunningProcessorSecondsMetric = (): SettableGaugeMetric => ({ set: () => {} });
}
