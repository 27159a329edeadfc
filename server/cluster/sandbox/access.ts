// Who may talk to the sandbox API server. Every request must name one of the server's addresses in its Host
// header (a page that rebinds its name to 127.0.0.1 gets nothing, Secrets included). Off loopback the sandbox
// also requires a bearer token, generated unless given and written into the kubeconfig it hands out, so
// binding every interface never serves the cluster to whoever can reach the port. Health and version stay
// open, as kube-apiserver's system:public-info-viewer role leaves them.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostAllowed, hostAllowList, hostRefusal, isLoopbackHost, type HostAllowList } from '../../net/host-check';
import { sendStatus } from './http-util';
import { StatusError } from './status-errors';

export interface SandboxAccess {
  hosts: HostAllowList;
  /** Required bearer token; undefined on loopback unless one was given. */
  token: string | undefined;
  /** The token was made here (the caller says where it went). */
  generated: boolean;
}

const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

export function sandboxAccess(host: string, opts: { token?: string; allowedHosts?: string[] } = {}): SandboxAccess {
  if (opts.token !== undefined && opts.token.length === 0) throw new Error('sandbox: the token must not be empty');
  const hosts = hostAllowList(host, opts.allowedHosts);
  if (opts.token) return { hosts, token: opts.token, generated: false };
  if (isLoopbackHost(host)) return { hosts, token: undefined, generated: false };
  return { hosts, token: randomBytes(24).toString('base64url'), generated: true };
}

/** Answers and returns false when the request may not proceed. */
export function admit(access: SandboxAccess, req: IncomingMessage, res: ServerResponse): boolean {
  if (!hostAllowed(access.hosts, req.headers.host)) {
    const message = hostRefusal(access.hosts, req.headers.host, 'the sandbox API server');
    sendStatus(res, new StatusError(403, 'Forbidden', message).toStatus());
    return false;
  }
  if (access.token === undefined) return true;
  const path = (req.url ?? '/').split('?', 1)[0] as string;
  if (PUBLIC_PATHS.has(path)) return true;
  const auth = req.headers.authorization;
  const presented = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
  if (presented !== undefined && sameToken(presented, access.token)) return true;
  const message =
    presented === undefined
      ? 'Unauthorized: this sandbox listens beyond loopback and needs "Authorization: Bearer <token>"; ' +
        'the token is in the kubeconfig written by --kubeconfig-out'
      : 'Unauthorized: wrong bearer token';
  sendStatus(res, new StatusError(401, 'Unauthorized', message).toStatus());
  return false;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
