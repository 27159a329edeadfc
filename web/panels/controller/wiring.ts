// A controller's wiring in the builder's words, from what the runtime reported (controller.lifecycle's
// sources): For(v1/ConfigMap) · Owns(v1/Secret) · Watches(apps/v1/Deployment). Nothing is inferred from
// the events that happened to arrive: a producer that does not report its sources gets its For() kind
// alone, said to be all that is known.
import type { ControllerSource } from '../../../shared/protocol/events';
import type { ControllerView } from '../../../shared/protocol/view';

const CALL: Record<ControllerSource['role'], string> = {
  for: 'For',
  owns: 'Owns',
  watches: 'Watches',
  raw: 'WatchesRawSource',
};

export interface WiringPart {
  role: ControllerSource['role'];
  /** "Watches(apps/v1/Deployment)"; the handler goes in the title, it is long. */
  call: string;
  handler?: string;
}

export function wiringParts(c: Pick<ControllerView, 'sources' | 'forKind'>): WiringPart[] {
  if (c.sources) {
    return c.sources.map((s) => ({
      role: s.role,
      call: `${CALL[s.role]}(${s.kind ?? '…'})`,
      ...(s.handler ? { handler: s.handler } : {}),
    }));
  }
  return c.forKind ? [{ role: 'for', call: `For(${c.forKind})` }] : [];
}

/** true when the producer reported every source (so a missing Owns really is absent). */
export const wiringReported = (c: Pick<ControllerView, 'sources'>): boolean => c.sources !== undefined;
