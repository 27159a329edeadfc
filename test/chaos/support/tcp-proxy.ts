// A loopback TCP fault proxy between the runtime and an API server. It forwards bytes untouched (TLS
// passes through, so the server certificate still verifies) and, on command, stalls every live
// connection, resets them (RST), slows them (a delay per chunk), or cuts them after forwarding only part
// of the next chunk from the server, so a watch line arrives half-written before the connection dies.
// Decisions that need dice (where to cut) come from the seeded random given at construction.
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export type ProxyFault = 'stall' | 'reset' | 'slow' | 'cut';

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Set while the server→client direction is to be cut after a partial write. */
  cutNext: boolean;
}

export interface TcpFaultProxyOptions {
  /** Where to forward: the API server's loopback port. */
  targetPort: number;
  random: () => number;
  /**
   * Plain HTTP only: the Host header to put on requests, so a server with a Host allow-list (the sandbox)
   * accepts clients that named the proxy. Each request's head is assumed to arrive in one chunk (loopback).
   */
  rewriteHost?: string;
}

export class TcpFaultProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private stalled = false;
  private delayMs = 0;
  private targetPort: number;
  private readonly random: () => number;
  private readonly rewriteHost: string | undefined;
  /** Faults applied, by kind (a fault on no live connection still counts: it shaped what came next). */
  readonly counts: Record<ProxyFault, number> = { stall: 0, reset: 0, slow: 0, cut: 0 };
  port = 0;

  constructor(options: TcpFaultProxyOptions) {
    this.targetPort = options.targetPort;
    this.random = options.random;
    this.rewriteHost = options.rewriteHost;
  }

  async start(): Promise<number> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  /** Points new connections elsewhere (an API server restarted on another port). */
  retarget(port: number): void {
    this.targetPort = port;
  }

  get connections(): number {
    return this.pairs.size;
  }

  private accept(client: Socket): void {
    const upstream = createConnection({ host: '127.0.0.1', port: this.targetPort });
    const pair: Pair = { client, upstream, cutNext: false };
    this.pairs.add(pair);
    const drop = () => {
      if (!this.pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', drop);
      s.on('close', drop);
    }
    client.on('data', (chunk: Buffer) => this.forward(pair, this.withHost(chunk), upstream, false));
    upstream.on('data', (chunk: Buffer) => this.forward(pair, chunk, client, true));
    if (this.stalled) {
      client.pause();
      upstream.pause();
    }
  }

  private withHost(chunk: Buffer): Buffer {
    const host = this.rewriteHost;
    if (host === undefined) return chunk;
    return Buffer.from(chunk.toString('latin1').replace(/^host: [^\r\n]*/gim, `Host: ${host}`), 'latin1');
  }

  private forward(pair: Pair, chunk: Buffer, to: Socket, fromServer: boolean): void {
    if (fromServer && pair.cutNext && chunk.length > 1) {
      // Half of a line (somewhere strictly inside the chunk), then the connection is gone.
      to.write(chunk.subarray(0, 1 + Math.floor(this.random() * (chunk.length - 1))), () => this.kill(pair));
      pair.cutNext = false;
      return;
    }
    if (this.delayMs === 0) {
      to.write(chunk);
      return;
    }
    // Slowed: hold reading on the source while each chunk waits, so order is kept and backpressure holds.
    const from = fromServer ? pair.upstream : pair.client;
    from.pause();
    setTimeout(() => {
      if (to.destroyed) return;
      to.write(chunk);
      if (!this.stalled) from.resume();
    }, this.delayMs);
  }

  private kill(pair: Pair): void {
    this.pairs.delete(pair);
    pair.client.destroy();
    pair.upstream.destroy();
  }

  /** Stops moving bytes in both directions on every connection (new ones too) until resume(). */
  stall(): void {
    this.counts.stall++;
    this.stalled = true;
    for (const p of this.pairs) {
      p.client.pause();
      p.upstream.pause();
    }
  }

  resume(): void {
    this.stalled = false;
    for (const p of this.pairs) {
      p.client.resume();
      p.upstream.resume();
    }
  }

  /** Every live connection torn down with a TCP RST. */
  reset(): void {
    this.counts.reset++;
    for (const p of [...this.pairs]) {
      this.pairs.delete(p);
      p.client.resetAndDestroy();
      p.upstream.destroy();
    }
  }

  /** Delays every chunk by `ms` (0 lifts it). */
  slow(ms: number): void {
    if (ms > 0) this.counts.slow++;
    this.delayMs = ms;
  }

  /** The next chunk the server sends on each live connection is forwarded only in part, then the link dies. */
  cut(): void {
    this.counts.cut++;
    for (const p of this.pairs) p.cutNext = true;
  }

  /** Lifts stall and slow; connections stay. */
  clear(): void {
    this.slow(0);
    this.resume();
    for (const p of this.pairs) p.cutNext = false;
  }

  async stop(): Promise<void> {
    this.clear();
    for (const p of [...this.pairs]) this.kill(p);
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
