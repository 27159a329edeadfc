// The watchdog runs off the main thread, so it reports a busy loop while the loop is still busy: its
// report is read from a child process's stderr (the only place it writes).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');

describe('EventLoopWatchdog', () => {
  it('names what the main thread was doing while it is blocked', async () => {
    // The child blocks until the report has reached its stderr (it reads nothing else), so the test
    // waits on the report itself, not on a time.
    const script = `
      import { EventLoopWatchdog } from './server/run/event-loop-watchdog.ts';
      const w = new EventLoopWatchdog({ stallMs: 200 });
      w.doing('setup of busy.ts');
      setTimeout(() => { const end = Date.now() + 60000; while (Date.now() < end) {} }, 100);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    await new Promise<void>((done) => {
      child.stderr.on('data', (b: Buffer) => {
        err += b.toString();
        if (/blocked for \d+ ms during setup of busy\.ts/.test(err)) done();
      });
      child.on('exit', () => done());
    });
    child.kill('SIGKILL');
    expect(err).toMatch(/the event loop has been blocked for \d+ ms during setup of busy\.ts: .*busy loop/);
  }, 60_000);
});
