// The OpenTelemetry side of the tracer: span descriptions from the planner become SDK spans with the ids,
// times, links and attributes the planner chose, and are sent in batches by the OTLP/HTTP (protobuf)
// exporter. It reads the probe stream only (a recorder's batches), never the runtime.
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  TraceFlags,
  trace,
  type HrTime,
  type Link,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { StampedEvent } from '../../shared/protocol/events';
import type { OtelConfig } from './config';
import { SpanPlanner, type SpanPlan } from './span-plan';
import { randomSpanRef, type SpanRef } from './span-ids';

export interface TraceExporterOptions {
  config: OtelConfig;
  /** Resource attributes (semantic conventions); OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win. */
  resource: Record<string, string>;
  /** Replaces the OTLP exporter (tests). */
  exporter?: SpanExporter;
}

/** Hands the SDK the ids the planner chose: it asks for ids synchronously inside startSpan. */
class PlannedIds implements IdGenerator {
  next: SpanRef | undefined;
  generateTraceId(): string {
    return this.next?.traceId ?? randomSpanRef().traceId;
  }
  generateSpanId(): string {
    return this.next?.spanId ?? randomSpanRef().spanId;
  }
}

export class TraceExporter {
  private readonly ids = new PlannedIds();
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly planner = new SpanPlanner((s) => this.export(s));

  constructor(opts: TraceExporterOptions) {
    const resource = defaultResource()
      .merge(resourceFromAttributes(opts.resource))
      .merge(detectResources({ detectors: [envDetector] }));
    const exporter = opts.exporter ?? new OTLPTraceExporter({ url: opts.config.url });
    this.provider = new BasicTracerProvider({
      resource,
      idGenerator: this.ids,
      // The SDK's default queue (2048) drops spans from one recorder batch of a busy controller (5000
      // events, three spans per reconcile) before the first export can run.
      spanProcessors: [
        new BatchSpanProcessor(exporter, { scheduledDelayMillis: opts.config.scheduleDelayMs, maxQueueSize: 65_536 }),
      ],
    });
    this.tracer = this.provider.getTracer('controller-scope');
  }

  /** A recorder batch listener: every event goes to the planner, which emits spans as reconciles end. */
  readonly observe = (batch: readonly StampedEvent[]): void => {
    for (const ev of batch) this.planner.observe(ev);
  };

  /** Sends what is buffered now (tests, and before a process exits). */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }

  private export(s: SpanPlan): void {
    const parent = s.parentSpanId
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId: s.traceId,
          spanId: s.parentSpanId,
          traceFlags: TraceFlags.SAMPLED,
        })
      : ROOT_CONTEXT;
    const links: Link[] = s.links.map((l) => ({
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED },
      attributes: l.attributes,
    }));
    this.ids.next = { traceId: s.traceId, spanId: s.spanId };
    try {
      const span = this.tracer.startSpan(
        s.name,
        { startTime: hrTime(s.startMs), attributes: s.attributes, links },
        parent,
      );
      if (s.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: s.error });
      span.end(hrTime(s.endMs));
    } finally {
      this.ids.next = undefined;
    }
  }
}

/**
 * Epoch ms as [seconds, nanoseconds]. A bare number would not do: the SDK reads one below this process's
 * start as relative to it, and an attached process's or a replayed recording's events can be older.
 */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
