// One control-plane child process, after controller-runtime's pkg/internal/testing/process/process.go and
// procattr_unix.go: started in its own process group, output to a log file, stopped by signalling the whole
// group (SIGTERM, then SIGKILL after a grace period).
//
// Three layers make sure nothing outlives the test run:
//  - stop() kills the group and waits for the exit;
//  - a process 'exit' hook SIGKILLs every live group synchronously (the only thing possible at exit);
//  - a tiny shell watchdog per group polls our pid and kills the group when we die without running
//    either of the above (SIGKILL of a vitest worker, OOM). It is killed on stop().

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ManagedProcessOptions {
  /** Short name for messages ("etcd", "kube-apiserver"). */
  name: string;
  command: string;
  args: string[];
  /** stdout and stderr both go here (appended). */
  logFile: string;
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Spawn a watchdog that kills the group if this Node process dies; default true. */
  watchdog?: boolean;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  });
}

/** Signals every process in the group; false when the group no longer exists. */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while any non-zombie process of the group exists. kill(-pgid, 0) alone also counts zombies, and an
 * orphan reparented to an init that does not reap (as in some sandboxes) would look alive forever.
 */
export function groupAlive(pgid: number): boolean {
  if (!killGroup(pgid, 0 as unknown as NodeJS.Signals)) return false;
  if (process.platform !== 'linux') return true;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    const st = procStat(Number(pid));
    return st !== undefined && st.pgid === pgid && st.state !== 'Z';
  });
}

/** State letter and process group of a pid from /proc/<pid>/stat, or undefined when it is gone. */
export function procStat(pid: number): { state: string; pgid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces or ')'; fields follow the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0] ?? '?', pgid: Number(rest[2]) };
}

/** The last `lines` lines of a log file, or '' when it cannot be read. */
export function tailFile(path: string, lines = 40): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export class ManagedProcess {
  readonly name: string;
  readonly logFile: string;
  readonly pid: number;
  /** Resolves when the direct child has exited. */
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly child: ChildProcess;
  private watchdog: ChildProcess | undefined;

  constructor(options: ManagedProcessOptions) {
    this.name = options.name;
    this.logFile = options.logFile;
    installExitHook();
    const fd = openSync(options.logFile, 'a');
    try {
      // detached => setsid(): the child leads a new session and process group whose id is its pid.
      this.child = spawn(options.command, options.args, {
        detached: true,
        stdio: ['ignore', fd, fd],
        env: options.env ?? process.env,
      });
    } finally {
      closeSync(fd);
    }
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      this.child.once('error', (err) => {
        this.exitInfo = { code: null, signal: null };
        appendNote(options.logFile, `spawn failed: ${err.message}`);
        resolve(this.exitInfo);
      });
    });
    // The child must not keep the event loop alive on its own; stop() is awaited explicitly.
    this.child.unref();
    if (this.child.pid === undefined) {
      this.pid = -1;
      return;
    }
    this.pid = this.child.pid;
    liveGroups.add(this.pid);
    if (options.watchdog ?? true) this.watchdog = spawnWatchdog(process.pid, this.pid);
  }

  /** Exit status once the child has exited, else undefined. */
  get exitStatus(): ExitInfo | undefined {
    return this.exitInfo;
  }

  logTail(lines = 40): string {
    return tailFile(this.logFile, lines);
  }

  /**
   * SIGTERM to the group, SIGKILL after graceMs if anything in it is still alive. Resolves when the group is
   * gone. Safe to call more than once.
   */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.pid <= 0) return;
    const pgid = this.pid;
    if (groupAlive(pgid)) {
      killGroup(pgid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (groupAlive(pgid) && Date.now() < deadline) {
        // The leader's 'exit' event fires first; members (none expected) are checked by polling.
        await Promise.race([this.exited, sleep(50)]);
        if (this.exitInfo && !groupAlive(pgid)) break;
        await sleep(25);
      }
      if (groupAlive(pgid)) {
        killGroup(pgid, 'SIGKILL');
        while (groupAlive(pgid)) await sleep(20);
      }
    }
    // Reap the direct child so its pid cannot be reported alive as a zombie.
    await Promise.race([this.exited, sleep(2_000)]);
    liveGroups.delete(pgid);
    this.stopWatchdog();
  }

  /** SIGKILL to the group, no grace (a crash, as chaos tests want it); resolves when the group is gone. */
  async kill(): Promise<void> {
    if (this.pid <= 0) return;
    killGroup(this.pid, 'SIGKILL');
    while (groupAlive(this.pid)) await sleep(20);
    await Promise.race([this.exited, sleep(2_000)]);
    liveGroups.delete(this.pid);
    this.stopWatchdog();
  }

  private stopWatchdog(): void {
    const w = this.watchdog;
    this.watchdog = undefined;
    if (w?.pid !== undefined) killGroup(w.pid, 'SIGKILL');
  }
}

function appendNote(logFile: string, note: string): void {
  try {
    // Synchronous on purpose: called from an event handler with no caller to await it.
    appendFileSync(logFile, `\n[controller-scope] ${note}\n`);
  } catch {
    // Best effort: the failure is also visible through exitStatus.
  }
}

function spawnWatchdog(parentPid: number, pgid: number): ChildProcess | undefined {
  // Polls our pid once a second; once we are gone the watched group gets SIGTERM, and SIGKILL 5 s later.
  // dash's kill wants the negative pgid as a plain operand (no "--"); a zombie parent counts as gone.
  const script =
    'while s=$(sed "s/.*) //" "/proc/$1/stat" 2>/dev/null) && [ "${s%% *}" != Z ]; do sleep 1; done; ' +
    'kill -TERM "-$2" 2>/dev/null; sleep 5; kill -KILL "-$2" 2>/dev/null; exit 0';
  try {
    const w = spawn('/bin/sh', ['-c', script, 'controller-scope-envtest-watchdog', String(parentPid), String(pgid)], {
      detached: true,
      stdio: 'ignore',
    });
    w.on('error', () => undefined);
    w.unref();
    return w;
  } catch {
    return undefined;
  }
}
