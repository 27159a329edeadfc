// Running the Go toolchain from tests: the installed toolchain (GOTOOLCHAIN=local, never a download), the
// default build cache outside the checkout, and a lower CPU priority on the shared machine.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..', '..');
const INSTALLED = '/usr/local/go/bin/go';

/** The go binary, or undefined when this machine has none. */
export function goBinary(): string | undefined {
  if (existsSync(INSTALLED)) return INSTALLED;
  const onPath = (process.env.PATH ?? '').split(':').find((d) => d && existsSync(join(d, 'go')));
  return onPath ? join(onPath, 'go') : undefined;
}

export function goEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-buildvcs=false', ...extra };
}

/** Runs `nice go ARGS` in dir; resolves with its output, rejects with it on failure. */
export function go(
  dir: string,
  args: string[],
  timeoutMs = 600_000,
  env: Record<string, string> = {},
): Promise<string> {
  const bin = goBinary();
  if (!bin) return Promise.reject(new Error('no Go toolchain (install Go 1.26 at /usr/local/go)'));
  return new Promise((resolve, reject) => {
    execFile(
      'nice',
      ['-n', '10', bin, ...args],
      { cwd: dir, env: goEnv(env), timeout: timeoutMs, maxBuffer: 32 << 20 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`go ${args.join(' ')} failed:\n${stdout}${stderr}`)) : resolve(stdout + stderr),
    );
  });
}

/** Starts a built Go program; resolves once a stderr line matches, with the match and the process. */
export function startGo(
  binary: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(binary, args, { env: goEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m, output: () => out });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${binary} exited with ${code} before it was ready:\n${out}`)));
  });
}
