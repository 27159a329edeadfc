// A watcher sees a write's event no later than the writer sees its answer, as a kube-apiserver client
// usually does: controllers reconcile again right after their own write and read a cache that must
// already hold it, or they meet conflicts and "already exists". (node used to cork each watch chunk until
// the next tick, so the answer always won: 0 of 200 events came first; kube-apiserver: about 45 %.)
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from './server';

let server: SandboxServer;
let url: string;

beforeAll(async () => {
  server = new SandboxServer({ port: 0 });
  ({ url } = await server.start());
});
afterAll(async () => server.stop());

function send(method: string, path: string, body?: unknown): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(url + path), {
      method,
      headers: {
        'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
      },
    });
    req.on('response', resolve).on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function readJson(res: IncomingMessage): Promise<{ metadata: { resourceVersion: string } }> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { metadata: { resourceVersion: string } };
}

describe('watch delivery order', () => {
  it('delivers the watch event of a write before the writer has read its answer', async () => {
    const list = await readJson(await send('GET', '/api/v1/namespaces/default/configmaps'));
    const watch = await send(
      'GET',
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    );
    const seen = new Set<string>();
    let buf = '';
    watch.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const ev = JSON.parse(buf.slice(0, i)) as { type: string; object: { metadata: { resourceVersion: string } } };
        seen.add(`${ev.type}/${ev.object.metadata.resourceVersion}`);
        buf = buf.slice(i + 1);
      }
    });
    const order: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const created = await readJson(
        await send('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `order-${i}` } }),
      );
      order.push(seen.has(`ADDED/${created.metadata.resourceVersion}`));
      const patched = await readJson(
        await send('PATCH', `/api/v1/namespaces/default/configmaps/order-${i}`, { data: { a: '1' } }),
      );
      order.push(seen.has(`MODIFIED/${patched.metadata.resourceVersion}`));
    }
    watch.destroy();
    expect(order.filter((first) => !first)).toEqual([]);
  });
});
