// `controller-scope …` as a user runs it: a child process of the real bin, its output collected, the
// dashboard's URL read from the line it prints, and a socket.io client on the dashboard (the browser's own
// reducer) to assert on what a page would show.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { LoopbackClient } from '../../loopback/loopback-client';
import type { RuntimeView } from '../../../shared/protocol/view';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface CliProcess {
  url: string;
  client: LoopbackClient;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the dashboard's view satisfies ok; rejects with the output after timeoutMs. */
  waitForView(what: string, ok: (v: RuntimeView) => boolean, timeoutMs?: number): Promise<RuntimeView>;
  waitForOutput(re: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The line that names the dashboard's URL. Default the CLI's "controller-scope is running: open URL". */
  urlLine?: RegExp;
}

/** `controller-scope ARGS…` through a bin (default this checkout's). */
export function startCli(args: string[], opts: StartOptions & { bin?: string } = {}): Promise<CliProcess> {
  return startNode([opts.bin ?? resolve(REPO_ROOT, 'bin', 'controller-scope.mjs'), ...args], opts);
}

/** `node ARGS…`, for a user's own program that serves the dashboard. */
export async function startNode(nodeArgs: string[], opts: StartOptions = {}): Promise<CliProcess> {
  const child: ChildProcess = spawn(process.execPath, nodeArgs, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  const until = async (what: string, ok: () => boolean, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (child.exitCode !== null)
        throw new Error(`controller-scope exited (${child.exitCode}) before ${what}:\n${out}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const urlLine = opts.urlLine ?? /controller-scope is running: open (\S+)/;
  const urlOf = (): string | undefined => urlLine.exec(out)?.[1];
  await until('the dashboard URL', () => urlOf() !== undefined, 60_000);
  const url = urlOf() as string;
  const client = new LoopbackClient(url);
  await client.connect();
  await client.hello();

  return {
    url,
    client,
    output: () => out,
    async waitForView(what, ok, timeoutMs = 30_000) {
      let last: unknown;
      await until(
        what,
        () => {
          try {
            return ok(client.view);
          } catch (err) {
            last = err;
            return false;
          }
        },
        timeoutMs,
      ).catch((err: unknown) => {
        const seen = `client at seq ${client.at}, controllers ${Object.keys(client.view.controllers).join(',') || 'none'}, ${JSON.stringify(client.stats)}`;
        const why = last instanceof Error ? `\nlast check failed: ${last.message}` : '';
        throw new Error(`${(err as Error).message}\n${seen}${why}`);
      });
      return client.view;
    },
    waitForOutput: (re, timeoutMs = 30_000) => until(`output matching ${re}`, () => re.test(out), timeoutMs),
    async stop() {
      client.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
      if (code === 'timeout') child.kill('SIGKILL');
    },
  };
}
