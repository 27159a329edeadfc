// When several processes are attached, each one's controllers, queues and informers get a lane: their names
// are prefixed with the process identity, so two replicas of one controller stay apart in every panel.
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { laneName } from '../../../shared/protocol/lanes';

export { laneName, splitLaneName } from '../../../shared/protocol/lanes';

/** Rewrites, in place, the names an event carries so they sit in the process's lane. */
export function intoLane(ev: RuntimeEvent, lane: string | undefined): RuntimeEvent {
  if (!lane) return ev;
  const e = ev as unknown as Record<string, unknown>;
  for (const field of ['controller', 'queue', 'informer'] as const) {
    const v = e[field];
    if (typeof v === 'string' && v !== '') e[field] = laneName(lane, v);
  }
  return ev;
}
