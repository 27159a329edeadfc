// Colours that carry meaning, used the same way on every panel (outcomes, queue states, delta types, causes).
import type { CauseType, DeltaType, ReconcileOutcome, ReflectorState } from '../../shared/protocol/events';
import type { KeyQueueState } from '../../shared/protocol/view';
import type { Tone } from './Stat';

export const C = {
  ok: '#3fb950',
  warn: '#d29922',
  err: '#f85149',
  info: '#58a6ff',
  accent: '#4fa3ff',
  purple: '#bc8cff',
  teal: '#39c5bb',
  orange: '#f0883e',
  pink: '#ff7bb6',
  grey: '#7c8794',
} as const;

export const OUTCOME_COLOR: Record<ReconcileOutcome, string> = {
  success: C.ok,
  requeue: C.info,
  requeueAfter: C.teal,
  error: C.err,
  terminalError: C.pink,
  panic: C.orange,
};

export const OUTCOME_TONE: Record<ReconcileOutcome, Tone> = {
  success: 'ok',
  requeue: 'info',
  requeueAfter: 'teal',
  error: 'err',
  terminalError: 'err',
  panic: 'err',
};

export const QUEUE_STATE_TONE: Record<KeyQueueState, Tone> = {
  ready: 'info',
  waiting: 'warn',
  processing: 'ok',
  idle: 'muted',
};

export const DELTA_COLOR: Record<DeltaType, string> = {
  Added: C.ok,
  Updated: C.info,
  Deleted: C.err,
  Replaced: C.purple,
  Sync: C.grey,
};

export const DELTA_TONE: Record<DeltaType, Tone> = {
  Added: 'ok',
  Updated: 'info',
  Deleted: 'err',
  Replaced: 'purple',
  Sync: 'muted',
};

export const CAUSE_TONE: Record<CauseType, Tone> = {
  event: 'info',
  owner: 'purple',
  mapped: 'teal',
  requeue: 'warn',
  requeueAfter: 'teal',
  errorBackoff: 'err',
  resync: 'muted',
  manual: 'ok',
  unknown: 'muted',
};

export const CAUSE_COLOR: Record<CauseType, string> = {
  event: C.info,
  owner: C.purple,
  mapped: C.teal,
  requeue: C.warn,
  requeueAfter: C.teal,
  errorBackoff: C.err,
  resync: C.grey,
  manual: C.ok,
  unknown: '#58626d',
};

export const REFLECTOR_TONE: Record<ReflectorState, Tone> = {
  idle: 'muted',
  listing: 'info',
  watching: 'ok',
  backoff: 'warn',
  relisting: 'warn',
  stopped: 'muted',
};
