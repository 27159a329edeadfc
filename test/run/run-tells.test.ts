// `controller-scope run FILE` always tells: a setup that never settles, a busy one, a value thrown that
// cannot be printed, a kill during setup (no temp dir left), and a --watch save after a stuck generation.
// The real CLI against the embedded sandbox; every wait is on output, the view or the file system.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeView } from '../../shared/protocol/view';
import { REPO_ROOT, startCli, type CliProcess } from './support/cli-process';

const BIN = resolve(REPO_ROOT, 'bin', 'controller-scope.mjs');
const TMP_ROOT = resolve(import.meta.dirname, '.tmp');
const fixture = (name: string): string => join('test/run/fixtures', name);

function scratchDir(prefix: string): string {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, prefix));
}
const sandboxDirs = (tmp: string): string[] => readdirSync(tmp).filter((n) => n.startsWith('controller-scope-'));

async function until(what: string, ok: () => boolean, child?: ChildProcess, out?: () => string): Promise<void> {
  // No deadline of its own (the test's timeout is the bound): a loaded machine only makes it slower.
  while (!ok()) {
    if (child && child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${what}:\n${out?.()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The CLI as a bare child process, for start-ups that never print the dashboard's URL. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, exited };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('controller-scope run always tells', () => {
  it('a setup that never settles is reported with its file after --setup-timeout, and the dashboard serves', async () => {
    const cli: CliProcess = await startCli([
      'run',
      fixture('setup-never-settles.ts'),
      '--setup-timeout',
      '1',
      '--port',
      '0',
    ]);
    cleanups.push(() => cli.stop());
    await cli.waitForOutput(/setup-never-settles\.ts: setup has not settled after 1 s \(generation 1\)/);
    expect((await fetch(`${cli.url}healthz`)).status).toBe(200);
    const v: RuntimeView = await cli.waitForView('the module loading', (v) =>
      v.modules.some((m) => m.file.endsWith('setup-never-settles.ts') && m.phase === 'loading'),
    );
    expect(v.modules).toHaveLength(1);
  }, 120_000);

  it('a busy setup is named by the event-loop watchdog while it spins', async () => {
    const dir = scratchDir('busy-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const release = join(dir, 'release');
    const run = spawnCli(['run', fixture('setup-busy.ts'), '--port', '0'], {
      BUSY_UNTIL: release,
      CONTROLLER_SCOPE_WATCHDOG_MS: '300',
    });
    cleanups.push(async () => {
      run.child.kill('SIGKILL');
      await run.exited;
    });
    await until(
      'the watchdog report',
      () =>
        /event loop has been blocked for \d+ ms during setup of test\/run\/fixtures\/setup-busy\.ts/.test(run.out()),
      run.child,
      run.out,
    );
    writeFileSync(release, '');
    await until('the dashboard', () => /controller-scope is running: open/.test(run.out()), run.child, run.out);
    await until('the watchdog seeing the loop run again', () =>
      /the event loop runs again after \d+ ms/.test(run.out()),
    );
  }, 120_000);

  it('a top-level throw of Object.create(null) is described and names the file', async () => {
    const cli = await startCli(['run', fixture('throws-null-proto.ts'), '--port', '0']);
    cleanups.push(() => cli.stop());
    await cli.waitForOutput(
      /throws-null-proto\.ts failed to load: a thrown object that cannot be printed \(it has no prototype\)/,
    );
    expect(cli.output()).not.toContain('Cannot convert object to primitive value');
  }, 120_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s during setup leaves no temp dir',
    async (signal) => {
      const tmp = scratchDir('tmpdir-');
      cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
      const run = spawnCli(['run', fixture('setup-never-settles.ts'), '--port', '0', '--setup-timeout', '600'], {
        TMPDIR: tmp,
      });
      cleanups.push(async () => {
        run.child.kill('SIGKILL');
        await run.exited;
      });
      // The sandbox's dir exists before any module loads; the module.lifecycle log line comes with loading.
      await until('the sandbox temp dir', () => sandboxDirs(tmp).length > 0, run.child, run.out);
      run.child.kill(signal);
      expect(await run.exited).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(sandboxDirs(tmp)).toEqual([]);
    },
    120_000,
  );

  it('under --watch, a save after a generation whose setup never settles loads the new one', async () => {
    const dir = scratchDir('watch-stuck-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'controller.ts');
    writeFileSync(file, `export { default } from '../../fixtures/setup-never-settles';\n`);
    const cli = await startCli(['run', file, '--watch', '--setup-timeout', '1', '--port', '0']);
    cleanups.push(() => cli.stop());
    await cli.waitForOutput(/setup has not settled after 1 s \(generation 1\)/);
    writeFileSync(file, `export { setup } from '../../fixtures/named-setup';\n`);
    const v = await cli.waitForView('generation 2 loaded', (v) =>
      v.modules.some((m) => m.file === file && m.generation === 2 && m.phase === 'loaded'),
    );
    expect(v.modules.find((m) => m.file === file)?.controllers).toEqual(['named-setup']);
    expect(cli.output()).toMatch(/generation 1 had not settled when a newer save came/);
  }, 120_000);
});
