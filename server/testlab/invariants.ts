// What every run must hold, perturbed or not, besides reaching the reference end state.
import type { KubeObject } from '../../shared/models/object';
import { kindOf } from './end-state';

export const INVARIANTS = [
  'converged',
  'no-panic',
  'no-hot-loop',
  'owner-alive',
  'finalizer-released',
  'observed-generation',
] as const;
export type InvariantName = (typeof INVARIANTS)[number];

export interface Violation {
  invariant: InvariantName;
  detail: string;
}

/** A key reconciled this many times within HOT_WINDOW_MS is looping, whatever the cause. */
export const HOT_RECONCILES = 25;
export const HOT_WINDOW_MS = 2_000;

export interface RunFacts {
  /** Why the run did not settle within its budget; undefined when it did. */
  unsettled?: string;
  /** Keys whose last reconcile failed ("controller key" → error). */
  failing: ReadonlyMap<string, string>;
  panics: readonly string[];
  /** Reconcile start times per "controller key". */
  starts: ReadonlyMap<string, readonly number[]>;
  /** The end snapshot, raw. */
  objects: readonly KubeObject[];
  /** Whether an owner (by reference) still exists with that uid. */
  ownerAlive: (owner: { apiVersion: string; kind: string; name: string; uid: string }, namespace?: string) => boolean;
  /** Finalizers that appeared on objects the controller wrote. */
  finalizers: ReadonlySet<string>;
  /** Objects ("kind ns/name") whose status the controller wrote. */
  statusWritten: ReadonlySet<string>;
}

const SYSTEM_FINALIZERS = new Set(['kubernetes', 'foregroundDeletion', 'orphan']);

export function objectId(o: KubeObject): string {
  return `${kindOf(o)} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name ?? ''}`;
}

export function checkInvariants(f: RunFacts): Violation[] {
  const out: Violation[] = [];
  if (f.unsettled !== undefined) out.push({ invariant: 'converged', detail: `did not settle: ${f.unsettled}` });
  for (const [key, err] of f.failing)
    out.push({ invariant: 'converged', detail: `${key}: its last reconcile failed: ${err}` });
  for (const p of f.panics) out.push({ invariant: 'no-panic', detail: p });
  for (const [key, ts] of f.starts) {
    const n = densest(ts, HOT_WINDOW_MS);
    if (n >= HOT_RECONCILES)
      out.push({ invariant: 'no-hot-loop', detail: `${key}: ${n} reconciles within ${HOT_WINDOW_MS} ms` });
  }
  for (const o of f.objects) {
    const id = objectId(o);
    for (const r of o.metadata.ownerReferences ?? []) {
      if (!f.ownerAlive(r, o.metadata.namespace)) {
        out.push({
          invariant: 'owner-alive',
          detail: `${id} is owned by ${r.kind} ${r.name} (uid ${r.uid}), which is gone`,
        });
      }
    }
    const held = (o.metadata.finalizers ?? []).filter((x) => f.finalizers.has(x) && !SYSTEM_FINALIZERS.has(x));
    if (o.metadata.deletionTimestamp && held.length > 0) {
      out.push({
        invariant: 'finalizer-released',
        detail: `${id} is being deleted but still holds ${held.join(', ')}`,
      });
    }
    const observed = (o.status as { observedGeneration?: unknown } | undefined)?.observedGeneration;
    const generation = o.metadata.generation;
    if (
      f.statusWritten.has(id) &&
      !o.metadata.deletionTimestamp &&
      typeof observed === 'number' &&
      typeof generation === 'number' &&
      observed !== generation
    ) {
      out.push({
        invariant: 'observed-generation',
        detail: `${id}: status.observedGeneration ${observed}, metadata.generation ${generation}`,
      });
    }
  }
  return out;
}

/** The most timestamps inside any window of that width. */
function densest(ts: readonly number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; j < ts.length; j++) {
    while ((ts[j] as number) - (ts[i] as number) > windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}
