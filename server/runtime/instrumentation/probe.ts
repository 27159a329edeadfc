// The one seam between the runtime and whoever watches it. Blocks take a Probe through their options
// and guard every emit with `if (probe.enabled)`, so an unwatched controller builds no event objects.
import type { RuntimeEvent } from '../../../shared/protocol/events';

export interface Probe {
  readonly enabled: boolean;
  /**
   * Takes ownership of the event: emitters pass a fresh object per call and never touch it again, so a probe
   * may keep it or stamp it in place (the dashboard's recorder adds seq and ts without copying).
   */
  emit(event: RuntimeEvent): void;
}

export const NOOP_PROBE: Probe = Object.freeze({
  enabled: false,
  emit(): void {},
});

/**
 * Fans events out to several probes; enabled while any of them is. They share the one event object, so a
 * probe that stamps in place (the recorder) is seen stamped by the probes after it. Probes can join later
 * (a dashboard attached to a manager that already built its cache): every block holds this one object, so
 * a probe added before the blocks run sees everything they emit.
 */
export class MultiProbe implements Probe {
  private probes: Probe[];

  constructor(probes: Probe[] = []) {
    this.probes = [...probes];
  }

  get enabled(): boolean {
    const ps = this.probes;
    return ps.length === 1 ? (ps[0] as Probe).enabled : ps.some((p) => p.enabled);
  }

  /** Adds a probe; the returned function removes it again. */
  add(probe: Probe): () => void {
    this.probes = [...this.probes, probe];
    return () => {
      this.probes = this.probes.filter((p) => p !== probe);
    };
  }

  emit(event: RuntimeEvent): void {
    for (const p of this.probes) if (p.enabled) p.emit(event);
  }
}
