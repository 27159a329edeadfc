// `controller-scope run FILE…`: each user module gets a manager of its own (the dashboard's recorder as its
// probe), is set up and started; with --watch, an edit to the module or anything local it imports reloads it:
// the new generation is imported and set up first, and only if that works is the running manager stopped
// gracefully and the new one started — so a typo never takes a working controller down. Every step is a
// module.lifecycle event, which the dashboard shows and marks in the timeline.
import { watch, type FSWatcher } from 'node:fs';
import { relative } from 'node:path';
import type { ModuleError, ModuleLifecycleEvent } from '../../shared/protocol/events';
import type { Manager, Probe } from '../runtime';
import { importGeneration, onFileLoaded, PACKAGE_ROOT } from './module-importer';
import { findSetup, moduleErrorOf, noSetupError } from './user-module';
import { errorMessage } from '../runtime';

export interface UserModulesOptions {
  files: string[];
  watch: boolean;
  /** Receives the module.lifecycle events (the dashboard's recorder). */
  probe: Probe;
  /**
   * A fresh manager for one module, wired to the cluster and the probe. reload is true from the second
   * generation on: its controllers reuse the names the first one registered in the shared metrics registry.
   */
  newManager: (reload: boolean) => Manager;
  log: (line: string) => void;
  /** Quiet period after the last file change before reloading. Default 150 ms. */
  debounceMs?: number;
  /**
   * How long a setup may take before it is reported as not settled, and start() returns without it (the
   * dashboard then serves while it still waits). Default 30 s (--setup-timeout, CONTROLLER_SCOPE_SETUP_TIMEOUT).
   */
  setupTimeoutMs?: number;
  /** Names the module being imported or set up, for the event-loop watchdog's report of a busy loop. */
  doing?: (what: string | undefined) => void;
}

export const DEFAULT_SETUP_TIMEOUT_MS = 30_000;

/** A load the next save took over: the stuck generation's setup is no longer waited for. */
class Superseded extends Error {}

interface Running {
  manager: Manager;
  abort: AbortController;
  done: Promise<void>;
}

class UserModule {
  generation = 0;
  running?: Running;
  private timer?: NodeJS.Timeout;
  private loading: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set while a generation's import or setup is pending: gives up waiting for it (see supersede). */
  private cancelPending?: () => void;

  constructor(
    readonly index: number,
    readonly file: string,
    private readonly o: UserModulesOptions,
  ) {}

  /** Resolves when a setup has been reported as not settled (see settle). */
  private stuck?: () => void;

  /** The first generation: resolves once it runs, has failed, or has been reported as not settled. */
  firstLoad(): Promise<void> {
    return Promise.race([this.load(), new Promise<void>((r) => (this.stuck = r))]);
  }

  /** Loads the next generation; resolves once it runs or has failed (never rejects). */
  load(): Promise<void> {
    this.loading = this.loading.then(() => this.loadNext());
    return this.loading;
  }

  scheduleReload(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A generation whose setup never settles would hold every later save behind it: the save cancels it.
      this.cancelPending?.();
      void this.load();
    }, this.o.debounceMs ?? 150);
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.cancelPending?.();
    await this.loading;
    await this.stopRunning();
  }

  /**
   * Waits for a module's import or setup, but not for ever: after setupTimeoutMs it says so (once, naming
   * the file), and a newer save or stop() gives up on it (rejecting with Superseded).
   */
  private settle<T>(work: Promise<T> | T, generation: number, what: 'import' | 'setup'): Promise<T> {
    const ms = this.o.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const cancelled = new Promise<never>((_, reject) => {
      this.cancelPending = () => reject(new Superseded());
      timer = setTimeout(() => {
        this.o.log(
          `${this.file}: ${what === 'setup' ? 'setup' : 'the import'} has not settled after ${ms / 1000} s ` +
            `(generation ${generation}); the dashboard serves meanwhile, and its controllers start once it settles` +
            (this.o.watch ? ', or a save loads a new generation' : ''),
        );
        this.stuck?.();
      }, ms);
      // Not unref'd: while a setup never settles, nothing else may keep the process alive (it exited 0 without
      // a word on a kubeconfig cluster); once reported, the dashboard's server does.
    });
    this.o.doing?.(`${what} of ${this.file}`);
    return Promise.race([Promise.resolve(work), cancelled]).finally(() => {
      clearTimeout(timer);
      this.cancelPending = undefined;
      this.o.doing?.(undefined);
    });
  }

  private async loadNext(): Promise<void> {
    if (this.closed) return;
    const generation = ++this.generation;
    this.emit({ phase: 'loading', generation });
    let manager: Manager;
    try {
      const exports = await this.settle(
        importGeneration(this.file, `${this.index}.${generation}`),
        generation,
        'import',
      );
      const found = findSetup(exports);
      if (!found) return this.fail(generation, noSetupError(this.file, exports));
      manager = this.o.newManager(generation > 1);
      try {
        // setup() itself may throw synchronously or busy-loop: settle() is entered first so both are named.
        await this.settle(
          Promise.resolve().then(() => found.setup(manager)),
          generation,
          'setup',
        );
      } catch (err) {
        if (err instanceof Superseded) return this.superseded(generation);
        return this.fail(generation, moduleErrorOf(err, this.file, 'setup', PACKAGE_ROOT));
      }
    } catch (err) {
      if (err instanceof Superseded) return this.superseded(generation);
      return this.fail(generation, moduleErrorOf(err, this.file, 'load', PACKAGE_ROOT));
    }
    await this.stopRunning();
    if (this.closed) return;
    const controllers = manager.getControllers().map((c) => c.name);
    const abort = new AbortController();
    const done = manager.start(abort.signal).catch((err: unknown) => {
      if (abort.signal.aborted) return;
      this.fail(generation, { message: `the manager of ${this.file} stopped: ${errorMessage(err)}` });
    });
    this.running = { manager, abort, done };
    this.emit({ phase: 'loaded', generation, controllers });
    this.o.log(`${this.file}: running ${controllers.join(', ') || 'no controllers'} (generation ${generation})`);
  }

  private async stopRunning(): Promise<void> {
    const r = this.running;
    if (!r) return;
    this.running = undefined;
    r.abort.abort();
    await r.done;
    this.emit({ phase: 'stopped', generation: this.generation });
  }

  private superseded(generation: number): void {
    if (this.closed) return;
    this.fail(generation, {
      message: `${this.file}: generation ${generation} had not settled when a newer save came; it is no longer waited for`,
    });
  }

  private fail(generation: number, error: ModuleError): void {
    this.emit({ phase: 'failed', generation, error });
    const at = error.at ? ` (${relative(process.cwd(), error.at.file)}:${error.at.line})` : '';
    const still = this.running ? `; generation ${generation - 1} keeps running` : '';
    this.o.log(`${error.message}${at}${still}${error.expected ? `\n  expected: ${error.expected}` : ''}`);
  }

  private emit(e: Omit<ModuleLifecycleEvent, 'kind' | 'file'>): void {
    if (this.o.probe.enabled) this.o.probe.emit({ kind: 'module.lifecycle', file: this.file, ...e });
  }
}

export class UserModules {
  private readonly modules: UserModule[];
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly unsubscribe?: () => void;

  constructor(private readonly o: UserModulesOptions) {
    this.modules = o.files.map((f, i) => new UserModule(i, f, o));
    if (o.watch) {
      this.unsubscribe = onFileLoaded((path, tag) => {
        const m = this.modules[Number(tag.split('.')[0])];
        if (m) this.watchFile(path, m);
      });
    }
  }

  /**
   * Loads and starts every module; failures are reported, never thrown. Returns once each has loaded or
   * failed, or has been reported as not settled (after setupTimeoutMs): the caller then serves the
   * dashboard while those keep waiting.
   */
  async start(): Promise<void> {
    await Promise.all(this.modules.map((m) => m.firstLoad()));
  }

  /** The managers running now, one per module that loaded. */
  managers(): Manager[] {
    return this.modules.flatMap((m) => (m.running ? [m.running.manager] : []));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    await Promise.all(this.modules.map((m) => m.stop()));
  }

  private watchFile(path: string, m: UserModule): void {
    const key = `${m.index}\u0000${path}`;
    if (this.watchers.has(key)) return;
    try {
      const w = watch(path, { persistent: false }, (type) => {
        m.scheduleReload();
        // Editors that save by renaming leave the watcher on the old file: watch the new one.
        if (type === 'rename') {
          w.close();
          this.watchers.delete(key);
          setTimeout(() => this.watchFile(path, m), 50).unref();
        }
      });
      this.watchers.set(key, w);
    } catch {
      // The file is gone (deleted between load and watch); the next successful load watches it again.
    }
  }
}
