// How long a thread waited for a CPU while it was ready to run (Linux schedstat: the second field, in ns).
// On a shared machine this is the part of a latency tail no code change can remove: the work was due and
// another process held the core. Reads are a pread of an open /proc file (a few µs), cheap enough per
// sample.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

const buf = Buffer.alloc(128);

/** One thread's schedstat line: time on a CPU and time runnable but waiting for one, in ms. */
export function parseSchedstat(line: string): { cpuMs: number; waitMs: number } {
  const [run, wait] = line.split(' ');
  return { cpuMs: Number(run ?? 0) / 1e6, waitMs: Number(wait ?? 0) / 1e6 };
}

/** Run-queue wait of one thread so far; `now()` is 0 where /proc is not there. */
export class RunQueueWait {
  private fd: number | undefined;

  constructor(pid: number, tid = pid) {
    try {
      this.fd = openSync(`/proc/${pid}/task/${tid}/schedstat`, 'r');
    } catch {
      this.fd = undefined;
    }
  }

  /** Milliseconds this thread has waited for a CPU since it started. */
  now(): number {
    if (this.fd === undefined) return 0;
    try {
      const n = readSync(this.fd, buf, 0, buf.length, 0);
      return parseSchedstat(buf.toString('latin1', 0, n)).waitMs;
    } catch {
      return 0;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Run-queue wait so far of every thread of a process, in ms (for servers with many threads). */
export function processRunQueueWaitMs(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  return tasks.reduce((sum, tid) => {
    const w = new RunQueueWait(pid, Number(tid));
    const ms = w.now();
    w.close();
    return sum + ms;
  }, 0);
}
