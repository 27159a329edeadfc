// Who holds each controller and who set each breakpoint. Step mode acts on the running controller for every
// viewer, so a hold must not outlive the viewer who set it (a closed tab would leave a controller stopped for
// good) and must not be stepped or resumed by someone who was never told it is held: the transport routes
// every step command through here, which records the owner, refuses another viewer's act unless it says it
// takes over, caps the breakpoints per controller, and releases what a viewer leaves behind unless pinned.
import type { BreakOutcome, StepBreakpoint, StepOwner, StepState } from '../../../shared/protocol/commands';
import type { Clock } from '../../runtime/util/clock';
import type { ListCaps } from './budgets';
import { refuse } from './budgets';
import { CommandError, refusalError } from './command-error';
import type { BreakpointChange, ControllerStepper, StepperLookup } from './ports';

export interface Viewer {
  id: string;
  name: string;
}

interface Conditions {
  key?: string;
  outcome?: BreakOutcome;
  minAttempt?: number;
}

/** Breakpoints are owned by their conditions: removal by conditions is what every stepper (local or remote) has. */
function signature(c: Conditions): string {
  return JSON.stringify([c.key ?? null, c.outcome ?? null, c.minAttempt ?? null]);
}

function conditionsOf(b: BreakpointChange | StepBreakpoint): Conditions {
  const outcome = b.outcome ?? ('onError' in b && b.onError ? 'anyError' : undefined);
  return {
    ...(b.key !== undefined ? { key: b.key } : {}),
    ...(outcome !== undefined ? { outcome } : {}),
    ...(b.minAttempt !== undefined ? { minAttempt: b.minAttempt } : {}),
  };
}

interface OwnedBreakpoints {
  conditions: Conditions;
  owners: Map<string, StepOwner>;
}

export class StepOwnership {
  private readonly holds = new Map<string, StepOwner>();
  /** controller → signature → owners. */
  private readonly breakpoints = new Map<string, Map<string, OwnedBreakpoints>>();
  private readonly connected = new Set<string>();

  constructor(
    private readonly lookup: StepperLookup | undefined,
    private readonly caps: Pick<ListCaps, 'breakpointsPerController' | 'holdsPerViewer'>,
    private readonly clock: Clock,
  ) {}

  viewerJoined(viewer: Viewer): void {
    this.connected.add(viewer.id);
  }

  /**
   * Releases what the viewer held or set, unless pinned (that is then shown as left); names the controllers
   * whose state changed.
   */
  viewerLeft(viewerId: string): string[] {
    this.connected.delete(viewerId);
    const released = new Set<string>();
    for (const [controller, hold] of this.holds) {
      if (hold.viewer !== viewerId) continue;
      released.add(controller);
      if (hold.pinned) {
        hold.connected = false;
        continue;
      }
      this.holds.delete(controller);
      const stepper = this.lookup?.(controller);
      if (stepper?.state().holding) stepper.resume();
    }
    for (const [controller, owned] of this.breakpoints) {
      for (const [sig, entry] of owned) {
        const own = entry.owners.get(viewerId);
        if (!own) continue;
        released.add(controller);
        if (own.pinned) {
          own.connected = false;
          continue;
        }
        entry.owners.delete(viewerId);
        if (entry.owners.size > 0) continue;
        owned.delete(sig);
        this.lookup?.(controller)?.setBreakpoint(entry.conditions, true);
      }
    }
    return [...released];
  }

  hold(viewer: Viewer | undefined, controller: string, opts: { takeOver?: boolean; pin?: boolean }): StepState {
    const stepper = this.stepper(controller);
    this.guard(viewer, controller, stepper, 'hold', opts.takeOver);
    const mine = [...this.holds.entries()].filter(([c, h]) => c !== controller && h.viewer === viewer?.id).length;
    if (viewer && mine >= this.caps.holdsPerViewer) {
      throw refusalError(
        refuse(
          `hold of "${controller}"`,
          'holdsPerViewer',
          this.caps.holdsPerViewer,
          `this viewer already holds ${mine} controllers`,
          'resume one first',
        ),
      );
    }
    const state = stepper.hold();
    if (viewer) this.holds.set(controller, this.owner(viewer, opts.pin ?? false));
    else this.holds.delete(controller);
    return this.decorate(state);
  }

  next(
    viewer: Viewer | undefined,
    controller: string,
    opts: { takeOver?: boolean },
  ): StepState & { released?: string } {
    const stepper = this.stepper(controller);
    this.guard(viewer, controller, stepper, 'step', opts.takeOver);
    if (viewer) this.takeIfHeld(viewer, controller, stepper);
    const state = stepper.next();
    return { ...this.decorate(state), ...(state.released !== undefined ? { released: state.released } : {}) };
  }

  resume(viewer: Viewer | undefined, controller: string, opts: { takeOver?: boolean }): StepState {
    const stepper = this.stepper(controller);
    this.guard(viewer, controller, stepper, 'resume', opts.takeOver);
    this.holds.delete(controller);
    return this.decorate(stepper.resume());
  }

  runTo(
    viewer: Viewer | undefined,
    controller: string,
    key: string,
    opts: { takeOver?: boolean; pin?: boolean },
  ): StepState {
    const stepper = this.stepper(controller);
    if (!stepper.runTo)
      throw new CommandError(
        'unsupported',
        "run to a key is not available: this controller's stepper cannot run to a key",
      );
    this.guard(viewer, controller, stepper, 'run to a key', opts.takeOver);
    this.checkBreakpointCap(controller, stepper);
    this.holds.delete(controller);
    if (viewer) this.addOwner(controller, { key }, viewer, opts.pin ?? false);
    return this.decorate(stepper.runTo(key));
  }

  breakpoint(
    viewer: Viewer | undefined,
    controller: string,
    change: BreakpointChange,
    remove: boolean,
    pin: boolean,
  ): StepState {
    const stepper = this.stepper(controller);
    const adding = !remove && change.id === undefined;
    if (adding) this.checkBreakpointCap(controller, stepper);
    const state = stepper.setBreakpoint(change, remove);
    if (adding && viewer) this.addOwner(controller, conditionsOf(change), viewer, pin);
    else if (remove && change.id === undefined)
      this.breakpoints.get(controller)?.delete(signature(conditionsOf(change)));
    return this.decorate(state);
  }

  /** The state with its holder and each breakpoint's owners; forgets records the stepper no longer has. */
  decorate(state: StepState): StepState {
    const controller = state.controller;
    const owned = this.breakpoints.get(controller);
    if (state.list && owned) {
      // Breakpoints removed by id or fired once are gone from the list: their owners go with them.
      const present = new Set(state.list.map((b) => signature(conditionsOf(b))));
      for (const sig of owned.keys()) if (!present.has(sig)) owned.delete(sig);
    }
    let holder = this.holds.get(controller);
    if (!state.holding) {
      this.holds.delete(controller);
      holder = undefined;
    } else if (!holder && state.pausedAt?.breakpoint !== undefined) {
      holder = this.breakpointOwner(state, state.pausedAt.breakpoint);
      if (holder) this.holds.set(controller, holder);
    }
    const list = state.list?.map((b) => {
      const owners = owned?.get(signature(conditionsOf(b)))?.owners;
      return owners && owners.size > 0 ? { ...b, owners: [...owners.values()].map((o) => ({ ...o })) } : b;
    });
    return {
      ...state,
      ...(list ? { list } : {}),
      ...(holder ? { holder: { ...holder } } : {}),
    };
  }

  /** The viewer whose breakpoint stopped the controller holds it (a paused reconcile is theirs to step). */
  private breakpointOwner(state: StepState, id: string): StepOwner | undefined {
    const bp = state.list?.find((b) => b.id === id);
    const sig = bp ? signature(conditionsOf(bp)) : undefined;
    const entry = sig !== undefined ? this.breakpoints.get(state.controller)?.get(sig) : undefined;
    const first = entry ? [...entry.owners.values()][0] : undefined;
    return first ? { ...first, since: this.clock.now() } : undefined;
  }

  private guard(
    viewer: Viewer | undefined,
    controller: string,
    stepper: ControllerStepper,
    what: string,
    takeOver: boolean | undefined,
  ): void {
    const state = this.decorate(stepper.state());
    const holder = state.holder;
    // Code in this process (no viewer) is not a second viewer: it acts without taking over.
    if (!viewer || !state.holding || !holder || holder.viewer === viewer.id || takeOver) return;
    const since = new Date(holder.since).toISOString().slice(11, 19);
    throw new CommandError(
      'conflict',
      `${what} refused: controller "${controller}" is held by ${holder.name} since ${since} UTC` +
        `${holder.connected ? '' : ' (pinned; that viewer has left)'}; to ${what} anyway, take it over ` +
        '(the Take over button, or takeOver: true in the command)',
    );
  }

  private takeIfHeld(viewer: Viewer, controller: string, stepper: ControllerStepper): void {
    const current = this.holds.get(controller);
    if (current?.viewer === viewer.id) return;
    if (stepper.state().holding) this.holds.set(controller, this.owner(viewer, current?.pinned ?? false));
  }

  private checkBreakpointCap(controller: string, stepper: ControllerStepper): void {
    const cap = this.caps.breakpointsPerController;
    const count = Math.max(stepper.state().list?.length ?? 0, this.breakpoints.get(controller)?.size ?? 0);
    if (count < cap) return;
    throw refusalError(
      refuse(
        `breakpoint on "${controller}"`,
        'breakpointsPerController',
        cap,
        `the controller has ${count} breakpoints`,
        'remove some first',
      ),
    );
  }

  private addOwner(controller: string, conditions: Conditions, viewer: Viewer, pinned: boolean): void {
    let owned = this.breakpoints.get(controller);
    if (!owned) this.breakpoints.set(controller, (owned = new Map()));
    const sig = signature(conditions);
    let entry = owned.get(sig);
    if (!entry) owned.set(sig, (entry = { conditions, owners: new Map() }));
    entry.owners.set(viewer.id, this.owner(viewer, pinned));
  }

  private owner(viewer: Viewer, pinned: boolean): StepOwner {
    return {
      viewer: viewer.id,
      name: viewer.name,
      pinned,
      connected: this.connected.has(viewer.id),
      since: this.clock.now(),
    };
  }

  private stepper(controller: string): ControllerStepper {
    if (!this.lookup)
      throw new CommandError('unsupported', 'step mode is not available: no controllers are running here');
    const s = this.lookup(controller);
    if (!s) throw new CommandError('notFound', `no controller named "${controller}"`);
    return s;
  }
}
