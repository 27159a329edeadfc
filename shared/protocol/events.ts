// The one union of what the runtime reports. Kinds are "<block>.<verb>" and wire-stable.
import type { CacheEvent } from './events-cache';
import type { WorkqueueEvent } from './events-workqueue';
import type { ControllerEvent } from './events-controller';
import type { BridgeEvent } from './events-bridge';

export type * from './events-cache';
export type * from './events-workqueue';
export type * from './events-controller';
export type * from './events-bridge';

export type RuntimeEvent = CacheEvent | WorkqueueEvent | ControllerEvent | BridgeEvent;
export type RuntimeEventKind = RuntimeEvent['kind'];

/** An event as the recorder stamps it: a sequence number and a wall-clock time. */
export type StampedEvent = RuntimeEvent & { seq: number; ts: number };
