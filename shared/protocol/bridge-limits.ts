// The limits the dashboard holds an attached process to, and why it drops what it drops. A bridge is a peer
// on the network: a bug or a hostile process must not be able to grow the dashboard's memory, freeze it, or
// silence it. The attach side enforces these (server/dashboard/attach), the reducer counts what each one
// dropped on the process (reduce-process.ts) and the UI names them: one definition for all three.

/** The caps, per attached process. */
export const BRIDGE_LIMITS = {
  /** Bytes of one event line; a longer line is dropped whole (the Go bridge's events are a few hundred bytes). */
  lineBytes: 1 << 20,
  /** Distinct controllers (and queues) it may name; events naming more are dropped. */
  controllers: 256,
  /** Distinct informers it may name; events naming more are dropped. */
  informers: 512,
  /** Keys its informers' stores may hold in the cache browser; keys past it are not listed. */
  keys: 200_000,
} as const;

/**
 * Why the dashboard did not take something a process sent. Absent on a bridge.dropped: the process's own
 * buffer was full and it dropped the events itself.
 */
export type BridgeDropCause = 'lineBytes' | 'seq' | 'gap' | 'controllers' | 'informers' | 'keys';

export const BRIDGE_DROP_CAUSES: readonly BridgeDropCause[] = [
  'lineBytes',
  'seq',
  'gap',
  'controllers',
  'informers',
  'keys',
];

export function isBridgeDropCause(v: unknown): v is BridgeDropCause {
  return typeof v === 'string' && (BRIDGE_DROP_CAUSES as readonly string[]).includes(v);
}

/** Whether what a cause drops leaves the view short of events (keys past the cap are still reduced). */
export function dropsEvents(cause: BridgeDropCause | undefined): boolean {
  return cause !== 'keys';
}

/** "dropped N …: why", as the notable entry and the banner say it. */
export function describeDrop(process: string, n: number, cause: BridgeDropCause | undefined, cap?: number): string {
  const events = `${n} event${n === 1 ? '' : 's'}`;
  const c = cap ?? (cause && cause in BRIDGE_LIMITS ? BRIDGE_LIMITS[cause as keyof typeof BRIDGE_LIMITS] : 0);
  switch (cause) {
    case undefined:
      return `process ${process} dropped ${events} (its buffer was full)`;
    case 'lineBytes':
      return `dropped ${events} from process ${process}: a line over the ${c}-byte cap`;
    case 'seq':
      return `dropped ${events} from process ${process}: a seq that is not a positive integer above the last one (stream resynced)`;
    case 'gap':
      return `missed ${events} of process ${process}: its seq jumped (evicted from its buffer before they were read)`;
    case 'controllers':
      return `dropped ${events} from process ${process}: it names more than ${c} controllers`;
    case 'informers':
      return `dropped ${events} from process ${process}: it names more than ${c} informers`;
    case 'keys':
      return `the cache browser of process ${process} lists at most ${c} keys: ${n} more not listed`;
  }
}
