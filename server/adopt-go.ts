// `controller-scope adopt-go DIR`: builds the Go rewriter in go/cmd/adopt and runs it, from the Go module this
// package carries (a project that does not require the module yet is pointed at that directory). The
// rewriter is Go because only go/parser reads Go exactly; this file only finds it and the toolchain.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const GO_MODULE_DIR = join(import.meta.dirname, '..', 'go');

export interface AdoptGoOptions {
  dir: string;
  dryRun: boolean;
}

/** Runs the rewriter with its output on ours; resolves with its exit code (0 adopted, 1 refused or failed). */
export async function runAdoptGo(opts: AdoptGoOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (!existsSync(join(GO_MODULE_DIR, 'cmd', 'adopt', 'main.go'))) {
    throw new Error(`adopt-go needs the Go module this package ships in ${GO_MODULE_DIR}, and it is missing`);
  }
  // Built, not `go run`: go run adds its own "exit status 1" under the rewriter's refusal.
  const bin = mkdtempSync(join(tmpdir(), 'controller-scope-adopt-'));
  try {
    const built = await run('go', ['build', '-o', join(bin, 'adopt'), './cmd/adopt'], GO_MODULE_DIR, env);
    if (built !== 0) throw new Error(`could not build the rewriter in ${join(GO_MODULE_DIR, 'cmd', 'adopt')}`);
    const args = ['-scope-module', GO_MODULE_DIR];
    if (opts.dryRun) args.push('-dry-run');
    return await run(join(bin, 'adopt'), [...args, resolve(opts.dir)], process.cwd(), env);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, env, stdio: 'inherit' });
    child.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'ENOENT' && cmd === 'go'
          ? new Error('adopt-go needs the Go toolchain (go 1.25 or newer) on PATH: https://go.dev/dl/')
          : err,
      ),
    );
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}
