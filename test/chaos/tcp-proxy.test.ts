// The fault proxy's own behaviour: bytes pass untouched, a cut delivers a strict prefix of the next server
// chunk and then closes, a reset arrives as ECONNRESET, a stall holds bytes until resumed, and the Host
// header is rewritten when asked.
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { prng } from '../../shared/prng';
import { TcpFaultProxy } from './support/tcp-proxy';

const servers: Server[] = [];
const proxies: TcpFaultProxy[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server that records what it receives and hands its side of each connection to the test. */
async function upstream(): Promise<{ port: number; received: () => string; conn: Promise<Socket> }> {
  let got = '';
  let resolve: (s: Socket) => void = () => {};
  const conn = new Promise<Socket>((r) => (resolve = r));
  const server = createServer((s) => {
    s.on('data', (d: Buffer) => (got += d.toString()));
    resolve(s);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, received: () => got, conn };
}

async function through(opts: { rewriteHost?: string } = {}) {
  const up = await upstream();
  const proxy = new TcpFaultProxy({ targetPort: up.port, random: prng(3), ...opts });
  proxies.push(proxy);
  await proxy.start();
  const client = createConnection({ host: '127.0.0.1', port: proxy.port });
  let got = '';
  client.on('data', (d: Buffer) => (got += d.toString()));
  const closed = new Promise<Error | undefined>((r) => {
    let err: Error | undefined;
    client.on('error', (e) => (err = e));
    client.on('close', () => r(err));
  });
  const server = await (async () => {
    client.write('hello\n');
    return up.conn;
  })();
  return { proxy, client, server, up, got: () => got, closed };
}

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

describe('TcpFaultProxy', () => {
  it('forwards both ways untouched', async () => {
    const t = await through();
    await until(() => t.up.received() === 'hello\n');
    t.server.write('{"type":"ADDED"}\n');
    await until(() => t.got() === '{"type":"ADDED"}\n');
    expect(t.proxy.connections).toBe(1);
  });

  it('cut: forwards a strict prefix of the next server chunk, then closes the connection', async () => {
    const t = await through();
    await until(() => t.proxy.connections === 1);
    const line = '{"type":"MODIFIED","object":{"metadata":{"name":"x"}}}\n';
    t.proxy.cut();
    t.server.write(line);
    await t.closed;
    expect(t.got().length).toBeGreaterThan(0);
    expect(t.got().length).toBeLessThan(line.length);
    expect(line.startsWith(t.got())).toBe(true);
    expect(t.proxy.counts.cut).toBe(1);
  });

  it('reset: the client sees ECONNRESET', async () => {
    const t = await through();
    await until(() => t.proxy.connections === 1);
    t.proxy.reset();
    expect((await t.closed)?.message).toMatch(/ECONNRESET/);
  });

  it('stall: bytes are held until resume, then delivered in order', async () => {
    const t = await through();
    await until(() => t.proxy.connections === 1);
    t.proxy.stall();
    t.server.write('one\n');
    t.server.write('two\n');
    t.proxy.resume();
    await until(() => t.got() === 'one\ntwo\n');
  });

  it('rewrites the Host header when asked (servers with a Host allow-list)', async () => {
    const t = await through({ rewriteHost: '127.0.0.1:1234' });
    t.client.write('GET / HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n');
    await until(() => t.up.received().includes('\r\n\r\n'));
    expect(t.up.received()).toContain('Host: 127.0.0.1:1234\r\n');
    expect(t.up.received()).not.toContain('127.0.0.1:9');
  });
});
