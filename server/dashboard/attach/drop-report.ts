// Tells the view what the attach side dropped of a process's stream, and why (bridge-limits.ts): the first
// drop of a burst at once, then at most one bridge.dropped per interval summing each cause, so a flood of
// refused lines is reported without becoming a flood of reports.
import { BRIDGE_LIMITS, type BridgeDropCause } from '../../../shared/protocol/bridge-limits';
import type { BridgeDroppedEvent } from '../../../shared/protocol/events-bridge';

export class DropReport {
  private readonly pending = new Map<BridgeDropCause, number>();
  private readonly totals = new Map<BridgeDropCause, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (ev: BridgeDroppedEvent) => void,
    private readonly process: () => string,
    private readonly intervalMs = 1000,
  ) {}

  count(cause: BridgeDropCause, n = 1): void {
    if (n <= 0) return;
    this.pending.set(cause, (this.pending.get(cause) ?? 0) + n);
    if (this.timer) return;
    this.flush();
    this.timer = setInterval(() => {
      if (this.pending.size === 0) this.stop();
      else this.flush();
    }, this.intervalMs).unref();
  }

  /** Reports what is pending now (also on close, so nothing counted is lost). */
  flush(): void {
    for (const [cause, dropped] of this.pending) {
      const total = (this.totals.get(cause) ?? 0) + dropped;
      this.totals.set(cause, total);
      const cap = cause in BRIDGE_LIMITS ? BRIDGE_LIMITS[cause as keyof typeof BRIDGE_LIMITS] : undefined;
      this.emit({
        kind: 'bridge.dropped',
        process: this.process(),
        dropped,
        total,
        cause,
        ...(cap !== undefined ? { cap } : {}),
      });
    }
    this.pending.clear();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
