// One life of the controller under test: a manager per module, freshly imported and set up, on a client the
// test lab taps. A crash ends a life at once (its client refuses everything, its monitor stops listening)
// and the next one starts from nothing, as a restarted process would: new module state, new caches.
import {
  CachedClient,
  errorMessage,
  MultiProbe,
  newManager,
  newRegistry,
  type Manager,
  type Probe,
  type RestConfig,
} from '../runtime';
import type { SetupFunction } from '../run/user-module';
import type { RunMonitor } from './monitor';
import { tapClient, type WriteGate } from './write-tap';

/** The controller under test: its files, and a fresh copy of each module's setup per life. */
export interface ControllerTarget {
  files: string[];
  /** tag is unique per life, so each import evaluates the module anew. */
  load(tag: string): Promise<SetupFunction[]>;
}

export interface Incarnation {
  n: number;
  managers: Manager[];
  monitor: RunMonitor;
  dead: boolean;
  /** Stops it without waiting (a crash) or as part of the run's end. */
  abort: AbortController;
  /** Settles once every manager has stopped. */
  done: Promise<void>;
}

export interface IncarnationOptions {
  n: number;
  tag: string;
  config: RestConfig;
  target: ControllerTarget;
  gate: WriteGate;
  monitor: RunMonitor;
  /** Another probe every manager reports to (a recording). */
  probe?: Probe;
  /** A manager that stopped by itself, with an error. */
  failed: (what: string) => void;
}

export async function startIncarnation(o: IncarnationOptions): Promise<Incarnation> {
  const setups = await o.target.load(o.tag);
  const inc: Incarnation = {
    n: o.n,
    managers: [],
    monitor: o.monitor,
    dead: false,
    abort: new AbortController(),
    done: Promise.resolve(),
  };
  const probe = new MultiProbe(o.probe ? [o.monitor, o.probe] : [o.monitor]);
  for (const [i, setup] of setups.entries()) {
    const mgr = newManager(o.config, {
      probe,
      registry: newRegistry(false),
      // Every life registers the same controller names.
      controller: { skipNameValidation: true },
      gracefulShutdownTimeoutMs: 2_000,
      newClient: (co) => tapClient(new CachedClient(co), { gate: o.gate, dead: () => inc.dead }),
    });
    try {
      await setup(mgr);
    } catch (err) {
      throw new Error(`setup of ${o.target.files[i] ?? 'the module'} threw: ${errorMessage(err)}`, { cause: err });
    }
    inc.managers.push(mgr);
  }
  const signal = inc.abort.signal;
  inc.done = Promise.all(
    inc.managers.map((m) =>
      m.start(signal).catch((err: unknown) => {
        if (!signal.aborted) o.failed(`a manager stopped with an error: ${errorMessage(err)}`);
      }),
    ),
  ).then(() => undefined);
  return inc;
}
