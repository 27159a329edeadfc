// Attached processes: connected, resumed or gone (bridge.process), and whether every event each one emitted
// reached the view (bridge.dropped, or events missed across a connect). What a process owns is tied to it by
// name (its lane) or, with one process attached and no lanes, by being the only one; liveness.ts derives
// from these whether a part is alive, never copying "gone" onto the parts.
import type { BridgeEvent } from './events-bridge';
import { describeDrop, dropsEvents, isBridgeDropCause } from './bridge-limits';
import type { Draft } from './reduce-draft';
import { unhandled } from './reduce-exhaustive';
import { forgetOldRun } from './reduce-restart';
import { notable } from './reduce-notable';
import { laneOf } from './lanes';
import { dict, lookup } from './records';
import type { ProcessView, RuntimeView } from './view';

type Stamped<E> = E & { seq: number; ts: number };

/** Processes kept in the view; a crafted stream naming more is not followed past this. */
export const MAX_PROCESSES = 500;

export function applyBridgeEvent(d: Draft, ev: Stamped<BridgeEvent>): void {
  const v = d.view;
  if (v.processes === undefined) v.processes = dict();
  const all = d.childRecord(v, 'processes') as Record<string, ProcessView>;
  const prev = lookup(all, ev.process);
  if (!prev && Object.keys(all).length >= MAX_PROCESSES) return;
  switch (ev.kind) {
    case 'bridge.process': {
      const missed = (ev.missed ?? 0) > 0;
      const next: ProcessView = {
        process: ev.process,
        address: ev.address,
        state: ev.phase === 'gone' ? 'gone' : 'connected',
        since: ev.ts,
        // A new run of the process (a new epoch) starts over; a resume keeps what was known.
        incarnation: ev.phase === 'connected' ? (prev?.incarnation ?? 0) + 1 : (prev?.incarnation ?? 1),
        complete: ev.phase === 'connected' ? !missed : (prev?.complete ?? false) && !missed,
        ...(ev.reason !== undefined ? { reason: ev.reason } : {}),
        ...(ev.phase !== 'connected' && prev?.manager ? { manager: prev.manager } : {}),
        ...(prev?.drops ? { drops: prev.drops } : {}),
      };
      all[ev.process] = next;
      if (ev.phase === 'connected' && prev) forgetOldRun(d, ev.process, ev.ts);
      const text =
        ev.phase === 'gone'
          ? `process ${ev.process} is gone${ev.reason ? `: ${ev.reason}` : ''}`
          : `process ${ev.process} ${ev.phase === 'resumed' ? 'resumed' : 'connected'}${missed ? ` (${ev.missed} events missed)` : ''}`;
      notable(d, ev, ev.phase === 'gone' || missed ? 'warn' : 'info', text);
      return;
    }
    case 'bridge.dropped': {
      if (!prev) return;
      // A cause the reducer does not know (a newer dashboard, a forged event) is counted as none: the process's own.
      const cause = isBridgeDropCause(ev.cause) ? ev.cause : undefined;
      const drops = cause ? { ...prev.drops, [cause]: (prev.drops?.[cause] ?? 0) + ev.dropped } : prev.drops;
      all[ev.process] = {
        ...prev,
        complete: prev.complete && !dropsEvents(cause),
        ...(drops ? { drops } : {}),
      };
      const cap = typeof ev.cap === 'number' && Number.isFinite(ev.cap) ? ev.cap : undefined;
      notable(d, ev, 'warn', describeDrop(ev.process, ev.dropped, cause, cap));
      return;
    }
    default:
      unhandled(ev);
  }
}

/**
 * The attached process a controller or informer named `name` runs in: its lane, or the only attached
 * process when there is exactly one and names carry no lane. Undefined: the dashboard's own process.
 */
export function processOfName(v: RuntimeView, name: string): string | undefined {
  const lane = laneOf(name);
  if (lane !== undefined) return lane;
  const all = v.processes;
  if (all === undefined) return undefined;
  let only: string | undefined;
  for (const p in all) {
    if (only !== undefined) return undefined;
    only = p;
  }
  return only;
}
