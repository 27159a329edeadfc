// Ports the health-probe server of controller-runtime pkg/manager/internal.go (addHealthProbeServer):
// readiness and liveness endpoints, plus a sub-path per check, on their own listener.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthzHandler } from './healthz';
import type { ServerRunnable } from './runnable';

export interface HealthProbeServerOptions {
  /** "host:port" or ":port"; port 0 picks a free one. */
  bindAddress: string;
  readinessEndpointName: string;
  livenessEndpointName: string;
  readyz: HealthzHandler;
  healthz: HealthzHandler;
}

export function parseBindAddress(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  const host = i > 0 ? addr.slice(0, i) : '127.0.0.1';
  const port = Number(i >= 0 ? addr.slice(i + 1) : addr);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid bind address ${addr}`);
  return { host: host.replace(/^\[|\]$/g, ''), port };
}

export class HealthProbeServer implements ServerRunnable {
  readonly kind = 'server';
  private server?: Server;
  private listening?: Promise<AddressInfo>;

  constructor(private readonly o: HealthProbeServerOptions) {}

  /** The bound address once listening (port 0 resolves to the real port). */
  address(): Promise<AddressInfo> {
    if (!this.listening) throw new Error('health probe server is not started');
    return this.listening;
  }

  async start(signal: AbortSignal): Promise<void> {
    const { host, port } = parseBindAddress(this.o.bindAddress);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = (base: string, h: HealthzHandler): boolean => {
        if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return false;
        void h.handle(url.pathname.slice(base.length), url.searchParams).then((r) => {
          res.writeHead(r.status, { 'Content-Type': r.contentType, 'X-Content-Type-Options': 'nosniff' });
          res.end(r.body);
        });
        return true;
      };
      if (route(this.o.readinessEndpointName, this.o.readyz)) return;
      if (route(this.o.livenessEndpointName, this.o.healthz)) return;
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
    });
    this.server = server;
    this.listening = new Promise<AddressInfo>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(server.address() as AddressInfo));
    });
    await this.listening;
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        server.close(() => resolve());
        server.closeAllConnections();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }
}
