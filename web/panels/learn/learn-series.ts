// Teaching models: tells one object's walk through the whole pipeline (watch event or list → delta → pop →
// indexer → handler → enqueue → worker → reconcile → write) in words, and picks the builder's live examples.
import type { EnqueueCause, StampedEvent } from '../../../shared/protocol/events';
import { walkReconcile } from '../../../shared/protocol/object-walk';
import type { ObjectWalk } from '../../../shared/protocol/object-walk';
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

/** The list step says what the list did for this object: returned it, or no longer had it (a tombstone). */
function listText(walk: ObjectWalk, list: StampedEvent): string | undefined {
  const delta = walk.steps.find((s) => s.step === 'delta')?.event;
  if (list.kind !== 'reflector.listBegin' || delta?.kind !== 'fifo.delta') return undefined;
  const what = list.relist ? 'the relist' : 'the initial list';
  const from = list.resourceVersion ? ` from rv ${list.resourceVersion}` : '';
  const why = list.cause ? ` (${list.cause})` : '';
  return delta.tombstone
    ? `${what}${from}${why} no longer had ${refKey(delta.ref)}: it was deleted while nobody watched`
    : `${what}${from}${why} returned ${refKey(delta.ref)}${delta.ref.resourceVersion ? ` at rv ${delta.ref.resourceVersion}` : ''}`;
}

/**
 * One reconcile's causal chain, from the change that caused it to the end of its reconcile: every step is an
 * event that happened to that object at that version (shared/protocol/object-walk.ts matches them), told in
 * the order it happened. Links the log no longer holds are simply absent.
 */
export function journeyFor(log: readonly StampedEvent[], endIdx: number): { key: string; steps: JourneyStep[] } {
  const walk = walkReconcile(log, endIdx);
  const steps: JourneyStep[] = [];
  for (const s of walk.steps) {
    const d = describe(s.event);
    if (!d) continue;
    const text = s.step === 'list' ? (listText(walk, s.event) ?? d.text) : d.text;
    steps.push({ seq: s.event.seq, ts: s.event.ts, block: d.block, text });
  }
  return { key: walk.key, steps };
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
