// Raw HTTP(S) requests to an API server for the bench's own writes and watches: no client library between
// the bench and the wire, so what is timed is the server and the client under test, not a second client.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface Target {
  name: string;
  url: string;
  /** kube-apiserver (envtest) speaks HTTPS with a client certificate. */
  tls?: { ca: string; cert: string; key: string };
  /** Keep-alive sockets for a steady stream of requests; without one each request opens a connection. */
  agent?: HttpAgent;
}

/** A keep-alive agent for the target's scheme and credentials. */
export function keepAliveAgent(t: Target, maxSockets = 32): HttpAgent {
  return t.url.startsWith('https:')
    ? new HttpsAgent({ keepAlive: true, maxSockets, ...t.tls })
    : new HttpAgent({ keepAlive: true, maxSockets });
}

export function send(t: Target, method: string, path: string, body?: unknown): Promise<IncomingMessage> {
  const u = new URL(t.url + path);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
  };
  return new Promise((resolve, reject) => {
    const agent = t.agent;
    const req =
      u.protocol === 'https:'
        ? httpsRequest(u, { method, headers, ...(agent ? { agent } : t.tls) })
        : httpRequest(u, { method, headers, ...(agent ? { agent } : {}) });
    req.on('response', resolve);
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export async function readJson(res: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** Sends and drains the answer; rejects on a status of 300 or more, naming it. */
export async function write(t: Target, method: string, path: string, body?: unknown): Promise<void> {
  const res = await send(t, method, path, body);
  if ((res.statusCode ?? 0) < 300) {
    res.resume();
    await new Promise((r) => res.on('end', r));
    return;
  }
  const text = JSON.stringify(await readJson(res).catch(() => ({})));
  throw new Error(`${method} ${path} on ${t.name}: HTTP ${res.statusCode} ${text.slice(0, 300)}`);
}
