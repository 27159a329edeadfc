// Spawns real (shell) processes to prove the group handling that keeps etcd/kube-apiserver from leaking.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { groupAlive, ManagedProcess, procStat } from './process';

const dir = mkdtempSync(join(tmpdir(), 'envtest-process-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A zombie (killed, not yet reaped by init) is gone for our purposes.
function alive(pid: number): boolean {
  const st = procStat(pid);
  return st !== undefined && st.state !== 'Z';
}

// Generous: a loaded 2-core machine can take seconds to boot a node+tsx child.
async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 800; i++) {
    try {
      const t = readFileSync(path, 'utf8').trim();
      if (t) return t;
    } catch {
      // not yet written
    }
    await sleep(25);
  }
  throw new Error(`${path} never appeared`);
}

describe('ManagedProcess', () => {
  it('runs the child in its own process group and logs its output', async () => {
    const log = join(dir, 'echo.log');
    const p = new ManagedProcess({
      name: 'echo',
      command: '/bin/sh',
      args: ['-c', 'echo hello; echo oops >&2'],
      logFile: log,
    });
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.logTail()).toBe('hello\noops');
    await p.stop(1_000);
  });

  it('stop() kills the whole group, grandchildren included', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const p = new ManagedProcess({
      name: 'tree',
      command: '/bin/sh',
      args: ['-c', `sleep 300 & echo $! > ${pidFile}; wait`],
      logFile: join(dir, 'tree.log'),
    });
    const grandchild = Number(await waitForFile(pidFile));
    expect(alive(grandchild)).toBe(true);
    expect(groupAlive(p.pid)).toBe(true);
    await p.stop(5_000);
    expect(alive(p.pid)).toBe(false);
    expect(alive(grandchild)).toBe(false);
    expect(groupAlive(p.pid)).toBe(false);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const ready = join(dir, 'stubborn.ready');
    const p = new ManagedProcess({
      name: 'stubborn',
      command: '/bin/sh',
      args: ['-c', `trap '' TERM; echo up > ${ready}; while :; do sleep 0.1; done`],
      logFile: join(dir, 'stubborn.log'),
    });
    await waitForFile(ready);
    await p.stop(300);
    expect((await p.exited).signal).toBe('SIGKILL');
    expect(groupAlive(p.pid)).toBe(false);
  });

  it('reports a binary that cannot be spawned through exitStatus and the log', async () => {
    const p = new ManagedProcess({
      name: 'missing',
      command: join(dir, 'no-such-binary'),
      args: [],
      logFile: join(dir, 'missing.log'),
    });
    await p.exited;
    expect(p.exitStatus).toBeDefined();
    expect(p.logTail()).toMatch(/spawn failed: .*ENOENT/);
    await p.stop(100);
  });

  it('the watchdog kills the group when the owning process dies', async () => {
    // A throwaway node process owns the group; we SIGKILL it and expect the watchdog to clean up.
    const pidFile = join(dir, 'orphan.pid');
    const modulePath = new URL('./process.ts', import.meta.url).pathname;
    const script = [
      `import { ManagedProcess } from ${JSON.stringify(modulePath)};`,
      `import { writeFileSync } from 'node:fs';`,
      `const p = new ManagedProcess({ name: 'orphan', command: '/bin/sh', args: ['-c', 'while :; do sleep 0.2; done'], logFile: ${JSON.stringify(join(dir, 'orphan.log'))} });`,
      `writeFileSync(${JSON.stringify(pidFile)}, String(p.pid));`,
      `setInterval(() => {}, 1000);`,
    ].join('\n');
    const owner = new ManagedProcess({
      name: 'owner',
      command: process.execPath,
      args: ['--import', 'tsx', '--input-type=module', '-e', script],
      logFile: join(dir, 'owner.log'),
      watchdog: false,
    });
    const orphan = Number(await waitForFile(pidFile));
    expect(alive(orphan)).toBe(true);
    process.kill(owner.pid, 'SIGKILL');
    await owner.exited;
    for (let i = 0; i < 100 && groupAlive(orphan); i++) await sleep(100);
    expect(groupAlive(orphan)).toBe(false);
    await owner.stop(100);
  });
});
