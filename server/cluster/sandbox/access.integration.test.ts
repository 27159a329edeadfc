// The sandbox API server against DNS rebinding and beyond loopback: a foreign Host header gets a 403 Status
// (never a Secret), and a sandbox that needs a token refuses requests without it, hands the token out in
// the kubeconfig it writes, and still answers health checks.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCluster } from '../kubeconfig';
import { sandboxAccess } from './access';
import { SandboxServer } from './server';
import { runStandaloneSandbox } from './standalone';

function get(url: string, host?: string, token?: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const headers: Record<string, string> = {};
  if (host !== undefined) headers.host = host;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('sandbox Host allow-list', () => {
  const sb = new SandboxServer();
  let port: number;
  beforeAll(async () => {
    const { url } = await sb.start();
    port = Number(new URL(url).port);
    await sb.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'default' },
      stringData: { password: 'hunter2' },
    } as never);
  });
  afterAll(() => sb.stop());

  it.each([SECRETS, '/api', '/healthz', '/version'])('refuses %s for a foreign Host with a Status', async (path) => {
    const res = await get(`${sb.url}${path}`, `rebind.example:${port}`);
    expect(res.status).toBe(403);
    const status = JSON.parse(res.body) as { kind: string; reason: string; message: string };
    expect(status).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(status.message).toContain('DNS rebinding');
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain(Buffer.from('hunter2').toString('base64'));
  });

  it('answers the loopback names with its port', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      const res = await get(`${sb.url}${SECRETS}`, `${name}:${port}`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('"db"');
    }
    expect((await get(`${sb.url}${SECRETS}`, `localhost:${port + 1}`)).status).toBe(403);
  });
});

describe('sandbox beyond loopback', () => {
  it('generates a token when bound to every interface, and none on loopback', () => {
    const open = sandboxAccess('0.0.0.0');
    expect(open.generated).toBe(true);
    expect(open.token?.length).toBeGreaterThanOrEqual(32);
    expect(open.hosts.names).toBeUndefined();
    expect(sandboxAccess('192.168.7.7').hosts.names).toContain('192.168.7.7');
    expect(sandboxAccess('127.0.0.1').token).toBeUndefined();
    expect(() => sandboxAccess('0.0.0.0', { token: '' })).toThrow(/must not be empty/);
  });

  it('requires the bearer token, writes it into --kubeconfig-out and leaves health checks open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-token-'));
    const file = join(dir, 'kubeconfig');
    const ctrl = new AbortController();
    const lines: string[] = [];
    const sb = await runStandaloneSandbox({
      port: 0,
      token: 'the-sandbox-token',
      kubeconfigOut: file,
      signal: ctrl.signal,
      log: (l) => lines.push(l),
    });
    try {
      const denied = await get(`${sb.url}${SECRETS}`);
      expect(denied.status).toBe(401);
      expect(JSON.parse(denied.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      expect(denied.body).toContain('--kubeconfig-out');
      expect((await get(`${sb.url}${SECRETS}`, undefined, 'wrong')).status).toBe(401);
      expect((await get(`${sb.url}${SECRETS}`, undefined, 'the-sandbox-token')).status).toBe(200);
      expect((await get(`${sb.url}/readyz`)).status).toBe(200);
      const kubeconfig = await readFile(file, 'utf8');
      expect(kubeconfig).toContain('    token: the-sandbox-token');
      expect(lines.join('\n')).toContain(`Bearer <token>`);
      expect(lines.join('\n')).toContain(`it is in ${file}`);
      expect(lines.join('\n')).not.toContain('the-sandbox-token');
      // The runtime's own client, configured from that kubeconfig, gets in.
      const conn = await connectCluster({ kubeconfig: file, env: {} });
      expect(conn.version.gitVersion).toMatch(/^v1\./);
    } finally {
      ctrl.abort();
      await sb.done;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
