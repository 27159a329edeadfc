// ServerStatus: state that changes by command (recording, step mode, faults, workload, replay), gathered
// from the recorder and the ports each time it is sent.
import type { StepState } from '../../../shared/protocol/commands';
import { dict } from '../../../shared/protocol/records';
import type { ServerStatus } from '../../../shared/protocol/socket';
import type { Recorder } from '../recorder/recorder';
import type { DashboardPorts } from './ports';

export function buildStatus(
  recorder: Recorder,
  ports: DashboardPorts,
  controllers: string[],
  /** Adds who holds each controller and who set each breakpoint. */
  decorate: (s: StepState) => StepState = (s) => s,
): ServerStatus {
  const steppers = dict<StepState>();
  if (ports.steppers) {
    for (const name of controllers) {
      const s = ports.steppers(name);
      if (s) steppers[name] = decorate(s.state());
    }
  }
  const workload = ports.cluster?.workload();
  return {
    recording: recorder.recordingState(),
    steppers,
    faults: ports.cluster?.activeFaults() ?? [],
    ...(workload ? { workload } : {}),
    ...(ports.replay ? { replay: ports.replay.state() } : {}),
  };
}
