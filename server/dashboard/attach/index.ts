// Attaching the dashboard to running processes that stream through the Go bridge module.
export { BridgeConnection } from './bridge-connection';
export type { BridgeConnectionOptions, ConnectionState } from './bridge-connection';
export { KeyMirror } from './key-mirror';
export { remoteRequeuer, remoteSteppers } from './remote-stepper';
export { remoteCacheComparer } from './remote-compare';
export { laneName, splitLaneName } from './lanes';
