// Failures that used to get a misleading or raw message: a garbled certificate authority (reported as a
// self-signed server), a missing exec credential plugin (a raw "spawn … ENOENT"), and plain http to an
// HTTPS API server (a bare 400).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../util/errors';
import { getConfig, RestConfig } from './config';
import { HttpClient, TransportReason } from './http';
import type { TestServer } from '../testing/test-server';
import { selfSignedCert, sendJson, startTestServer, tmpDir } from '../testing/test-server';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('HttpClient messages', () => {
  it('says a certificate authority that does not parse is unusable, instead of blaming the server', async () => {
    const dir = tmpDir();
    dirs.push(dir);
    const tls = selfSignedCert(dir);
    const s = await startTestServer((_req, res) => sendJson(res, 200, { major: '1' }), tls);
    servers.push(s);
    for (const ca of ['not a certificate at all', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n']) {
      const c = new HttpClient({ config: RestConfig.forServer(s.url, { caData: Buffer.from(ca).toString('base64') }) });
      const err = await rejection(c.request({ path: '/version' }));
      expect(err.reason).toBe(TransportReason.ConfigError);
      expect(err.message).toMatch(
        new RegExp(`^the certificate authority for ${s.url} \\(certificate-authority or certificate-authority-data`),
      );
      expect(err.message).not.toMatch(/self[- ]signed/i);
    }
  });

  it('names a missing exec credential plugin and what to do', async () => {
    const dir = tmpDir();
    dirs.push(dir);
    const file = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: c',
        'clusters:',
        '- name: c',
        '  cluster:',
        '    server: https://127.0.0.1:1',
        '    insecure-skip-tls-verify: true',
        'users:',
        '- name: u',
        '  user:',
        '    exec:',
        '      apiVersion: client.authentication.k8s.io/v1',
        '      command: controller-scope-no-such-auth-plugin',
        '      interactiveMode: Never',
        'contexts:',
        '- name: c',
        '  context: {cluster: c, user: u}',
        '',
      ].join('\n'),
    );
    const c = new HttpClient({ config: getConfig({ kubeconfig: file, argv: [], env: { PATH: '/nonexistent' } }) });
    const err = await rejection(c.request({ path: '/version' }));
    expect(err.reason).toBe(TransportReason.ConfigError);
    expect(err.message).toBe(
      `the kubeconfig's exec credential plugin "controller-scope-no-such-auth-plugin" (users[].user.exec.command) ` +
        'was not found: install it or put it on PATH, then retry (needed to authenticate to https://127.0.0.1:1)',
    );
  });

  it('says to use https when an HTTPS API server gets plain http', async () => {
    // What Go's TLS server (kube-apiserver) writes back to a plain-http request.
    const s = await startTestServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Client sent an HTTP request to an HTTPS server.\n');
    });
    servers.push(s);
    const err = await rejection(new HttpClient({ config: RestConfig.forServer(s.url) }).request({ path: '/version' }));
    expect(err.code).toBe(400);
    expect(err.message).toBe(
      `the API server at ${s.url} speaks HTTPS, not plain HTTP: use ${s.url.replace('http:', 'https:')} as the ` +
        'server address in the kubeconfig',
    );
  });
});
