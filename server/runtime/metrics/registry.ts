// Ports controller-runtime pkg/metrics/registry.go: one process-wide Prometheus registry that every
// controller, workqueue and leader elector reports to, with the process and runtime collectors.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** metrics.Registry. The dashboard serves it at /metrics. */
export const registry: Registry = new Registry();
collectDefaultMetrics({ register: registry });

/** A fresh registry with the default collectors (tests and embedded managers that must not share state). */
export function newRegistry(withDefaults = true): Registry {
  const r = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: r });
  return r;
}

interface MetricConfig {
  name: string;
  help: string;
  labelNames: string[];
  buckets?: number[];
}

type Ctor<M> = new (cfg: MetricConfig & { registers: Registry[] }) => M;

/**
 * Returns the metric of that name on reg, creating it on first use, so every controller on a registry
 * shares one family (prometheus.MustRegister once at init upstream).
 */
function getOrCreate<M>(reg: Registry, ctor: Ctor<M>, cfg: MetricConfig): M {
  const existing = reg.getSingleMetric(cfg.name);
  if (existing) return existing as unknown as M;
  return new ctor({ ...cfg, registers: [reg] });
}

export const counterOn = (reg: Registry, name: string, help: string, labelNames: string[]): Counter<string> =>
  getOrCreate(reg, Counter as unknown as Ctor<Counter<string>>, { name, help, labelNames });

export const gaugeOn = (reg: Registry, name: string, help: string, labelNames: string[]): Gauge<string> =>
  getOrCreate(reg, Gauge as unknown as Ctor<Gauge<string>>, { name, help, labelNames });

export const histogramOn = (
  reg: Registry,
  name: string,
  help: string,
  labelNames: string[],
  buckets: number[],
): Histogram<string> =>
  getOrCreate(reg, Histogram as unknown as Ctor<Histogram<string>>, { name, help, labelNames, buckets });
