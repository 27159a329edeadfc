// A start that fails after the sandbox is up (here: the dashboard's port is taken) stops the sandbox and
// removes its controller-scope-sandbox-* temp dir, and says what went wrong.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApp } from '../../server/main';

const savedTmp = process.env.TMPDIR;
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

describe('a failed start', () => {
  it('leaves no sandbox temp dir behind when the dashboard port is taken', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    // A private temp root: other processes on this machine make sandbox dirs of their own.
    const root = mkdtempSync(join(tmpdir(), 'failed-start-'));
    process.env.TMPDIR = root;
    try {
      await expect(
        runApp(
          {
            command: 'dashboard',
            cluster: { mode: 'sandbox' },
            controllers: ['pod-counter'],
            port,
            host: '127.0.0.1',
            allowWrites: false,
            open: false,
          },
          () => {},
        ),
      ).rejects.toThrow(`dashboard: 127.0.0.1:${port} is already in use; choose another --port`);
      expect(readdirSync(root).filter((d) => d.startsWith('controller-scope-sandbox-'))).toEqual([]);
    } finally {
      busy.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
