// Scenarios of client-go util/workqueue/metrics_test.go on a FakeClock, and the prom-client provider's names
// and labels as controller-runtime registers them.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { NOOP_METRICS_PROVIDER, newQueueMetrics } from './metrics';
import { PriorityQueue } from './priority-queue';
import { PrometheusMetricsProvider } from './prometheus-metrics';
import { WorkQueue } from './queue';
import { RateLimitingQueue } from './rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from './rate-limiters';
import { TestMetricsProvider } from '../testing/workqueue-helpers';

describe('workqueue metrics (client-go metrics_test)', () => {
  it('TestMetricShutdown: the unfinished-work updater stops at shutdown', () => {
    const clock = new FakeClock(0);
    const mp = new TestMetricsProvider();
    let updates = 0;
    mp.unfinished.onChange = () => updates++;
    const q = new WorkQueue<string>({ name: 'test', clock, metrics: mp, unfinishedWorkUpdatePeriodMs: 1 });
    expect(clock.pendingTimers).toBe(1);
    clock.step(1);
    expect(updates).toBe(1);
    q.shutDown();
    clock.step(3_600_000);
    expect(updates).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('TestMetrics', async () => {
    const clock = new FakeClock(0);
    const mp = new TestMetricsProvider();
    const q = new WorkQueue<string>({ name: 'test', clock, metrics: mp, unfinishedWorkUpdatePeriodMs: 1 });
    try {
      q.add('foo');
      expect(mp.adds.gaugeValue()).toBe(1);
      expect(mp.depth.gaugeValue()).toBe(1);

      clock.step(0.05); // 50µs
      const i = await q.get();
      expect(i.item).toBe('foo');
      expect(mp.latency.observedValue).toBeCloseTo(5e-5, 12);
      expect(mp.latency.observedCount).toBe(1);

      // Re-adds while processing are de-duplicated.
      for (let n = 0; n < 5; n++) q.add('foo');
      expect(mp.adds.gaugeValue()).toBe(2);
      // The dirty re-add counts in depth though it is not queued yet.
      expect(mp.depth.gaugeValue()).toBe(1);

      clock.step(0.025); // 25µs
      q.done('foo');
      expect(mp.duration.observedValue).toBeCloseTo(2.5e-5, 12);
      expect(mp.duration.observedCount).toBe(1);
      expect(mp.depth.gaugeValue()).toBe(1);

      const again = await q.get();
      expect(again.item).toBe('foo');
      // Measured from the re-add, not from when it was queued at done().
      expect(mp.latency.observedValue).toBeCloseTo(2.5e-5, 12);
      expect(mp.latency.observedCount).toBe(2);

      // Upstream's fake clock fires the 1ms tick after moving to 1.075ms and reads 0.001; this FakeClock fires
      // it at its due time, 1ms, when the foo taken at 0.075ms has been running 0.925ms.
      clock.step(1);
      expect(mp.unfinished.gaugeValue()).toBeCloseTo(0.000925, 12);
      expect(mp.longest.gaugeValue()).toBeCloseTo(0.000925, 12);

      q.done('foo');
      expect(mp.duration.observedValue).toBeCloseTo(0.001, 12);
      expect(mp.duration.observedCount).toBe(2);
    } finally {
      q.shutDown();
    }
  });

  it('records nothing for an unnamed queue or the no-op provider, and arms no timer', () => {
    const clock = new FakeClock(0);
    const mp = new TestMetricsProvider();
    const unnamed = new WorkQueue<string>({ clock, metrics: mp });
    unnamed.add('a');
    expect(mp.adds.incs).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    expect(newQueueMetrics({ name: 'x', provider: NOOP_METRICS_PROVIDER, clock }).enabled).toBe(false);
  });

  it('the delaying queue counts every addAfter as a retry, even one that adds at once', () => {
    const clock = new FakeClock(0);
    const mp = new TestMetricsProvider();
    const q = new RateLimitingQueue<string>({
      name: 'test',
      clock,
      metrics: mp,
      rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: 1000 }),
    });
    q.addAfter('a', 0);
    q.addAfter('b', 10);
    q.addRateLimited('c');
    expect(mp.retries.incs).toBe(3);
    q.shutDown();
    q.addAfter('d', 10);
    expect(mp.retries.incs).toBe(3);
  });
});

describe('PrometheusMetricsProvider', () => {
  it('registers the upstream workqueue_* metrics on the given registry with name/controller labels', async () => {
    const registry = new Registry();
    const clock = new FakeClock(0);
    const metrics = new PrometheusMetricsProvider({ registry });
    const q = new RateLimitingQueue<string>({
      name: 'pods',
      clock,
      metrics,
      rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }),
    });
    q.add('a');
    q.add('b');
    clock.step(2);
    const r = await q.get();
    q.addRateLimited('c');
    clock.step(500);
    q.done(r.item as string);
    const text = await registry.metrics();
    q.shutDown();

    expect(text).toContain('workqueue_depth{name="pods",controller="pods",priority=""} 2');
    expect(text).toContain('workqueue_adds_total{name="pods",controller="pods"} 3');
    expect(text).toContain('workqueue_retries_total{name="pods",controller="pods"} 1');
    expect(text).toContain('workqueue_queue_duration_seconds_count{name="pods",controller="pods"} 1');
    expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="0.01",name="pods",controller="pods"} 1');
    expect(text).toContain('workqueue_work_duration_seconds_sum{name="pods",controller="pods"} 0.5');
    expect(text).toContain('workqueue_unfinished_work_seconds{name="pods",controller="pods"}');
    expect(text).toContain('workqueue_longest_running_processor_seconds{name="pods",controller="pods"}');
    const buckets = [...text.matchAll(/workqueue_work_duration_seconds_bucket\{le="([^"]+)"/g)].map((m) => m[1]);
    // prometheus.ExponentialBuckets(10e-9, 10, 12) multiplies step by step, float error included.
    const expected: number[] = [];
    for (let b = 1e-8, i = 0; i < 12; i++, b *= 10) expected.push(b);
    expect(buckets.slice(0, 12).map(Number)).toEqual(expected);
    expect(buckets[12]).toBe('+Inf');
  });

  it('labels the priority queue depth by priority and shares metrics between providers on one registry', async () => {
    const registry = new Registry();
    const clock = new FakeClock(0);
    const a = new PriorityQueue<string>({ name: 'a', clock, metrics: new PrometheusMetricsProvider({ registry }) });
    const b = new PriorityQueue<string>({ name: 'b', clock, metrics: new PrometheusMetricsProvider({ registry }) });
    a.addWithOpts({ priority: -100 }, 'x', 'y');
    b.addWithOpts({ priority: 5 }, 'x');
    const text = await registry.metrics();
    a.shutDown();
    b.shutDown();
    expect(text).toContain('workqueue_depth{name="a",controller="a",priority="-100"} 2');
    expect(text).toContain('workqueue_depth{name="b",controller="b",priority="5"} 1');
  });

  it('caps the priority label after 25 distinct priorities', async () => {
    const registry = new Registry();
    const depth = new PrometheusMetricsProvider({ registry }).newDepthMetricWithPriority('q');
    for (let p = 0; p < 25; p++) depth.inc(p);
    depth.inc(25);
    depth.inc(0);
    const text = await registry.metrics();
    expect(text).toContain('workqueue_depth{name="q",controller="q",priority="24"} 1');
    expect(text).toContain('workqueue_depth{name="q",controller="q",priority="exceeded_cardinality_limit"} 2');
  });
});
