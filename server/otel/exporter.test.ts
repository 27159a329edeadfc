import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../shared/protocol/events';
import { OTEL_RESOURCE, OTEL_SPAN } from '../../shared/protocol/otel-names';
import { otelConfig } from './config';
import { TraceExporter } from './exporter';
import { writeSpanRef } from './span-ids';

describe('otelConfig', () => {
  it('is off by default and with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED', () => {
    expect(otelConfig({})).toBeUndefined();
    expect(otelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(otelConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it('follows the standard variables and the flag', () => {
    expect(otelConfig({ OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://localhost:4318/v1/traces');
    expect(otelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })?.url).toBe('http://c:4318/v1/traces');
    expect(otelConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:9/t' })?.url).toBe('http://c:9/t');
    expect(otelConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:9/t' }, 'http://f:1')?.url).toBe(
      'http://f:1/v1/traces',
    );
    expect(otelConfig({ OTEL_BSP_SCHEDULE_DELAY: '200' }, 'http://f:1')?.scheduleDelayMs).toBe(200);
  });
});

describe('TraceExporter', () => {
  it('gives the SDK span the planned ids, times, parent, links and resource', async () => {
    const memory = new InMemorySpanExporter();
    const config = { url: 'http://unused', scheduleDelayMs: 0 };
    const ex = new TraceExporter({ config, resource: { [OTEL_RESOURCE.serviceName]: 'test-svc' }, exporter: memory });
    const cause = {
      type: 'event',
      eventType: 'create',
      source: { gvk: 'v1/Secret', name: 's', uid: 'u1', resourceVersion: '3' },
    };
    const depth = { ready: 0, waiting: 0, processing: 0 };
    const events = [
      { kind: 'queue.add', queue: 'c', key: 's', cause, queued: true, dirtyWhileProcessing: false, depth, ts: 1000 },
      { kind: 'reconcile.start', controller: 'c', key: 's', worker: 1, causes: [cause], attempt: 1, ts: 1010 },
      { kind: 'reconcile.end', controller: 'c', key: 's', worker: 1, durationMs: 5, outcome: 'success', ts: 1015 },
    ].map((e, i) => ({ ...e, seq: i + 1 }) as StampedEvent);
    ex.observe(events);
    await ex.flush();
    const [rec, wait] = memory.getFinishedSpans();
    expect(rec!.name).toBe(OTEL_SPAN.reconcile);
    expect(rec!.startTime).toEqual([1, 10_000_000]);
    expect(rec!.endTime).toEqual([1, 15_000_000]);
    expect(rec!.links[0]!.context.spanId).toBe(writeSpanRef('u1', '3').spanId);
    expect(rec!.resource.attributes[OTEL_RESOURCE.serviceName]).toBe('test-svc');
    expect(wait!.name).toBe(OTEL_SPAN.queueWait);
    expect(wait!.spanContext().traceId).toBe(rec!.spanContext().traceId);
    expect(wait!.parentSpanContext?.spanId).toBe(rec!.spanContext().spanId);
    await ex.shutdown();
  });
});
