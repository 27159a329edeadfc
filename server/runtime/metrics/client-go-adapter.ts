// Ports controller-runtime pkg/metrics/client_go_adapter.go: client-go's REST client metrics under
// client-go's names and labels. rest_client_requests_total is always registered; the latency histogram
// only once registerRESTClientMetrics asks for it, as upstream's opt-in RegisterRESTClientMetrics.
import type { Registry } from 'prom-client';
import { counterOn, histogramOn } from './registry';

/** client-go tools/metrics' hooks the HTTP client calls (RequestResult, RequestLatency). */
export interface RestClientMetrics {
  /** One per response (code as a string) or transport failure ("<error>"), per attempt. */
  requestResult(code: string, method: string, host: string): void;
  /** Seconds from the start of the request (client-side throttling included) to its response. */
  requestLatency(verb: string, host: string, seconds: number): void;
}

/** The latency buckets client-go's and controller-runtime's histograms use. */
export const REST_CLIENT_LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

const enabledLatency = new WeakSet<Registry>();

/** RESTClientMetric values of RegisterRESTClientMetrics that this port records. */
export type RESTClientMetric = 'requestLatency';

/** RegisterRESTClientMetrics: turn on rest_client_request_duration_seconds for clients on reg. */
export function registerRESTClientMetrics(reg: Registry, ...metrics: RESTClientMetric[]): void {
  for (const m of metrics) {
    if (m === 'requestLatency' && !enabledLatency.has(reg)) {
      enabledLatency.add(reg);
      latencyOn(reg);
    }
  }
}

const latencyOn = (reg: Registry) =>
  histogramOn(
    reg,
    'rest_client_request_duration_seconds',
    'Request latency in seconds. Broken down by verb and host.',
    ['verb', 'host'],
    REST_CLIENT_LATENCY_BUCKETS,
  );

/** The adapters registered on reg (the manager's registry). */
export function restClientMetrics(reg: Registry): RestClientMetrics {
  const results = counterOn(
    reg,
    'rest_client_requests_total',
    'Number of HTTP requests, partitioned by status code, method, and host.',
    ['code', 'method', 'host'],
  );
  return {
    requestResult: (code, method, host) => results.inc({ code, method, host }),
    requestLatency: (verb, host, seconds) => {
      if (enabledLatency.has(reg)) latencyOn(reg).observe({ verb, host }, seconds);
    },
  };
}
