// The Host allow-list that stops DNS rebinding: a page on evil.example whose name is re-pointed at 127.0.0.1
// reaches a loopback server with "Host: evil.example:PORT", and the browser treats the answers as its own.
// A server bound to one address answers only requests naming it (or a loopback name) with its port. A server
// bound to every interface cannot know the names it is reached by: it accepts any Host and relies on the
// token it then requires. Used by the dashboard and by the sandbox API server.
import { isIP } from 'node:net';

/** Names every loopback-bound server answers to. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** 0.0.0.0, ::: every interface. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** The name as it appears in a Host header: lower case, IPv6 in brackets. */
function hostName(host: string): string {
  const h = host.toLowerCase();
  return isIP(h) === 6 ? `[${h}]` : h;
}

export interface HostAllowList {
  /** Names accepted in the Host header; undefined accepts any (a wildcard bind, guarded by a token). */
  names: readonly string[] | undefined;
  /** The port the Host header must carry; undefined accepts any (not yet listening). */
  port: number | undefined;
}

/** The allow-list of a server bound to bindHost: loopback names, the bound name, and any extra names. */
export function hostAllowList(bindHost: string, extra: readonly string[] = []): HostAllowList {
  if (isWildcardHost(bindHost)) return { names: undefined, port: undefined };
  const names = new Set([...LOOPBACK_HOST_NAMES, hostName(bindHost), ...extra.map(hostName)]);
  return { names: [...names], port: undefined };
}

/** Host header → name and port (80 when absent), or undefined when it is not host[:port]. */
function splitHost(header: string): { name: string; port: number } | undefined {
  const h = header.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return undefined;
    name = h.slice(0, end + 1);
    rest = h.slice(end + 1);
  } else {
    const colon = h.lastIndexOf(':');
    name = colon < 0 ? h : h.slice(0, colon);
    rest = colon < 0 ? '' : h.slice(colon);
  }
  if (rest === '') return { name, port: 80 };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  return { name, port: Number(rest.slice(1)) };
}

export function hostAllowed(list: HostAllowList, header: string | undefined): boolean {
  if (list.names === undefined) return true;
  if (header === undefined) return false;
  const h = splitHost(header);
  if (!h || !list.names.includes(h.name)) return false;
  return list.port === undefined || h.port === list.port;
}

/** The refusal, naming what was sent, what is accepted, and how to be reached under another name. */
export function hostRefusal(list: HostAllowList, header: string | undefined, server: string): string {
  const expected = (list.names ?? []).map((n) => (list.port !== undefined ? `${n}:${list.port}` : n)).join(', ');
  return (
    `${server} refused the request: Host ${header === undefined ? '(none)' : JSON.stringify(header.slice(0, 100))} ` +
    `is not one of its addresses (${expected}). This stops web pages that re-point their own name at this ` +
    `machine (DNS rebinding). To reach it under another name, start it with --host set to that address.`
  );
}
