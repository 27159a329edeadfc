// Whether traces are exported, and where: OpenTelemetry's standard variables, or --otlp-endpoint. Off unless
// asked for. go/otel.go decides by the same rules, so one environment turns both languages on or off alike.
export interface OtelConfig {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  /** OTEL_BSP_SCHEDULE_DELAY: how long spans wait before a batch is sent, ms. */
  scheduleDelayMs: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = 'http://localhost:4318';

/**
 * On when --otlp-endpoint is given, when OTEL_TRACES_EXPORTER names otlp, or when an OTLP endpoint variable
 * is set and OTEL_TRACES_EXPORTER does not say none; always off with OTEL_SDK_DISABLED=true.
 */
export function otelConfig(env: Env, flagEndpoint?: string): OtelConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase());
  const tracesUrl = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const base = nonEmpty(flagEndpoint) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const asked = flagEndpoint !== undefined || exporters.includes('otlp');
  if (!asked && (exporters.includes('none') || (tracesUrl ?? base) === undefined)) return undefined;
  // As the specification says: the signal's own variable is used as is, the base gets /v1/traces appended.
  const url =
    flagEndpoint === undefined && tracesUrl ? tracesUrl : `${(base ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return { url, scheduleDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : 5000 };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
