// DNS rebinding: a page whose name now resolves to 127.0.0.1 reaches the dashboard with its own name in the
// Host header. Every route and the socket.io handshake (polling and websocket) refuse such a request; the
// loopback names and the bound name, with the bound port, pass.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard } from './test-harness';
import type { DashboardServer } from './dashboard-server';

interface Answer {
  status: number;
  body: string;
}

function get(port: number, path: string, host: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' };
const wsKey = { 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
const ROUTES = ['/healthz', '/readyz', '/api/view', '/api/recording', '/metrics', '/', '/some/client/route'];

describe('Host allow-list on a loopback dashboard', () => {
  let dash: DashboardServer;
  let port: number;

  beforeAll(async () => {
    ({ dash } = await startTestDashboard({ host: '127.0.0.1' }));
    port = dash.port;
  });
  afterAll(() => dash.close());

  it.each(ROUTES)('refuses %s for a foreign Host, naming what it accepts', async (path) => {
    const res = await get(port, path, `rebind.example:${port}`);
    expect(res.status).toBe(403);
    expect(res.body).toContain('Host "rebind.example:');
    expect(res.body).toContain(`127.0.0.1:${port}, localhost:${port}, [::1]:${port}`);
    expect(res.body).toContain('DNS rebinding');
  });

  it('refuses a loopback name with another port, and a missing or malformed Host', async () => {
    expect((await get(port, '/api/view', `127.0.0.1:${port + 1}`)).status).toBe(403);
    expect((await get(port, '/api/view', 'localhost')).status).toBe(403);
    expect((await get(port, '/api/view', `localhost:${port}x`)).status).toBe(403);
    expect((await get(port, '/api/view', `127.0.0.1.rebind.example:${port}`)).status).toBe(403);
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('answers Host %s with the port', async (name) => {
    const res = await get(port, '/api/view', `${name}:${port}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('lastSeq');
  });

  it('refuses the socket.io handshake for a foreign Host, over polling and websocket', async () => {
    const polling = await get(port, '/socket.io/?EIO=4&transport=polling', `rebind.example:${port}`);
    expect(polling.status).toBe(403);
    expect(polling.body).toContain('DNS rebinding');
    const ws = await get(port, '/socket.io/?EIO=4&transport=websocket', `rebind.example:${port}`, {
      ...upgrade,
      ...wsKey,
    });
    expect(ws.status).not.toBe(101);
    const ok = await get(port, '/socket.io/?EIO=4&transport=websocket', `localhost:${port}`, { ...upgrade, ...wsKey });
    expect(ok.status).toBe(101);
    const okPolling = await get(port, '/socket.io/?EIO=4&transport=polling', `127.0.0.1:${port}`);
    expect(okPolling.status).toBe(200);
  });
});

describe('Host allow-list on a dashboard bound to every interface', () => {
  it('accepts any name, because a token is then required', async () => {
    const { dash } = await startTestDashboard({ host: '0.0.0.0', token: 'secret-token' });
    try {
      expect((await get(dash.port, '/healthz', `my-machine.lan:${dash.port}`)).status).toBe(200);
      expect((await get(dash.port, '/api/view', `my-machine.lan:${dash.port}`)).status).toBe(401);
      const authed = await get(dash.port, '/api/view', `my-machine.lan:${dash.port}`, {
        authorization: 'Bearer secret-token',
      });
      expect(authed.status).toBe(200);
    } finally {
      await dash.close();
    }
  });

  it('accepts names given in allowedHosts on a specific address', async () => {
    const { dash } = await startTestDashboard({ host: '127.0.0.1', allowedHosts: ['scope.internal'] });
    try {
      expect((await get(dash.port, '/healthz', `scope.internal:${dash.port}`)).status).toBe(200);
      expect((await get(dash.port, '/healthz', `other.internal:${dash.port}`)).status).toBe(403);
    } finally {
      await dash.close();
    }
  });
});

describe('hardening headers', () => {
  it('forbid framing and referrers on every answer, refusals included', async () => {
    const web = mkdtempSync(join(tmpdir(), 'cs-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>app</title>');
    const { dash } = await startTestDashboard({ host: '127.0.0.1', staticDir: web });
    try {
      for (const [path, host] of [
        ['/some/route', `localhost:${dash.port}`],
        ['/', `127.0.0.1:${dash.port}`],
        ['/api/view', `127.0.0.1:${dash.port}`],
        ['/healthz', `rebind.example:${dash.port}`],
      ] as const) {
        const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: dash.port, path, headers: { host } }, (res) => {
            res.resume();
            resolve(res.headers);
          });
          req.on('error', reject);
          req.end();
        });
        expect(headers['x-frame-options']).toBe('DENY');
        expect(headers['content-security-policy']).toBe("frame-ancestors 'none'");
        expect(headers['referrer-policy']).toBe('no-referrer');
      }
    } finally {
      await dash.close();
      rmSync(web, { recursive: true, force: true });
    }
  });
});
