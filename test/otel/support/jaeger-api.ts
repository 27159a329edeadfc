// Reading traces back from Jaeger's query API: api/v3 returns OTLP JSON (links keep their attributes, which
// the v1 API drops); the v1 search finds traces by service, operation and tag.

export interface Attr {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  attributes?: Attr[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Attr[];
  links?: OtlpLink[];
  /** The resource's attributes, copied onto each span for the assertions. */
  resource: Record<string, string>;
}

/** OTLP JSON ids are hex; some gateways send base64. Both become lowercase hex. */
export function hexId(id: string | undefined): string {
  if (!id) return '';
  if (/^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}

export function attrs(list: Attr[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of list ?? []) {
    const v = a.value;
    out[a.key] = String(v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue ?? '');
  }
  return out;
}

interface V3Response {
  result?: { resourceSpans?: { resource?: { attributes?: Attr[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
}

/** Every span of a trace, or [] while Jaeger does not have it yet. */
export async function traceSpans(query: string, traceId: string): Promise<OtlpSpan[]> {
  const res = await fetch(`${query}/api/v3/traces/${traceId}`);
  if (!res.ok) return [];
  const body = (await res.json()) as V3Response;
  return (body.result?.resourceSpans ?? []).flatMap((rs) => {
    const resource = attrs(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        ...s,
        traceId: hexId(s.traceId),
        spanId: hexId(s.spanId),
        parentSpanId: hexId(s.parentSpanId),
        links: (s.links ?? []).map((l) => ({ ...l, traceId: hexId(l.traceId), spanId: hexId(l.spanId) })),
        resource,
      })),
    );
  });
}

/** Trace ids of the service's spans named `operation` carrying the tag (v1 search API). */
export async function findTraces(
  query: string,
  service: string,
  operation: string,
  tags: Record<string, string>,
): Promise<string[]> {
  const q = new URLSearchParams({ service, operation, tags: JSON.stringify(tags), limit: '20', lookback: '1h' });
  const res = await fetch(`${query}/api/traces?${q}`);
  if (!res.ok) return [];
  const body = (await res.json()) as { data?: { traceID: string }[] };
  return (body.data ?? []).map((t) => t.traceID);
}

/** Polls an async probe until it gives a value, failing with what it waited for: a condition, not a time. */
export async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
