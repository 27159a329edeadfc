// Test support (not exported from the barrel): a tiny HTTP(S) server on an ephemeral 127.0.0.1 port that
// records requests and answers through a handler, so client tests speak the real wire protocol.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { KubeStatus } from '../../../shared/models/object';
import { RestConfig } from '../client/config';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type TestHandler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(handler: TestHandler, tls?: { key: string; cert: string }): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf-8'),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, listener) : http.createServer(listener);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function status(code: number, reason: string, message: string): KubeStatus {
  return { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason, message };
}

/** A RestConfig for a test server (plain http gets insecure-skip-tls-verify, as client-node requires). */
export function configFor(server: TestServer, token?: string): RestConfig {
  return RestConfig.forServer(server.url, { token });
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export function tmpDir(prefix = 'client-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A self-signed certificate for 127.0.0.1 made with openssl. */
export function selfSignedCert(dir: string): { key: string; cert: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf-8'), cert: fs.readFileSync(certFile, 'utf-8') };
}

/** Writes a one-context kubeconfig file and returns its path. */
export function writeKubeconfig(
  file: string,
  opts: {
    server: string;
    context?: string;
    token?: string;
    caData?: string;
    insecure?: boolean;
    extraContexts?: string[];
  },
): string {
  const ctx = opts.context ?? 'test';
  const contexts = [ctx, ...(opts.extraContexts ?? [])]
    .map((c) => `- name: ${c}\n  context:\n    cluster: ${ctx}-cluster\n    user: ${ctx}-user\n    namespace: ns-${c}`)
    .join('\n');
  const cluster = [
    `    server: ${opts.server}`,
    opts.caData ? `    certificate-authority-data: ${opts.caData}` : '',
    (opts.insecure ?? opts.server.startsWith('http:')) ? '    insecure-skip-tls-verify: true' : '',
  ]
    .filter(Boolean)
    .join('\n');
  const text = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${ctx}`,
    'clusters:',
    `- name: ${ctx}-cluster`,
    '  cluster:',
    cluster,
    'users:',
    `- name: ${ctx}-user`,
    '  user:',
    opts.token ? `    token: ${opts.token}` : '    {}',
    'contexts:',
    contexts,
    '',
  ].join('\n');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
