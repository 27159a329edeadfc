// The transport against real sockets: JSON requests, Status bodies → ApiError, auth headers from a
// kubeconfig, transport failures (connection refused, TLS) → ApiError code 0, and abort.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isNotFound,
  isResourceExpired,
  isUnauthorized,
} from '../util/errors';
import { realClock } from '../util/clock';
import { getConfig, RestConfig } from './config';
import { HttpClient, TransportReason } from './http';
import type { TestServer } from '../testing/test-server';
import {
  closedPort,
  configFor,
  selfSignedCert,
  sendJson,
  startTestServer,
  status,
  tmpDir,
  writeKubeconfig,
} from '../testing/test-server';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function serve(
  handler: Parameters<typeof startTestServer>[0],
  tls?: { key: string; cert: string },
): Promise<TestServer> {
  const s = await startTestServer(handler, tls);
  servers.push(s);
  return s;
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('HttpClient JSON requests', () => {
  it('sends query, body, content type and user agent, and decodes the answer', async () => {
    const s = await serve((req, res) => sendJson(res, 201, { echo: JSON.parse(req.body) as unknown }));
    const c = new HttpClient({ config: configFor(s) });
    const out = await c.request<{ echo: unknown }>({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      query: { dryRun: 'All', fieldManager: 'me', skipped: undefined },
      body: { a: 1 },
    });
    expect(out.echo).toEqual({ a: 1 });
    const r = s.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.query.get('dryRun')).toBe('All');
    expect(r.query.get('fieldManager')).toBe('me');
    expect(r.query.has('skipped')).toBe(false);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['accept']).toBe('application/json');
    expect(r.headers['user-agent']).toContain('controller-scope');
  });

  it('sends the bearer token of a kubeconfig user', async () => {
    const s = await serve((req, res) => sendJson(res, 200, { auth: req.headers.authorization }));
    const dir = tmpDir();
    dirs.push(dir);
    const f = writeKubeconfig(path.join(dir, 'config'), { server: s.url, token: 'sekret-token' });
    const c = new HttpClient({ config: getConfig({ kubeconfig: f, env: {} }) });
    expect(await c.request({ path: '/version' })).toEqual({ auth: 'Bearer sekret-token' });
  });

  it.each([
    [404, 'NotFound', 'configmaps "x" not found', isNotFound],
    [409, 'AlreadyExists', 'configmaps "x" already exists', isAlreadyExists],
    [
      409,
      'Conflict',
      'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
      isConflict,
    ],
    [410, 'Expired', 'The resourceVersion for the provided list is too old.', isResourceExpired],
    [
      403,
      'Forbidden',
      'pods is forbidden: User "u" cannot list resource "pods" in API group "" in the namespace "default"',
      isForbidden,
    ],
  ])('maps a %i %s Status body to ApiError', async (code, reason, message, predicate) => {
    const s = await serve((_req, res) => sendJson(res, code, status(code, reason, message)));
    const err = await rejection(new HttpClient({ config: configFor(s) }).request({ path: '/api/v1/configmaps/x' }));
    expect(err.code).toBe(code);
    expect(err.reason).toBe(reason);
    expect(err.message).toBe(message);
    expect(err.status?.kind).toBe('Status');
    expect(predicate(err)).toBe(true);
  });

  it('maps a 404 without a Status body to NotFound with the generic message', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
    });
    const err = await rejection(new HttpClient({ config: configFor(s) }).request({ path: '/apis/nope/v1' }));
    expect(err).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
  });

  it('keeps Retry-After of a plain 429', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(429, { 'Retry-After': '3' });
      res.end('slow down');
    });
    const err = await rejection(new HttpClient({ config: configFor(s), maxRetries: 0 }).request({ path: '/x' }));
    expect(err.reason).toBe('TooManyRequests');
    expect(err.status?.details?.retryAfterSeconds).toBe(3);
  });

  it('retries 429 and 5xx carrying Retry-After, waiting on the clock, up to maxRetries', async () => {
    let calls = 0;
    const s = await serve((_req, res) => {
      calls++;
      if (calls === 1)
        return sendJson(
          res,
          429,
          { ...status(429, 'TooManyRequests', 'slow down'), details: { retryAfterSeconds: 2 } },
          { 'Retry-After': '2' },
        );
      if (calls === 2) return sendJson(res, 503, status(503, 'ServiceUnavailable', 'busy'), { 'Retry-After': '1' });
      sendJson(res, 200, { ok: true });
    });
    const slept: number[] = [];
    const clock = { ...realClock, sleep: async (ms: number) => void slept.push(ms) };
    expect(await new HttpClient({ config: configFor(s), clock }).request({ path: '/x' })).toEqual({ ok: true });
    expect(slept).toEqual([2000, 1000]);
    calls = 0;
    slept.length = 0;
    const err = await rejection(new HttpClient({ config: configFor(s), clock, maxRetries: 1 }).request({ path: '/x' }));
    expect(err.reason).toBe('ServiceUnavailable');
    expect(slept).toEqual([2000]);
  });

  it('does not retry a 5xx without Retry-After', async () => {
    let calls = 0;
    const s = await serve((_req, res) => {
      calls++;
      sendJson(res, 500, status(500, 'InternalError', 'Internal error occurred: boom'));
    });
    const err = await rejection(new HttpClient({ config: configFor(s) }).request({ path: '/x' }));
    expect(err).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(calls).toBe(1);
  });

  it('explains a 401: which server and context rejected the credentials', async () => {
    const s = await serve((_req, res) => sendJson(res, 401, status(401, 'Unauthorized', 'Unauthorized')));
    const err = await rejection(new HttpClient({ config: configFor(s, 'stale') }).request({ path: '/api/v1/pods' }));
    expect(isUnauthorized(err)).toBe(true);
    expect(err.message).toContain(s.url);
    expect(err.message).toContain('rejected the credentials of context "loaded-context"');
    expect(err.message).toContain('expired');
  });

  it('fails a non-JSON success body clearly', async () => {
    const s = await serve((_req, res) => void res.end('<html>'));
    const err = await rejection(new HttpClient({ config: configFor(s) }).request({ path: '/x' }));
    expect(err.message).toContain('not JSON');
  });
});

describe('HttpClient transport failures', () => {
  it('maps ECONNREFUSED to ApiError code 0 with a clear message', async () => {
    const port = await closedPort();
    const c = new HttpClient({ config: RestConfig.forServer(`http://127.0.0.1:${port}`) });
    const err = await rejection(c.request({ path: '/version' }));
    expect(err.code).toBe(0);
    expect(err.reason).toBe(TransportReason.ConnectionRefused);
    expect(err.message).toContain(`cannot reach the API server at http://127.0.0.1:${port}`);
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('accepts a plain-http kubeconfig without insecure-skip-tls-verify (as kubectl does), token included', async () => {
    const s = await serve((req, res) => sendJson(res, 200, { auth: req.headers.authorization }));
    const c = new HttpClient({ config: RestConfig.forServer(s.url, { insecureSkipTLSVerify: false, token: 'tk' }) });
    expect(await c.request({ path: '/version' })).toEqual({ auth: 'Bearer tk' });
  });

  it('reports credentials that cannot be prepared as a config problem', async () => {
    const c = new HttpClient({ config: RestConfig.forServer('https://127.0.0.1:1', { caData: undefined }) });
    c.config.kubeConfig.clusters[0] = { ...c.config.kubeConfig.clusters[0]!, caFile: '/nonexistent/ca.crt' };
    const err = await rejection(c.request({ path: '/version' }));
    expect(err).toMatchObject({ code: 0, reason: TransportReason.ConfigError });
    expect(err.message).toContain('/nonexistent/ca.crt');
  });

  it('fails TLS against a self-signed server without its CA, and succeeds with it', async () => {
    const dir = tmpDir();
    dirs.push(dir);
    const tls = selfSignedCert(dir);
    const s = await serve((_req, res) => sendJson(res, 200, { major: '1' }), tls);
    const untrusted = new HttpClient({ config: RestConfig.forServer(s.url) });
    const err = await rejection(untrusted.request({ path: '/version' }));
    expect(err.code).toBe(0);
    expect(err.reason).toBe(TransportReason.TLSError);
    expect(err.message).toContain('TLS handshake');
    expect(err.message).toContain('certificate-authority');
    const trusted = new HttpClient({
      config: RestConfig.forServer(s.url, { caData: Buffer.from(tls.cert).toString('base64') }),
    });
    expect(await trusted.request({ path: '/version' })).toEqual({ major: '1' });
    trusted.close();
  });

  it('rejects with the abort reason when the signal fires', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    const ac = new AbortController();
    const p = new HttpClient({ config: configFor(s) }).request({ path: '/slow', signal: ac.signal });
    await new Promise((r) => setImmediate(r));
    ac.abort(new Error('stopped by test'));
    await expect(p).rejects.toThrow('stopped by test');
  });
});
