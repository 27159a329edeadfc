// Front door of the embedded API server.
export { SandboxServer, type SandboxServerOptions } from './server';
export { runStandaloneSandbox, type StandaloneSandboxOptions, type StandaloneSandbox } from './standalone';
export {
  SandboxStore,
  type TypeRef,
  type StoreChange,
  type StoreListOptions,
  type StoreWatchOptions,
} from './store-api';
export { FaultInjector, type FaultVerb, type FaultState } from './faults';
export type { ResourceType } from './resources';
export { StatusError } from './status-errors';
export type { DeleteOptions, DeleteResult } from './delete';
