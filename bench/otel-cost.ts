// What trace export costs per reconcile: the events of N reconciles (enqueue, get, start, a write, end,
// forget, done — what a real reconcile emits) fed to the planner alone, and to the full exporter sending
// OTLP/HTTP to a real collector (Jaeger, started as the trace test does) until every span is acknowledged.
// CPU is this process's: the planner, the SDK, protobuf encoding and the HTTP client, not the collector's.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { StampedEvent } from '../shared/protocol/events';
import { SpanPlanner } from '../server/otel/span-plan';
import { TraceExporter } from '../server/otel/exporter';
import { jaegerBinary, startJaeger } from '../test/otel/support/jaeger';
import { measure, startTimer, turn, type Figure } from './harness';

const depth = { ready: 0, waiting: 0, processing: 0 };

/** The stream of `n` reconciles of distinct keys, each woken by a watch event and making one write. */
export function reconcileEvents(n: number): StampedEvent[] {
  const out: StampedEvent[] = [];
  let seq = 0;
  const at = (ts: number, ev: object) => out.push({ ...ev, seq: ++seq, ts } as StampedEvent);
  for (let i = 0; i < n; i++) {
    const key = `default/cm-${i}`;
    const t = 1_700_000_000_000 + i;
    const source = {
      gvk: 'v1/ConfigMap',
      namespace: 'default',
      name: `cm-${i}`,
      uid: `uid-${i}`,
      resourceVersion: `${2 * i}`,
    };
    const cause = { type: 'event', eventType: 'update', source };
    at(t, { kind: 'queue.add', queue: 'c', key, cause, queued: true, dirtyWhileProcessing: false, depth });
    at(t + 0.1, { kind: 'queue.get', queue: 'c', key, waitMs: 0.1, depth });
    at(t + 0.1, {
      kind: 'reconcile.start',
      controller: 'c',
      key,
      worker: 1,
      causes: [cause],
      attempt: 1,
      reconcileId: `r-${i}`,
    });
    const ref = { ...source, name: `out-${i}`, uid: `out-${i}`, resourceVersion: `${2 * i + 1}` };
    at(t + 0.4, {
      kind: 'client.request',
      controller: 'c',
      verb: 'update',
      ref,
      cached: false,
      durationMs: 0.2,
      code: 200,
      reconcileId: `r-${i}`,
    });
    at(t + 0.5, {
      kind: 'reconcile.end',
      controller: 'c',
      key,
      worker: 1,
      durationMs: 0.4,
      outcome: 'success',
      reconcileId: `r-${i}`,
    });
    at(t + 0.5, { kind: 'queue.forget', queue: 'c', key });
    at(t + 0.5, { kind: 'queue.done', queue: 'c', key, processingMs: 0.4, requeued: false, depth });
  }
  return out;
}

/** Passes spans on and counts those the collector acknowledged. */
type Done = Parameters<SpanExporter['export']>[1];
/** ExportResultCode.SUCCESS, from @opentelemetry/core (not a direct dependency). */
const SUCCESS = 0;

class CountingExporter implements SpanExporter {
  acknowledged = 0;
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: Done): void {
    this.inner.export(spans, (r) => {
      if (r.code === SUCCESS) this.acknowledged += spans.length;
      done(r);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** Feeds the events in recorder-sized batches, letting I/O run between them as the recorder's timer does. */
async function feed(events: readonly StampedEvent[], observe: (batch: StampedEvent[]) => void): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    observe(events.slice(i, i + 500));
    await turn();
  }
}

export async function benchOtelCost(reconciles: number, reps: number, notes: string[]): Promise<Figure[]> {
  const events = reconcileEvents(reconciles);
  const planner = await measure('trace planner only (per reconcile: 3 spans)', reconciles, reps, async () => {
    const timer = startTimer();
    let spans = 0;
    const p = new SpanPlanner(() => void spans++);
    await feed(events, (b) => b.forEach((e) => p.observe(e)));
    return timer.stop();
  });
  const out = [planner];
  const bin = jaegerBinary();
  if (!bin) {
    notes.push('trace export to a collector not measured: no Jaeger binary (scripts/setup-jaeger.sh)');
    return out.map(perReconcile);
  }
  const jaeger = await startJaeger(bin);
  try {
    const config = { url: `${jaeger.otlp}/v1/traces`, scheduleDelayMs: 200 };
    let short = 0;
    const full = await measure('trace export, OTLP/HTTP to Jaeger (per reconcile)', reconciles, reps, async () => {
      const exporter = new CountingExporter(new OTLPTraceExporter({ url: config.url }));
      const ex = new TraceExporter({ config, resource: { 'service.name': 'bench' }, exporter });
      const timer = startTimer();
      await feed(events, ex.observe);
      await ex.shutdown();
      const t = timer.stop();
      short = Math.max(short, 3 * reconciles - exporter.acknowledged);
      return t;
    });
    // A dropped span is cheap: the figure counts only if every span was acknowledged.
    if (short > 0) notes.push(`trace export: ${short} of ${3 * reconciles} spans were not acknowledged in a run`);
    out.push(full);
  } finally {
    await jaeger.stop();
  }
  return out.map(perReconcile);
}

const perReconcile = (f: Figure): Figure => ({
  ...f,
  note: `${(((f.cpuMs ?? f.ms) * 1000) / f.ops).toFixed(1)} µs CPU per reconcile`,
});
