// Running `controller-scope adopt-go` from tests, on copies of the rewriter's own fixtures.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, goEnv } from './go-tool';

export const ADOPT_FIXTURES = join(REPO, 'go', 'cmd', 'adopt', 'testdata');
export const SCOPE_MODULE = 'github.com/controller-scope/controller-scope/go';

/** `nice controller-scope adopt-go ARGS` through this checkout's bin: its exit code and all it printed. */
export function adoptGo(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      'nice',
      ['-n', '10', process.execPath, join(REPO, 'bin', 'controller-scope.mjs'), 'adopt-go', ...args],
      { cwd: REPO, env: goEnv(), timeout: 600_000, maxBuffer: 32 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** A copy of testdata/NAME in a fresh temporary directory, named NAME. */
export function copyFixture(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `adopt-go-${name}-`)), name);
  cpSync(join(ADOPT_FIXTURES, name), dir, { recursive: true });
  return dir;
}
