// A server that accepts but never answers, answers headers and then stalls, or sends more than any object
// could be: each request ends with an ApiError naming the server, the request and the phase, instead of
// hanging or filling memory. Watches are bounded per line; a line that does not decode is not quoted.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { ApiError } from '../util/errors';
import { HttpClient, TransportReason } from './http';
import { decodeWatchLine } from './list-watch';
import type { TestServer } from '../testing/test-server';
import { configFor, startTestServer } from '../testing/test-server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const s = await startTestServer(handler);
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

/** Resolves once the server has seen n requests (no timers). */
async function received(s: TestServer, n = 1): Promise<void> {
  while (s.requests.length < n) await new Promise((r) => setImmediate(r));
}

describe('HttpClient bounds', () => {
  it('gives up on a server that accepts the request and never answers, naming it', async () => {
    const s = await serve(() => new Promise(() => {}));
    const clock = new FakeClock();
    const c = new HttpClient({ config: configFor(s), clock });
    const p = rejection(c.request({ path: '/api/v1/pods' }));
    await received(s);
    clock.step(60_000);
    const err = await p;
    expect(err.code).toBe(0);
    expect(err.reason).toBe(TransportReason.Timeout);
    expect(err.message).toBe(
      `the API server at ${s.url} did not answer GET /api/v1/pods within 60 s; it may be overloaded or stuck, ` +
        'or the address may point at something that is not an API server',
    );
  });

  it('gives up on a body that stops arriving', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items": [');
    });
    const clock = new FakeClock();
    const c = new HttpClient({ config: configFor(s), clock, limits: { bodyIdleTimeoutMs: 5000 } });
    const p = rejection(c.request({ path: '/api/v1/secrets' }));
    await received(s);
    // Let the headers and the first bytes arrive before time moves.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    clock.step(5000);
    const err = await p;
    expect(err.reason).toBe(TransportReason.Timeout);
    expect(err.message).toMatch(/stopped sending its answer to GET \/api\/v1\/secrets: no data for 5 s after 11 bytes/);
  });

  it('refuses a body over the size cap', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [], pad: 'x'.repeat(200_000) }));
    });
    const c = new HttpClient({ config: configFor(s), limits: { maxBodyBytes: 100_000 } });
    const err = await rejection(c.request({ path: '/api/v1/configmaps' }));
    expect(err.reason).toBe(TransportReason.TooLarge);
    expect(err.message).toMatch(/to GET \/api\/v1\/configmaps is over 0\.1 MiB; refused/);
  });

  it('does not quote a body that is not JSON', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"kind":"Secret","data":{"password":"aHVudGVyMg=="');
    });
    const err = await rejection(new HttpClient({ config: configFor(s) }).request({ path: '/api/v1/secrets/x' }));
    expect(err.message).toMatch(/with a body that is not JSON \(50 bytes, application\/json\)/);
    expect(err.message).not.toContain('aHVudGVyMg');
  });

  it('ends a watch whose line is over the cap, without buffering it whole', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED","object":{"kind":"Pod"}}\n');
      res.write(`{"type":"ADDED","object":{"data":"${'x'.repeat(300_000)}`);
    });
    const c = new HttpClient({ config: configFor(s), limits: { maxWatchLineBytes: 100_000 } });
    const lines = await c.stream({ path: '/api/v1/pods', query: { watch: true } });
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const l of lines) seen.push(l);
    } catch (err) {
      failure = err;
    }
    expect(seen).toHaveLength(1);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).reason).toBe(TransportReason.TooLarge);
    expect((failure as ApiError).message).toMatch(/sent an event over 0\.1 MiB/);
  });
});

describe('watch lines that do not decode', () => {
  it('are described without quoting them (they may hold Secret data)', () => {
    const line = '{"type":"MODIFIED","object":{"kind":"Secret","data":{"password":"aHVudGVyMg=="}';
    const out = decodeWatchLine(line);
    expect(out).toEqual({ error: `a line of ${line.length} characters that is not valid JSON` });
    expect(JSON.stringify(decodeWatchLine('"aHVudGVyMg=="'))).not.toContain('aHVudGVyMg');
    expect(JSON.stringify(decodeWatchLine('{"type":"aHVudGVyMg==aHVudGVyMg==","object":{}}'))).not.toContain(
      'aHVudGVyMg==aHVudGVyMg==',
    );
  });
});
