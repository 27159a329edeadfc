// Trace export for a dashboard process: off unless the environment or --otlp-endpoint asks (config.ts); on,
// it follows a recorder's batches and sends spans over OTLP/HTTP. README "Traces" describes the spans.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { StampedEvent } from '../../shared/protocol/events';
import { OTEL_RESOURCE } from '../../shared/protocol/otel-names';
import { otelConfig, type Env } from './config';
import { TraceExporter } from './exporter';

export { otelConfig } from './config';
export { TraceExporter } from './exporter';

export interface BatchSource {
  onBatch(listener: (batch: StampedEvent[]) => void): () => void;
}

export interface TraceExport {
  /** Where spans go. */
  url: string;
  /** Stops following and sends what is left. */
  stop(): Promise<void>;
}

export function startTraceExport(source: BatchSource, env: Env, flagEndpoint?: string): TraceExport | undefined {
  const config = otelConfig(env, flagEndpoint);
  if (config === undefined) return undefined;
  const exporter = new TraceExporter({ config, resource: processResource(env) });
  const off = source.onBatch(exporter.observe);
  return {
    url: config.url,
    async stop() {
      off();
      await exporter.shutdown();
    },
  };
}

const SA_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** service.* and, in a pod, k8s.pod.name / k8s.namespace.name (the downward API's usual names first). */
export function processResource(env: Env): Record<string, string> {
  const host = hostname();
  const out: Record<string, string> = {
    [OTEL_RESOURCE.serviceName]: 'controller-scope',
    [OTEL_RESOURCE.serviceInstanceId]: `${host}/${process.pid}`,
  };
  const inPod = env.KUBERNETES_SERVICE_HOST !== undefined;
  const pod = env.POD_NAME ?? (inPod ? host : undefined);
  if (pod) out[OTEL_RESOURCE.k8sPodName] = pod;
  const ns = env.POD_NAMESPACE ?? (inPod ? readOr(SA_NAMESPACE) : undefined);
  if (ns) out[OTEL_RESOURCE.k8sNamespaceName] = ns;
  return out;
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
