// What the step debugger shows, derived from the server's StepState and the live view: the state to trust,
// how many keys are held now, each breakpoint in words, who holds the controller, and what the last released
// key did.
import type { StepBreakpoint, StepOwner, StepState } from '../../../shared/protocol/commands';
import type { ControllerView } from '../../../shared/protocol/view';
import { fmtDuration } from '../../components/format';

/** A command's answer is a StepState only when it says so; a requeue answers {controller, key}. */
export function isStepState(x: unknown): x is StepState {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Partial<StepState>;
  return typeof s.controller === 'string' && typeof s.holding === 'boolean' && typeof s.breakpoints === 'object';
}

/**
 * The server pushes its status after every command and every change a stepper makes by itself, so the
 * pushed state is the newest; a command's own answer fills in until the first push.
 */
export function currentStepState(
  controller: string,
  pushed: StepState | undefined,
  answer: unknown,
): StepState | undefined {
  if (pushed) return pushed;
  return isStepState(answer) && answer.controller === controller ? answer : undefined;
}

/**
 * Keys held now: those ready in the queue (from the live view, which moves on without a status push) plus
 * those a worker holds at a breakpoint.
 */
export function heldNow(state: StepState | undefined, c: ControllerView | undefined): number {
  if (!state?.holding) return 0;
  const holders = state.holders?.length ?? 0;
  return c ? c.depth.ready + holders : state.held;
}

/** The breakpoints, from the full list when the server sends it, else from the older summary. */
export function breakpointList(state: StepState): StepBreakpoint[] {
  if (state.list) return state.list;
  return [
    ...state.breakpoints.keys.map((key) => ({ id: '', enabled: true, hits: 0, key })),
    ...(state.breakpoints.onError ? [{ id: '', enabled: true, hits: 0, outcome: 'anyError' as const }] : []),
  ];
}

export function describeBreakpoint(bp: StepBreakpoint): string {
  const who = bp.key === undefined || bp.key === '*' ? 'any key' : bp.key;
  const attempt = bp.minAttempt !== undefined ? `, attempt ≥ ${bp.minAttempt}` : '';
  const once = bp.once ? ' (once: run to key)' : '';
  if (bp.outcome === undefined) return `before ${who} reconciles${attempt}${once}`;
  const ends = bp.outcome === 'anyError' ? 'an error (error, terminalError or panic)' : bp.outcome;
  return `after ${who} ends in ${ends}${attempt}${once}`;
}

export function describePause(state: StepState): string | undefined {
  const p = state.pausedAt;
  if (!p) return state.holding ? 'held by hand (Hold)' : undefined;
  const bp = p.breakpoint ? ` ${p.breakpoint}` : '';
  switch (p.reason) {
    case 'key': {
      const holder = state.holders?.find((h) => h.key === p.key);
      return `paused before ${p.key} reconciles (breakpoint${bp})${holder ? `: worker ${holder.worker} holds it` : ''}`;
    }
    case 'error':
    case 'breakpoint':
      return `paused after ${p.key} ended in ${p.outcome ?? 'an error'} (breakpoint${bp})`;
    case 'hold':
      return 'held by hand (Hold)';
  }
}

/** What the key the last step let through did, from the view's reconcile records. */
export function lastStepText(state: StepState, c: ControllerView | undefined): string | undefined {
  const r = state.lastReleased;
  if (!r) return undefined;
  const k = c?.keys[r.key];
  const rec = k?.lastReconcile;
  const head = `Released ${r.key} to worker ${r.worker}`;
  if (!rec) return `${head}: waiting for its reconcile to be reported`;
  if (rec.endTs === undefined) return `${head}: reconciling (attempt ${rec.attempt})`;
  const what =
    rec.outcome === 'requeueAfter' && rec.requeueAfterMs !== undefined
      ? `requeueAfter ${fmtDuration(rec.requeueAfterMs)}`
      : (rec.outcome ?? 'done');
  const writes = rec.writes > 0 ? `, ${rec.writes} write${rec.writes === 1 ? '' : 's'}` : '';
  const err = rec.error ? `: ${rec.error}` : '';
  return `${head}: attempt ${rec.attempt} → ${what} in ${fmtDuration(rec.durationMs)}${writes}${err}`;
}

/** Another viewer holds the controller: this one steps or resumes it only by taking over. */
export function heldByOther(state: StepState | undefined, me: string | undefined): boolean {
  return state?.holding === true && state.holder !== undefined && state.holder.viewer !== me;
}

const clockTime = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** Who holds the controller, in words, for every viewer; undefined when nobody is known to. */
export function describeHolder(state: StepState, me: string | undefined): string | undefined {
  const h = state.holding ? state.holder : undefined;
  if (!h) return undefined;
  const since = `since ${clockTime(h.since)} UTC`;
  if (h.viewer === me) {
    return `Held by you (${h.name}) ${since}${h.pinned ? ', pinned: it stays held if you leave' : '; released if you leave'}.`;
  }
  const gone = h.connected ? '' : ` (pinned; ${h.name} has left)`;
  return `Held by ${h.name} ${since}${gone}. Next, Resume and Hold are theirs: take over to act on it.`;
}

/** Who set a breakpoint, for its row: "you", a name, and whether it outlives its viewer. */
export function describeOwners(owners: StepOwner[] | undefined, me: string | undefined): string {
  if (!owners || owners.length === 0) return '';
  return owners
    .map((o) => `${o.viewer === me ? 'you' : o.name}${o.pinned ? ' (pinned)' : ''}${o.connected ? '' : ' (left)'}`)
    .join(', ');
}
