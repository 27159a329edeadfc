import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ManagedProcess } from './process';
import { httpCall, pollUntilReady, ReadinessError } from './readiness';

// Only exitStatus and name are read by pollUntilReady.
const fakeProcess = (exited: boolean): ManagedProcess =>
  ({ name: 'fake', exitStatus: exited ? { code: 1, signal: null } : undefined }) as unknown as ManagedProcess;

describe('pollUntilReady', () => {
  it('resolves once the probe succeeds, retrying through errors', async () => {
    let calls = 0;
    await pollUntilReady({
      describe: 'thing',
      probe: async () => {
        calls++;
        if (calls < 3) throw new Error('not yet');
        return true;
      },
      watch: [fakeProcess(false)],
      timeoutMs: 10_000,
      intervalMs: 1,
    });
    expect(calls).toBe(3);
  });

  it('fails at once when a watched process has exited', async () => {
    let calls = 0;
    const p = pollUntilReady({
      describe: 'thing',
      probe: async () => {
        calls++;
        return false;
      },
      watch: [fakeProcess(true)],
      timeoutMs: 10_000,
      intervalMs: 1,
    });
    await expect(p).rejects.toThrow(/fake exited \(code 1, signal none\) while waiting for thing/);
    expect(calls).toBe(0);
  });

  it('reports the last probe error on timeout', async () => {
    const p = pollUntilReady({
      describe: 'thing',
      probe: async () => {
        throw new Error('status 503: warming up');
      },
      watch: [],
      timeoutMs: 0,
      intervalMs: 1,
    });
    await expect(p).rejects.toBeInstanceOf(ReadinessError);
    await expect(p).rejects.toThrow(/timed out after 0 ms waiting for thing \(status 503: warming up\)/);
  });

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    ac.abort(new Error('cancelled'));
    const p = pollUntilReady({
      describe: 'x',
      probe: async () => false,
      watch: [],
      timeoutMs: 10_000,
      intervalMs: 1,
      signal: ac.signal,
    });
    await expect(p).rejects.toThrow('cancelled');
  });
});

describe('httpCall', () => {
  it('returns status and body, and sends JSON bodies', async () => {
    const srv = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.statusCode = req.method === 'POST' ? 201 : 200;
        res.end(`${req.method} ${req.headers['content-type'] ?? '-'} ${body}`);
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/x`;
    try {
      expect(await httpCall(url)).toEqual({ status: 200, body: 'GET - ' });
      expect(await httpCall(url, { method: 'POST', body: '{"a":1}' })).toEqual({
        status: 201,
        body: 'POST application/json {"a":1}',
      });
    } finally {
      srv.close();
    }
  });

  it('rejects on connection errors', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    await expect(httpCall(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
