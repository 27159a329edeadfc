import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports';

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ host: '127.0.0.1', port, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

describe('freePort', () => {
  it('hands out distinct, bindable loopback ports', async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const p of ports) {
      expect(p).toBeGreaterThan(0);
      expect(await canListen(p)).toBe(true);
    }
  });
});
