// Content negotiation: apiserver pkg/endpoints/handlers/negotiation/negotiate.go. The sandbox speaks
// JSON only, plus the meta.k8s.io conversion targets (Table, PartialObjectMetadata[List]) and the
// aggregated discovery document.
import { parseJsonBody } from './http-util';
import { decodeKubernetesProtobuf, PROTOBUF_MEDIA_TYPE, ProtobufError } from './protobuf/protobuf';
import { newNotAcceptable, newUnsupportedMediaType } from './status-errors';

export type OutputTarget = 'json' | 'table' | 'partial' | 'partialList' | 'aggregatedDiscovery';

export const AGGREGATED_DISCOVERY_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
export const SUPPORTED_MEDIA_TYPES = ['application/json'];

interface Clause {
  type: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  header.split(',').forEach((raw, order) => {
    const parts = raw.split(';').map((p) => p.trim());
    const type = (parts.shift() ?? '').toLowerCase();
    if (!type) return;
    const params: Record<string, string> = {};
    for (const p of parts) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    const q = params.q !== undefined ? Number(params.q) : 1;
    out.push({ type, params, q: Number.isFinite(q) ? q : 0, order });
  });
  return out.filter((c) => c.q > 0).sort((a, b) => b.q - a.q || a.order - b.order);
}

const jsonCompatible = (t: string): boolean => t === 'application/json' || t === 'application/*' || t === '*/*';

/** Picks the response form for a resource or discovery endpoint; 406 when nothing acceptable is offered. */
export function negotiateOutput(accept: string | undefined, allowed: OutputTarget[]): OutputTarget {
  if (!accept || accept.trim() === '') return 'json';
  for (const c of parseAccept(accept)) {
    if (!jsonCompatible(c.type)) continue;
    const as = c.params.as;
    if (!as) {
      if (allowed.includes('json')) return 'json';
      continue;
    }
    const g = c.params.g;
    const v = c.params.v;
    let target: OutputTarget | undefined;
    if (as === 'Table' && g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1')) target = 'table';
    else if (as === 'PartialObjectMetadata' && g === 'meta.k8s.io' && v === 'v1') target = 'partial';
    else if (as === 'PartialObjectMetadataList' && g === 'meta.k8s.io' && v === 'v1') target = 'partialList';
    else if (as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && v === 'v2')
      target = 'aggregatedDiscovery';
    if (target && allowed.includes(target)) return target;
  }
  throw newNotAcceptable(SUPPORTED_MEDIA_TYPES);
}

/** Body decoding: JSON (or no Content-Type), protobuf for built-in kinds; anything else is 415. */
export function decodeRequestBody(contentType: string | undefined, raw: Buffer, builtin: boolean): unknown {
  if (raw.length === 0) return undefined;
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === '' || media === 'application/json') return parseJsonBody(raw);
  if (media === PROTOBUF_MEDIA_TYPE && builtin) {
    try {
      return decodeKubernetesProtobuf(raw);
    } catch (e) {
      if (e instanceof ProtobufError)
        throw newUnsupportedMediaType([...SUPPORTED_MEDIA_TYPES, PROTOBUF_MEDIA_TYPE], `${e.message}: `);
      throw e;
    }
  }
  throw newUnsupportedMediaType(builtin ? [...SUPPORTED_MEDIA_TYPES, PROTOBUF_MEDIA_TYPE] : SUPPORTED_MEDIA_TYPES);
}
