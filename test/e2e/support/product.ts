// The real product for browser tests: `node bin/controller-scope.mjs --port 0` (the sandbox with the example
// controllers), its dashboard URL read from what it prints, and Debian's Chromium through playwright-core.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const root = resolve(import.meta.dirname, '../../..');

export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      // not on PATH; try the next name
    }
  }
  return undefined;
}

export function buildWeb(): void {
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    // vitest runs with NODE_ENV=test, which would give vite a development React build: test what ships.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export interface RunningProduct {
  url: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Added to the product's environment. */
  env?: Record<string, string>;
  /** Every chunk the product prints, stdout and stderr. */
  onOutput?: (text: string) => void;
}

/** args: what follows `controller-scope` (default none: the sandbox with the example controllers). */
export async function startProduct(args: readonly string[] = [], opts: StartOptions = {}): Promise<RunningProduct> {
  const child: ChildProcess = spawn(process.execPath, ['bin/controller-scope.mjs', ...args, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env, NO_COLOR: '1' },
  });
  if (opts.onOutput) {
    const tell = opts.onOutput;
    child.stdout?.on('data', (b: Buffer) => tell(b.toString()));
    child.stderr?.on('data', (b: Buffer) => tell(b.toString()));
  }
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no dashboard URL printed within 120s:\n${out}`)), 120_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /dashboard[^\n]*?(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/?\S*)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`controller-scope exited with ${code} before serving:\n${out}`));
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
