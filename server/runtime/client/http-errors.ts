// Error statuses and transport failures as client-go's rest.Request reports them (transformResponse,
// newUnstructuredResponseError) with apimachinery's NewGenericServerResponse reasons and messages for
// answers that carry no Status body. Transport failures get code 0 and a message that says what to check.
import type { KubeStatus } from '../../../shared/models/object';
import { ApiError } from '../util/errors';

/** Reasons of code-0 ApiErrors: failures before any HTTP status arrived. */
export const TransportReason = {
  ConnectionRefused: 'ConnectionRefused',
  DNSError: 'DNSError',
  TLSError: 'TLSError',
  NetworkError: 'NetworkError',
  ConfigError: 'ConfigError',
  /** No connection, no response headers or no body data within the client's limits. */
  Timeout: 'Timeout',
  /** A response body or watch line over the client's size cap. */
  TooLarge: 'TooLarge',
} as const;

export function parseStatus(text: string): KubeStatus | undefined {
  try {
    const v = JSON.parse(text) as Partial<KubeStatus> | null;
    if (v && typeof v === 'object' && v.kind === 'Status' && typeof v.code === 'number') return v as KubeStatus;
  } catch {
    // not JSON: fall through to a generic status
  }
  return undefined;
}

/** The reason client-go's NewGenericServerResponse gives a status code that came without a Status body. */
export function reasonForCode(code: number): string {
  const reasons: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    409: 'Conflict',
    410: 'Gone',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return reasons[code] ?? (code >= 500 ? 'InternalError' : 'Unknown');
}

export function genericMessage(code: number, text: string): string {
  const messages: Record<number, string> = {
    400: 'the server rejected our request for an unknown reason',
    401: 'the server has asked for the client to provide credentials',
    404: 'the server could not find the requested resource',
    405: 'the server does not allow this method on the requested resource',
    409: 'the server reported a conflict',
    429: 'the server has received too many requests and has asked us to try again later',
    503: 'the server is currently unable to handle the request',
    504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
  };
  const base = messages[code] ?? `an error on the server has prevented the request from succeeding (status ${code})`;
  const body = text.trim();
  return body && code !== 404 ? `${base}: ${snippet(body)}` : base;
}

export function snippet(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

/** Turns a socket-level failure into ApiError code 0 saying what to check. */
export function transportError(err: unknown, host: string): ApiError {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  const msg = e?.message ?? String(err);
  if (code === 'ECONNREFUSED') {
    return new ApiError(
      0,
      TransportReason.ConnectionRefused,
      `cannot reach the API server at ${host}: connection refused (ECONNREFUSED). ` +
        'Is the cluster running, and does the kubeconfig point at the right address?',
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ApiError(
      0,
      TransportReason.DNSError,
      `cannot resolve the API server host of ${host} (${code}). Check the server address in the kubeconfig.`,
    );
  }
  if (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    /certificate|SSL|TLS/i.test(msg)
  ) {
    return new ApiError(
      0,
      TransportReason.TLSError,
      `TLS handshake with the API server at ${host} failed: ${msg}${code ? ` (${code})` : ''}. ` +
        "Check the cluster's certificate-authority(-data) and tls-server-name in the kubeconfig.",
    );
  }
  return new ApiError(
    0,
    TransportReason.NetworkError,
    `request to the API server at ${host} failed: ${msg}${code ? ` (${code})` : ''}`,
  );
}
