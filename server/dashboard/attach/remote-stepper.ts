// Step mode and requeue for a controller in an attached process: each call is sent to the process's queue
// wrapper; the answer arrives a moment later, so a call returns the state as it will be (optimistically) and
// listeners hear the process's own answer when it comes.
import type { StepState } from '../../../shared/protocol/commands';
import type { BreakpointChange, ControllerStepper, Requeuer, StepperLookup } from '../transport/ports';
import type { BridgeConnection } from './bridge-connection';
import { splitLaneName } from './lanes';

export class RemoteStepper implements ControllerStepper {
  private current: StepState;
  private readonly listeners = new Set<(s: StepState) => void>();

  constructor(
    private readonly conn: BridgeConnection,
    /** The controller's name in the dashboard (with its lane) and in the process. */
    private readonly shown: string,
    private readonly own: string,
  ) {
    this.current = { controller: shown, holding: false, held: 0, breakpoints: { keys: [], onError: false } };
  }

  hold(): StepState {
    return this.send({ type: 'step.hold' }, { holding: true });
  }

  next(): StepState & { released?: string } {
    return this.send({ type: 'step.next' }, {});
  }

  resume(): StepState {
    return this.send({ type: 'step.resume' }, { holding: false, held: 0 });
  }

  runTo(key: string): StepState {
    return this.send({ type: 'step.runTo', key }, { holding: false });
  }

  setBreakpoint(bp: BreakpointChange, remove: boolean): StepState {
    const keys = new Set(this.current.breakpoints.keys);
    if (bp.key) {
      if (remove) keys.delete(bp.key);
      else keys.add(bp.key);
    }
    const onError = bp.onError ? !remove : this.current.breakpoints.onError;
    return this.send(
      { type: 'step.breakpoint', ...bp, ...(remove ? { remove } : {}) },
      { breakpoints: { keys: [...keys].sort(), onError } },
    );
  }

  state(): StepState {
    return this.current;
  }

  onChange(listener: (state: StepState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private send(cmd: Record<string, unknown>, expected: Partial<StepState>): StepState {
    this.current = { ...this.current, ...expected };
    this.conn.command({ ...cmd, controller: this.own }).then(
      (ack) => {
        if (!ack.ok || typeof ack.result !== 'object' || ack.result === null) return;
        this.current = { ...(ack.result as StepState), controller: this.shown };
        for (const l of this.listeners) l(this.current);
      },
      () => undefined,
    );
    return this.current;
  }
}

/** Finds which attached process runs a controller, by its dashboard name. */
export function findController(
  conns: readonly BridgeConnection[],
  shown: string,
): { conn: BridgeConnection; own: string } | undefined {
  const { lane, name } = splitLaneName(shown);
  for (const conn of conns) {
    if (conn.lane !== lane) continue;
    if (conn.steppable(name)) return { conn, own: name };
  }
  return undefined;
}

/** Steppers for every steppable controller of the attached processes, made once per controller. */
export function remoteSteppers(conns: readonly BridgeConnection[]): StepperLookup {
  const made = new Map<string, RemoteStepper>();
  return (shown) => {
    const found = findController(conns, shown);
    if (!found) return undefined;
    let s = made.get(shown);
    if (!s) {
      s = new RemoteStepper(found.conn, shown, found.own);
      made.set(shown, s);
    }
    return s;
  };
}

export function remoteRequeuer(conns: readonly BridgeConnection[]): Requeuer {
  return {
    async requeue(controller, key) {
      const found = findController(conns, controller);
      if (!found) return false;
      const ack = await found.conn.command({ type: 'requeue', controller: found.own, key });
      return ack.ok;
    },
  };
}
