// The dashboard's front door for the composition root (server/main.ts):
//
//   const recorder = new Recorder({ objectSource });          // pass as the manager's Probe
//   const writer = recordFile && new RecordingWriter({ recorder, file: recordFile, cluster, controllers });
//   const dash = await startDashboard({ recorder, host, port, token, registry, cluster, controllers, ports });
//
// or, for `--replay FILE` with no cluster:
//
//   const r = await openReplay({ file, speed });
//   const dash = await startDashboard({ recorder: r.recorder, mode: 'replay', cluster: r.cluster,
//                                      controllers: r.controllers, ports: { replay: r.source } });
//
// and, for a user's own main (the package's `controller-scope/dashboard` entry), one call around a manager:
//
//   await serveDashboard(mgr, { bindAddress: '127.0.0.1:7070' });
export { DASHBOARD_ADDRESS_ENV, serveDashboard, parseDashboardBindAddress } from './serve-dashboard';
export type { ServeDashboardOptions, ServedDashboard } from './serve-dashboard';
export { objectSourceOver } from './cache-object-source';
export { cacheComparerOver } from './cache-drift';
export type { CacheComparerOptions } from './cache-drift';
export { stepPort } from './step-port';
export { managerNotReady } from './transport/readiness';
export { Recorder } from './recorder/recorder';
export type { RecorderOptions, BatchListener } from './recorder/recorder';
export type { ObjectSource } from './recorder/object-source';
export { redactObject } from './recorder/redact';
export { startDashboard } from './transport/dashboard-server';
export type { DashboardOptions, DashboardServer } from './transport/dashboard-server';
export type {
  ActiveFault,
  ClusterControls,
  ControllerStepper,
  DashboardPorts,
  ReplayControls,
  Requeuer,
  StepperLookup,
} from './transport/ports';
export { RecordingWriter } from './replay/recording-writer';
export type { RecordingWriterOptions } from './replay/recording-writer';
export { readRecording } from './replay/recording-reader';
export { exportRecording } from './replay/recording-export';
export { ReplaySource } from './replay/replay-source';
export { openReplay } from './replay/open-replay';
export type { OpenReplayOptions, OpenedReplay } from './replay/open-replay';
// `attach` (server/attach.ts): processes streaming through the Go bridge module.
export { BridgeConnection, KeyMirror, remoteCacheComparer, remoteRequeuer, remoteSteppers } from './attach';
export type { BridgeConnectionOptions, ConnectionState } from './attach';
