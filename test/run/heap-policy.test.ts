// The CLI sets its heap-growth policy before anything else, and a bad value of its environment variable stops
// it with one line naming the variable (checked through the real bin, as a user starts it).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_POLICY_ENV } from '../../server/heap-policy';

const BIN = resolve(import.meta.dirname, '../../bin/controller-scope.mjs');
const cli = (env: Record<string, string>) =>
  spawnSync(process.execPath, [BIN, '--help'], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

describe('the CLI heap policy', () => {
  it('refuses a value that is not a percent, naming the variable, before doing anything', () => {
    const r = cli({ [HEAP_POLICY_ENV]: 'lots' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`controller-scope: ${HEAP_POLICY_ENV}="lots" is not a percent`);
    expect(r.stdout).toBe('');
  });

  it('runs with a percent or with "default"', () => {
    for (const v of ['50', 'default']) {
      const r = cli({ [HEAP_POLICY_ENV]: v });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/controller-scope/);
    }
  });
});
