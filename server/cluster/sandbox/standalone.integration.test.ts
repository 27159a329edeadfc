// runStandaloneSandbox, as the CLI's `sandbox --port P --kubeconfig-out FILE` calls it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStandaloneSandbox } from './standalone';

describe('runStandaloneSandbox', () => {
  it('serves, writes a kubeconfig pointing at itself and stops when aborted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-standalone-'));
    const file = join(dir, 'kubeconfig');
    const ctrl = new AbortController();
    const lines: string[] = [];
    const sb = await runStandaloneSandbox({
      port: 0,
      kubeconfigOut: file,
      signal: ctrl.signal,
      log: (l) => lines.push(l),
    });
    try {
      expect(await (await fetch(`${sb.url}/readyz`)).text()).toBe('ok');
      expect(await readFile(file, 'utf8')).toContain(`server: ${sb.url}`);
      expect(lines[0]).toBe(`sandbox API server listening on ${sb.url}`);
    } finally {
      ctrl.abort();
      await sb.done;
      await rm(dir, { recursive: true, force: true });
    }
    await expect(fetch(`${sb.url}/readyz`)).rejects.toThrow();
  });
});
