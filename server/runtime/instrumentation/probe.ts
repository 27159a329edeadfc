// The one seam between the runtime and whoever watches it. Blocks take a Probe through their options
// and guard every emit with `if (probe.enabled)`, so an unwatched controller builds no event objects.
import type { RuntimeEvent } from '../../../shared/protocol/events';

export interface Probe {
  readonly enabled: boolean;
  emit(event: RuntimeEvent): void;
}

export const NOOP_PROBE: Probe = Object.freeze({
  enabled: false,
  emit(): void {},
});

/** Fans events out to several probes; enabled while any of them is. */
export class MultiProbe implements Probe {
  constructor(private readonly probes: Probe[]) {}

  get enabled(): boolean {
    return this.probes.some((p) => p.enabled);
  }

  emit(event: RuntimeEvent): void {
    for (const p of this.probes) if (p.enabled) p.emit(event);
  }
}
