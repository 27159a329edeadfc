// Safe by default: the dashboard binds to loopback; any other address requires a token (generated and printed
// when none is given). Browsers are also held to their own origin, so a page elsewhere cannot drive the
// socket with the user's network position, and every request must name one of the server's own addresses
// in its Host header, so a page that rebinds its name to this machine is refused too.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostAllowList, isLoopbackHost, type HostAllowList } from '../../net/host-check';

export interface AuthOptions {
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** Required token. Default: none on loopback, generated on any other address. */
  token?: string;
  /** Extra origins allowed besides the server's own host (e.g. a dev server). Default none. */
  allowedOrigins?: string[];
  /**
   * Extra names accepted in the Host header besides loopback names and `host` (e.g. a name a reverse proxy
   * forwards). Default none. A server bound to every interface accepts any name (and requires a token).
   */
  allowedHosts?: string[];
}

export interface AuthPolicy {
  host: string;
  /** When set, every API and socket request must carry it. */
  token: string | undefined;
  /** true when the token was generated here (the caller prints it). */
  generated: boolean;
  allowedOrigins: string[];
  /** Names and port accepted in the Host header; the port is filled in once the server listens. */
  hosts: HostAllowList;
}

export const isLoopback = isLoopbackHost;

export function resolveAuth(opts: AuthOptions = {}): AuthPolicy {
  const host = opts.host ?? '127.0.0.1';
  const allowedOrigins = opts.allowedOrigins ?? [];
  const hosts = hostAllowList(host, opts.allowedHosts);
  if (opts.token !== undefined && opts.token.length === 0) throw new Error('dashboard token must not be empty');
  if (opts.token) return { host, token: opts.token, generated: false, allowedOrigins, hosts };
  if (isLoopback(host)) return { host, token: undefined, generated: false, allowedOrigins, hosts };
  return { host, token: randomBytes(24).toString('base64url'), generated: true, allowedOrigins, hosts };
}

export function tokenMatches(policy: AuthPolicy, presented: unknown): boolean {
  if (policy.token === undefined) return true;
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(policy.token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from "Authorization: Bearer …" or ?token=. */
export function tokenFromRequest(
  headers: Record<string, string | string[] | undefined>,
  url: string | undefined,
): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const q = new URL(url ?? '/', 'http://x').searchParams.get('token');
  return q ?? undefined;
}

/**
 * Same-origin check: a request without Origin (curl, node clients) passes — the token guards those; one with
 * an Origin must name the host the request was sent to, or an allowed origin.
 */
export function originAllowed(policy: AuthPolicy, origin: string | undefined, hostHeader: string | undefined): boolean {
  if (!origin) return true;
  if (policy.allowedOrigins.includes(origin)) return true;
  try {
    return hostHeader !== undefined && new URL(origin).host === hostHeader;
  } catch {
    return false;
  }
}
