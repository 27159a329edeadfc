// Everything `--replay FILE` needs: the recording, a recorder with the recorded view limits (so the view comes
// out the same), and a ReplaySource feeding it. The composition root hands these to startDashboard.
import { basename } from 'node:path';
import type { ReplaySpeed } from '../../../shared/protocol/commands';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import { Recorder } from '../recorder/recorder';
import type { Clock } from '../../runtime/util/clock';
import { RecordedObjects } from './recorded-objects';
import { readRecording } from './recording-reader';
import type { Recording } from '../../../shared/protocol/recording';
import { ReplaySource } from './replay-source';

export interface OpenReplayOptions {
  file: string;
  /** Default realClock. */
  clock?: Clock;
  /** Default 1. */
  speed?: ReplaySpeed;
  /** Default 'whenWatched': play once the first viewer arrives. */
  autoplay?: boolean | 'whenWatched';
  /** Ring capacity of the replay recorder, in events. Default: room for the whole recording. */
  capacity?: number;
}

export interface OpenedReplay {
  recording: Recording;
  recorder: Recorder;
  source: ReplaySource;
  cluster: ClusterInfo;
  controllers: string[];
}

export async function openReplay(opts: OpenReplayOptions): Promise<OpenedReplay> {
  const recording = await readRecording(opts.file);
  const objects = new RecordedObjects();
  const recorder = new Recorder({
    objectSource: objects,
    ...(opts.clock ? { clock: opts.clock } : {}),
    // The recording already holds its events in memory and the ring shares them, so no byte budget applies.
    capacity: opts.capacity ?? Math.max(1, recording.events.length),
    ringBytes: Infinity,
    viewLimits: recording.header.viewLimits,
    objectVersions: false,
    serverEpoch: `replay-0-${recording.header.serverEpoch}`,
  });
  const source = new ReplaySource({
    recorder,
    recording,
    objects,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.speed !== undefined ? { speed: opts.speed } : {}),
    ...(opts.autoplay !== undefined ? { autoplay: opts.autoplay } : {}),
  });
  const recorded = recording.header.cluster;
  const cluster: ClusterInfo = {
    kind: 'replay',
    name: `${basename(opts.file)} (${recorded.kind}${recorded.name ? ` ${recorded.name}` : ''})`,
    writable: false,
  };
  return { recording, recorder, source, cluster, controllers: recording.header.controllers };
}
