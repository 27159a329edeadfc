// Compile-time guarantees that every event kind has a reducer case. The cache half's handler map is typed
// by its union's kinds, so a missing kind is a missing property; the other halves' switches end in
// `default: unhandled(ev)`, which only type-checks when `ev` is `never` there; and the blocks the router
// sends to each half are checked against the kinds of that half's union. A new kind in events-*.ts that no
// case handles therefore fails the type check instead of falling silently into a default.
import type { CacheEvent } from './events-cache';
import type { ControllerEvent } from './events-controller';
import type { WorkqueueEvent } from './events-workqueue';
import type { BridgeEvent } from './events-bridge';

/** Reached only for kinds from a newer peer (the wire promises additions only): they stay in the log. */
export function unhandled(ev: never): void {
  void ev;
}

/** "reflector" of "reflector.state". */
type BlockOf<K> = K extends `${infer B}.${string}` ? B : never;

export const CACHE_BLOCKS = ['reflector', 'fifo', 'indexer', 'informer'] as const;
export const WORKQUEUE_BLOCKS = ['queue'] as const;
export const CONTROLLER_BLOCKS = [
  'controller',
  'handler',
  'reconcile',
  'client',
  'manager',
  'module',
  'leaderelection',
] as const;
export const BRIDGE_BLOCKS = ['bridge'] as const;

/** true when the listed blocks are exactly the blocks of the union's kinds. */
type SameBlocks<Listed, Kinds> = [Exclude<BlockOf<Kinds>, Listed>] extends [never]
  ? [Exclude<Listed, BlockOf<Kinds>>] extends [never]
    ? true
    : false
  : false;

// Each line fails to compile when a half's union gains a block its list does not route (or loses one).
export const CACHE_BLOCKS_COMPLETE: SameBlocks<(typeof CACHE_BLOCKS)[number], CacheEvent['kind']> = true;
export const WORKQUEUE_BLOCKS_COMPLETE: SameBlocks<(typeof WORKQUEUE_BLOCKS)[number], WorkqueueEvent['kind']> = true;
export const CONTROLLER_BLOCKS_COMPLETE: SameBlocks<(typeof CONTROLLER_BLOCKS)[number], ControllerEvent['kind']> = true;
export const BRIDGE_BLOCKS_COMPLETE: SameBlocks<(typeof BRIDGE_BLOCKS)[number], BridgeEvent['kind']> = true;
