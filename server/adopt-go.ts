// `controller-scope adopt-go DIR`: runs the Go rewriter in go/cmd/adopt with `go run`, from the Go module
// this package carries (a project that does not require the module yet is pointed at that directory).
// The rewriter is Go because only go/parser reads Go exactly; this file only finds it and the toolchain.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const GO_MODULE_DIR = join(import.meta.dirname, '..', 'go');

export interface AdoptGoOptions {
  dir: string;
  dryRun: boolean;
}

/** Runs the rewriter with its output on ours; resolves with its exit code (0 adopted, 1 refused or failed). */
export function runAdoptGo(opts: AdoptGoOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (!existsSync(join(GO_MODULE_DIR, 'cmd', 'adopt', 'main.go'))) {
    return Promise.reject(
      new Error(`adopt-go needs the Go module this package ships in ${GO_MODULE_DIR}, and it is missing`),
    );
  }
  const args = ['run', './cmd/adopt', '-scope-module', GO_MODULE_DIR];
  if (opts.dryRun) args.push('-dry-run');
  args.push(resolve(opts.dir));
  return new Promise((done, fail) => {
    const child = spawn('go', args, { cwd: GO_MODULE_DIR, env, stdio: 'inherit' });
    child.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'ENOENT'
          ? new Error('adopt-go needs the Go toolchain (go 1.25 or newer) on PATH: https://go.dev/dl/')
          : err,
      ),
    );
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}
