// Teaching models: follows one object through the whole pipeline using the recent event log (watch event →
// delta → pop → indexer → handler → enqueue → worker → reconcile → write), and picks the live numbers shown
// beside each explanation.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { EnqueueCause } from '../../../shared/protocol/events';
import type { RuntimeView } from '../../../shared/protocol/view';
import { refKey } from '../../../shared/protocol/view';
import { describeEvent as describe } from '../../components/describe-event';
import type { JourneyBlock } from '../../components/describe-event';

export interface JourneyStep {
  seq: number;
  ts: number;
  block: JourneyBlock;
  text: string;
}

function keyOf(ev: StampedEvent): string | undefined {
  const e = ev as Partial<{ key: string; ref: { namespace?: string; name: string; gvk: string } }>;
  if (e.key !== undefined) return e.key;
  if (e.ref && e.ref.name) return refKey(e.ref);
  return undefined;
}

type Pred = (ev: StampedEvent) => boolean;

function findBack(log: readonly StampedEvent[], from: number, pred: Pred, stop?: Pred): number {
  for (let i = from; i >= 0; i--) {
    const ev = log[i] as StampedEvent;
    if (pred(ev)) return i;
    if (stop?.(ev)) return -1;
  }
  return -1;
}

/**
 * One reconcile's causal chain, walked back from its end through the log: the watch event, its delta and
 * pop, the indexer write, the notification, the handler, the add, the get, the reconcile and its writes.
 * Links the log no longer holds are simply absent.
 */
export function journeyFor(log: readonly StampedEvent[], endIdx: number): { key: string; steps: JourneyStep[] } {
  const end = log[endIdx] as Extract<StampedEvent, { kind: 'reconcile.end' }>;
  const { key, controller } = end;
  const idx: number[] = [endIdx];
  let watchIdx = -1;
  let handlerIdx = -1;
  const mine = (ev: StampedEvent) => keyOf(ev) === key;
  const s = findBack(
    log,
    endIdx - 1,
    (e) => e.kind === 'reconcile.start' && e.controller === controller && e.key === key,
  );
  if (s >= 0) {
    idx.push(s);
    for (let i = s + 1; i < endIdx; i++) {
      const e = log[i] as StampedEvent;
      // Its reads (served by the cache) and its writes (sent to the API server).
      if (e.kind === 'client.request' && e.controller === controller) idx.push(i);
    }
    const g = findBack(log, s - 1, (e) => e.kind === 'queue.get' && e.queue === controller && e.key === key);
    if (g >= 0) idx.push(g);
    const a = findBack(
      log,
      (g >= 0 ? g : s) - 1,
      (e) => e.kind === 'queue.add' && e.queue === controller && e.key === key,
    );
    let cursor = a;
    if (a >= 0) idx.push(a);
    // The runtime reports a handler's event once the handler has enqueued, so the report follows the add
    // it caused (and may follow the worker's get too): look forward from the add up to the next add of the
    // key, and tell it before the add, as it happened.
    if (a >= 0) {
      for (let i = a + 1; i < endIdx; i++) {
        const e = log[i] as StampedEvent;
        if (e.kind === 'queue.add' && e.queue === controller && e.key === key) break;
        if (e.kind === 'handler.event' && e.controller === controller && e.keys.includes(key)) {
          handlerIdx = i;
          break;
        }
      }
    }
    const chain: Pred[] = [
      (e) => e.kind === 'handler.event' && e.controller === controller && e.keys.includes(key),
      (e) => e.kind === 'informer.notify' && mine(e) && e.handler.includes(controller),
      (e) => e.kind === 'indexer.update' && mine(e),
      (e) => e.kind === 'fifo.pop' && mine(e),
      (e) => e.kind === 'fifo.delta' && mine(e),
    ];
    for (const pred of handlerIdx >= 0 ? chain.slice(1) : chain) {
      if (cursor < 0) break;
      const i = findBack(
        log,
        cursor - 1,
        pred,
        (e) => e.kind === 'reconcile.end' && e.controller === controller && e.key === key,
      );
      if (i >= 0) {
        idx.push(i);
        cursor = i;
      }
    }
    // The reflector reports a watch event once its delta is queued, so the event may follow its delta: look
    // back from the delta first, then forward up to the reconcile, and tell it first, as it happened.
    const delta = idx.find((i) => (log[i] as StampedEvent).kind === 'fifo.delta');
    const stopAt = (e: StampedEvent) => e.kind === 'reconcile.end' && e.controller === controller && e.key === key;
    if (delta !== undefined) {
      let w = findBack(log, delta - 1, (e) => e.kind === 'reflector.event' && mine(e), stopAt);
      for (let i = delta + 1; w < 0 && i < s; i++) {
        const e = log[i] as StampedEvent;
        if (e.kind === 'reflector.event' && mine(e)) w = i;
      }
      if (w >= 0) watchIdx = w;
    }
  }
  for (let i = endIdx + 1; i < log.length; i++) {
    const e = log[i] as StampedEvent;
    if (e.kind === 'queue.done' && e.queue === controller && e.key === key) {
      idx.push(i);
      break;
    }
  }
  const steps: JourneyStep[] = [];
  const ordered = idx.filter((i) => i !== watchIdx).sort((x, y) => x - y);
  if (watchIdx >= 0) ordered.unshift(watchIdx);
  if (handlerIdx >= 0) {
    const add = ordered.findIndex((i) => (log[i] as StampedEvent).kind === 'queue.add');
    ordered.splice(add, 0, handlerIdx);
  }
  for (const i of ordered) {
    const ev = log[i] as StampedEvent;
    const d = describe(ev);
    if (d) steps.push({ seq: ev.seq, ts: ev.ts, ...d });
  }
  return { key, steps };
}

/**
 * The most recent reconcile (of `controller` when given) whose whole story is still in the log, starting from
 * a watch event; keys in `skip` (hot loops) are passed over because their stories interleave. Falls back to
 * the most recent reconcile of any kind.
 */
export function latestJourney(
  log: readonly StampedEvent[],
  controller?: string,
  skip: ReadonlySet<string> = new Set(),
): { key: string; steps: JourneyStep[] } | undefined {
  let fallback: { key: string; steps: JourneyStep[] } | undefined;
  let tried = 0;
  for (let i = log.length - 1; i >= 0 && tried < 40; i--) {
    const ev = log[i] as StampedEvent;
    if (ev.kind !== 'reconcile.end' || (controller && ev.controller !== controller)) continue;
    tried++;
    const j = journeyFor(log, i);
    fallback ??= j;
    if (!skip.has(ev.key) && j.steps.some((st) => st.block === 'Reflector')) return j;
  }
  return fallback;
}

/** One live instance of a builder call: the event that arrived and the request it became. */
export interface BuilderExample {
  controller: string;
  /** The object whose event it was. */
  source?: { gvk: string; key: string; eventType?: string };
  /** The request it became (the reconciled key). */
  request: string;
  ts: number;
}

type CauseKind = 'event' | 'owner' | 'mapped';

/**
 * The newest cause of this type any controller absorbed (pending now, or in a recorded reconcile): For gives
 * 'event' (an object's own key), Owns 'owner' (an owned object → its owner), Watches with a map function
 * 'mapped'. Prefers the controller named, when it has one.
 */
export function builderExample(view: RuntimeView, type: CauseKind, prefer?: string): BuilderExample | undefined {
  let best: BuilderExample | undefined;
  const consider = (controller: string, key: string, c: EnqueueCause, ts: number) => {
    if (c.type !== type) return;
    const ex: BuilderExample = { controller, request: key, ts };
    if (c.source) {
      ex.source = { gvk: c.source.gvk, key: refKey(c.source) };
      if (c.eventType) ex.source.eventType = c.eventType;
    }
    const better =
      !best ||
      (prefer !== undefined && (controller === prefer) !== (best.controller === prefer)
        ? controller === prefer
        : ts > best.ts);
    if (better) best = ex;
  };
  for (const ctl of Object.values(view.controllers)) {
    for (const k of Object.values(ctl.keys)) {
      for (const c of k.pendingCauses) consider(ctl.name, k.key, c, k.lastTs);
      // Every recorded reconcile of the key, not only the last: an example stays while its key is remembered.
      for (const r of k.history) for (const c of r.causes) consider(ctl.name, k.key, c, r.startTs);
      const last = k.lastReconcile;
      if (last && !k.history.includes(last)) for (const c of last.causes) consider(ctl.name, k.key, c, last.startTs);
    }
  }
  return best;
}
