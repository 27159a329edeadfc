// Answers inspect requests: pull-on-demand detail the batches do not carry (objects, a key's or an informer's
// recent events, the cache's keys, a slice of the ring).
import type { Ack } from '../../../shared/protocol/commands';
import type { StampedEvent } from '../../../shared/protocol/events';
import type { InspectResult } from '../../../shared/protocol/socket';
import { matchesEvent } from '../../../shared/protocol/subscription';
import type { Recorder } from '../recorder/recorder';
import { parseInspect } from './schemas';
import { errorMessage } from '../../runtime/util/errors';

const DEFAULT_LIMIT = 200;

export function inspect(recorder: Recorder, input: unknown): Ack<InspectResult> {
  const parsed = parseInspect(input);
  if (!parsed.ok) return { ok: false, code: 'invalid', error: parsed.error };
  const req = parsed.value;
  try {
    switch (req.target) {
      case 'object':
        return { ok: true, result: { target: 'object', ...recorder.inspectObject(req.object) } };
      case 'key': {
        const key = recorder.view.controllers[req.controller]?.keys[req.key] ?? null;
        const events = recorder.recentEvents((ev) => aboutKey(ev, req.controller, req.key), req.limit ?? DEFAULT_LIMIT);
        return { ok: true, result: { target: 'key', key, events } };
      }
      case 'informer': {
        const informer = recorder.view.informers[req.informer] ?? null;
        const events = recorder.recentEvents(
          (ev) => 'informer' in ev && ev.informer === req.informer,
          req.limit ?? DEFAULT_LIMIT,
        );
        return { ok: true, result: { target: 'informer', informer, events } };
      }
      case 'cache':
        return {
          ok: true,
          result: {
            target: 'cache',
            informer: req.informer,
            ...recorder.inspectCache(req.informer, req.search, req.limit ?? 1000),
          },
        };
      case 'events': {
        const limit = req.limit ?? DEFAULT_LIMIT;
        const sub = req.subscription ?? {};
        const bounds = recorder.ringBounds();
        const after = req.afterSeq;
        const events =
          after === undefined
            ? recorder.recentEvents((ev) => matchesEvent(ev, sub), limit)
            : (recorder.eventsAfter(Math.max(after, bounds.firstSeq - 1)) ?? [])
                .filter((ev) => matchesEvent(ev, sub))
                .slice(0, limit);
        return { ok: true, result: { target: 'events', events, firstSeq: bounds.firstSeq, lastSeq: bounds.lastSeq } };
      }
    }
  } catch (err) {
    return { ok: false, code: 'failed', error: `inspect failed: ${errorMessage(err)}` };
  }
}

function aboutKey(ev: StampedEvent, controller: string, key: string): boolean {
  const e = ev as Partial<{ controller: string; queue: string; key: string; keys: string[] }>;
  if (e.key === key) return (e.controller ?? e.queue) === controller || 'informer' in ev;
  return e.controller === controller && e.keys !== undefined && e.keys.includes(key);
}
