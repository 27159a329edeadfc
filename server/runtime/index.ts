// The runtime's one front door, under upstream names. Filled in as blocks land.
export type { Probe } from './instrumentation/probe';
export { NOOP_PROBE, MultiProbe } from './instrumentation/probe';
export type { Clock, TimerHandle } from './util/clock';
export { realClock } from './util/clock';
export * from './util/errors';
export type * from './cache/interfaces';
export { DeletedFinalStateUnknown } from './cache/interfaces';
export type * from './workqueue/interfaces';
export type * from './client/lister-watcher';
