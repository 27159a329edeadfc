// What a run did, in order: the scenario's steps, the controller's writes and the starts of its reconciles.
// The reference run's trace is where perturbation points are chosen from, and a finding names its point
// by the trace entry it fell on.

/** A write verb as the controller's client names it. */
export type WriteVerb = 'create' | 'update' | 'patch' | 'delete' | 'deleteAllOf' | 'updateStatus' | 'patchStatus';

export interface TraceRef {
  /** "v1/ConfigMap", "apps/v1/Deployment". */
  kind: string;
  namespace?: string;
  /** The name, or the generateName prefix followed by '*' for a create that asked for one. */
  name: string;
}

export type TraceEntry =
  | { at: 'step'; i: number; what: string }
  | {
      at: 'write';
      /** 1-based, across every run of the controller in this test run (a crash does not restart the count). */
      k: number;
      verb: WriteVerb;
      ref: TraceRef;
      /** The HTTP status the write failed with; absent when it succeeded. */
      code?: number;
      /** The reconcile running when it was made ("controller key"), when one was. */
      during?: string;
    }
  | { at: 'reconcile'; controller: string; key: string; /** 1-based count of this key's reconciles. */ n: number };

export function describeRef(r: TraceRef): string {
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

export function describeEntry(e: TraceEntry): string {
  switch (e.at) {
    case 'step':
      return `step ${e.i}: ${e.what}`;
    case 'write':
      return `write ${e.k}: ${e.verb} ${describeRef(e.ref)}${e.code ? ` (failed ${e.code})` : ''}${e.during ? `, in the reconcile of ${e.during}` : ''}`;
    case 'reconcile':
      return `reconcile ${e.n} of ${e.key} (${e.controller})`;
  }
}
