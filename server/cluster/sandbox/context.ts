// What every sandbox handler shares: storage, the type registry, time and randomness.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../runtime';
import type { ResourceRegistry, ResourceType } from './resources';
import { grKey, type ObjectStorage } from './storage';

export interface SandboxContext {
  readonly storage: ObjectStorage;
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  /** Source of randomness for generateName and failure injection (default Math.random). */
  readonly random: () => number;
  /** New metadata.uid values (default crypto.randomUUID). */
  readonly newUid: () => string;
  /** Asks the built-in controllers (GC, namespace, CRD cleanup) to look at the store again. */
  kickControllers(): void;
}

export function defaultUid(): string {
  return randomUUID();
}

/** Where a type's objects are stored: `group/resource`, or the group it shares storage with. */
export const grOf = (t: ResourceType): string => grKey(t.storageGroup ?? t.group, t.resource);
