// Turns the fault form into a FaultSpec, and describes what each fault does to a controller (so the user
// knows which panel to watch after injecting it).
import type { FaultSpec, FaultTarget } from '../../../shared/protocol/commands';

export type FaultKind = FaultSpec['kind'];

export interface FaultForm {
  kind: FaultKind;
  resource: string;
  namespace: string;
  verbs: string;
  ms: number;
  rate: number;
  code: number;
  durationSec: number;
}

export const DEFAULT_FAULT_FORM: FaultForm = {
  kind: 'expireWatches',
  resource: '',
  namespace: '',
  verbs: '',
  ms: 500,
  rate: 0.5,
  code: 500,
  durationSec: 30,
};

export const FAULT_KINDS: readonly { kind: FaultKind; label: string; effect: string; watch: string }[] = [
  {
    kind: 'expireWatches',
    label: '410 Gone on watches',
    effect:
      'Open watches end with 410 Expired: reflectors must relist, deltas arrive as Replaced, vanished objects as tombstones.',
    watch: 'reflector',
  },
  {
    kind: 'closeWatches',
    label: 'Close watches',
    effect: 'Watches end cleanly, as on an API server restart: reflectors re-watch from their last resourceVersion.',
    watch: 'reflector',
  },
  {
    kind: 'stallWatches',
    label: 'Stall watches',
    effect: 'The connection stays open but no event arrives: the cache silently goes stale until the watch times out.',
    watch: 'reflector',
  },
  {
    kind: 'latency',
    label: 'Add latency',
    effect: 'Requests take longer: reconcile durations shift right in the histogram; lists take longer to sync.',
    watch: 'controller',
  },
  {
    kind: 'errors',
    label: 'Fail requests',
    effect: 'A share of requests fail with the given status: reconciles error and back off exponentially per key.',
    watch: 'workqueue',
  },
  {
    kind: 'conflicts',
    label: '409 Conflict on writes',
    effect: 'Writes fail with Conflict: the classic optimistic-concurrency retry loop, visible as requeues per key.',
    watch: 'workqueue',
  },
];

const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']);

/** Validates the form and builds the spec; returns an error message for the user instead when invalid. */
export function buildFault(f: FaultForm): { fault: FaultSpec; durationMs?: number } | { error: string } {
  const target: FaultTarget = {};
  if (f.resource.trim()) target.resource = f.resource.trim();
  if (f.namespace.trim()) target.namespace = f.namespace.trim();
  const verbs = f.verbs
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = verbs.filter((v) => !VERBS.has(v));
  if (bad.length > 0) return { error: `Unknown verb ${bad.join(', ')}: use ${[...VERBS].join(', ')}.` };
  if (verbs.length > 0) target.verbs = verbs as NonNullable<FaultTarget['verbs']>;
  let fault: FaultSpec;
  switch (f.kind) {
    case 'latency':
      if (!(f.ms > 0 && f.ms <= 60_000)) return { error: 'Latency must be between 1 and 60000 ms.' };
      fault = { kind: 'latency', ms: f.ms, ...target };
      break;
    case 'errors':
      if (!(f.rate > 0 && f.rate <= 1)) return { error: 'Rate must be in (0, 1].' };
      if (!(f.code >= 400 && f.code <= 599)) return { error: 'Status code must be 4xx or 5xx.' };
      fault = { kind: 'errors', rate: f.rate, code: f.code, ...target };
      break;
    case 'conflicts':
      if (!(f.rate > 0 && f.rate <= 1)) return { error: 'Rate must be in (0, 1].' };
      fault = { kind: 'conflicts', rate: f.rate, ...target };
      break;
    default:
      fault = { kind: f.kind, ...target };
  }
  return f.durationSec > 0 ? { fault, durationMs: Math.round(f.durationSec * 1000) } : { fault };
}
