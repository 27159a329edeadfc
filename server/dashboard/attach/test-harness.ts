// A stand-in Go bridge for the attach tests: it answers /hello and streams, for each GET /events?after=N,
// whatever bytes the test gives for that N (well-formed or not), then keeps the stream open.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawBridge {
  address: string;
  /** The `after` of each stream request, in order. */
  afters: number[];
  /** Writes more bytes to every open stream. */
  write(bytes: string | Uint8Array): void;
  close(): Promise<void>;
}

export async function rawBridge(o: {
  hello?: Record<string, unknown>;
  /** The bytes a stream starting after `after` begins with. */
  stream: (after: number) => string | Uint8Array;
}): Promise<RawBridge> {
  const afters: number[] = [];
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') {
      res.end(
        JSON.stringify({
          protocolVersion: 1,
          epoch: 'e1',
          process: 'p',
          controllers: ['c'],
          seq: 0,
          firstSeq: 1,
          dropped: 0,
          steppable: ['c'],
          ...o.hello,
        }),
      );
      return;
    }
    const after = Number(url.searchParams.get('after'));
    afters.push(after);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(o.stream(after));
    streams.add(res);
    res.on('close', () => streams.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    afters,
    write(bytes) {
      for (const s of streams) s.write(bytes);
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A stream line for event `body` (JSON without braces' contents checked) at seq. */
export function line(seq: number | string, body: string): string {
  return `{"seq":${seq},"ts":0,${body}}\n`;
}
