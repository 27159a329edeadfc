// Teaching models: follows one object through the whole pipeline using the recent event log (watch event →
// delta → pop → indexer → handler → enqueue → worker → reconcile → write), and picks the live numbers shown
// beside each explanation.
import type { StampedEvent } from '../../../shared/protocol/events';
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
      if (e.kind === 'client.request' && e.controller === controller && !e.cached) idx.push(i);
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
    const chain: Pred[] = [
      (e) => e.kind === 'handler.event' && e.controller === controller && e.keys.includes(key),
      (e) => e.kind === 'informer.notify' && mine(e) && e.handler.includes(controller),
      (e) => e.kind === 'indexer.update' && mine(e),
      (e) => e.kind === 'fifo.pop' && mine(e),
      (e) => e.kind === 'fifo.delta' && mine(e),
      (e) => e.kind === 'reflector.event' && mine(e),
    ];
    for (const pred of chain) {
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
  }
  for (let i = endIdx + 1; i < log.length; i++) {
    const e = log[i] as StampedEvent;
    if (e.kind === 'queue.done' && e.queue === controller && e.key === key) {
      idx.push(i);
      break;
    }
  }
  const steps: JourneyStep[] = [];
  for (const i of idx.sort((x, y) => x - y)) {
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
