// Response writing as apiserver pkg/endpoints/handlers/responsewriters does it: JSON bodies, Status
// errors with Retry-After, plain-text 404s, pretty printing for curl and browsers.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeStatus } from '../../../shared/models/object';
import { newBadRequest, newInternalError, StatusError } from './status-errors';
import { errorMessage } from '../../runtime';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function wantsPretty(req: IncomingMessage, q: URLSearchParams): boolean {
  const p = q.get('pretty');
  if (p !== null) return p === '' || p === '1' || p === 'true';
  const ua = req.headers['user-agent'] ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

function commonHeaders(res: ServerResponse): void {
  res.setHeader('Audit-Id', randomUUID());
  res.setHeader('Cache-Control', 'no-cache, private');
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  opts: { pretty?: boolean; contentType?: string; headers?: Record<string, string> } = {},
): void {
  if (res.headersSent) return;
  commonHeaders(res);
  const text = opts.pretty ? JSON.stringify(body, null, 2) + '\n' : JSON.stringify(body);
  res.statusCode = code;
  res.setHeader('Content-Type', opts.contentType ?? 'application/json');
  for (const [k, v] of Object.entries(opts.headers ?? {})) res.setHeader(k, v);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendStatus(res: ServerResponse, status: KubeStatus, pretty = false): void {
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry && retry > 0) headers['Retry-After'] = String(retry);
  sendJson(res, status.code, status, { pretty, headers });
}

export function sendError(res: ServerResponse, err: unknown, pretty = false): void {
  if (err instanceof StatusError) {
    const s = err.toStatus();
    const token = (err as StatusError & { continueToken?: string }).continueToken;
    if (token) s.metadata = { continue: token };
    sendStatus(res, s, pretty);
    return;
  }
  sendStatus(res, newInternalError(errorMessage(err)).toStatus(), pretty);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  if (res.headersSent) return;
  commonHeaders(res);
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(text);
}

export function notFound(res: ServerResponse): void {
  sendText(res, 404, '404 page not found\n');
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new StatusError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON body; an empty body is undefined. */
export function parseJsonBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString('utf8')) as unknown;
  } catch (e) {
    throw newBadRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}
