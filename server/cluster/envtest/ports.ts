// Free loopback ports, after controller-runtime's pkg/internal/testing/addr/manager.go: bind port 0, read the
// port, close. Another process may grab it before the child binds, so ports handed out in this process are
// remembered for a while (envtest keeps them 2 minutes) and start-up retries on "address already in use".

import { createServer } from 'node:net';

const REUSE_AFTER_MS = 120_000;
const handedOut = new Map<number, number>();

function listenOnce(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen({ host, port: 0, exclusive: true }, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A port on `host` (default 127.0.0.1) that was free a moment ago and not handed out recently here. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const now = Date.now();
  for (const [port, at] of handedOut) if (now - at > REUSE_AFTER_MS) handedOut.delete(port);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listenOnce(host);
    if (port > 0 && !handedOut.has(port)) {
      handedOut.set(port, now);
      return port;
    }
  }
  throw new Error(`no free port found on ${host}`);
}
