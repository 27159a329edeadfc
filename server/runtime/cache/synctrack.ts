// Ports client-go tools/cache/synctrack/synctrack.go (SingleFileTracker): a handler is synced once
// its upstream is and every initial-list notification it was given has been handled.
export class SingleFileTracker {
  private count = 0;
  private synced = false;

  constructor(private readonly upstreamHasSynced: () => boolean) {}

  start(): void {
    this.count++;
  }

  finished(): void {
    this.count--;
    if (this.count < 0)
      throw new Error('synctrack: negative counter; this logic error means HasSynced may return incorrect value');
  }

  /** Sticky: once true, stays true. */
  hasSynced(): boolean {
    if (this.synced) return true;
    if (this.count > 0 || !this.upstreamHasSynced()) return false;
    this.synced = true;
    return true;
  }
}
