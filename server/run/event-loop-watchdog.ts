// Notices a main thread that stopped turning its event loop (a user's setup in a busy loop, a top-level
// `while (true)`): the dashboard cannot answer, log or even exit then, so the one that notices must run
// elsewhere. The main thread bumps a shared heartbeat; a worker thread reads it and, when it stalls, writes
// straight to stderr (fd 2: a worker's process.stderr goes through the blocked main thread) naming what the
// main thread was doing.
import { Worker } from 'node:worker_threads';

export interface WatchdogOptions {
  /** A heartbeat older than this is reported. Default 5000 ms (env CONTROLLER_SCOPE_WATCHDOG_MS). */
  stallMs?: number;
}

export class EventLoopWatchdog {
  private readonly beat = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;

  constructor(o: WatchdogOptions = {}) {
    const stallMs = o.stallMs ?? 5000;
    // Plain JavaScript with no loader (execArgv []): nothing of the package, nor tsx, runs in the worker.
    this.worker = new Worker(new URL('./event-loop-watchdog-worker.mjs', import.meta.url), {
      execArgv: [],
      workerData: { beat: this.beat, stallMs },
    });
    // A watchdog that cannot start must not take the process down with it.
    this.worker.on('error', () => undefined);
    // Neither keeps the process alive: the watchdog only watches.
    this.worker.unref();
    this.timer = setInterval(() => Atomics.add(this.beat, 0, 1), Math.max(10, Math.floor(stallMs / 10)));
    this.timer.unref();
  }

  /** What the main thread is about to do, named in a stall report; undefined once it is done. */
  doing(what: string | undefined): void {
    this.worker.postMessage(what);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.worker.terminate();
  }
}

/** The stall threshold from the environment, when set to a positive number of ms. */
export function watchdogMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env.CONTROLLER_SCOPE_WATCHDOG_MS);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
