// A recording made from what the recorder already holds, for one viewer: the browser's "● Rec" asks for the
// span it recorded and gets a file `--replay` opens. Every held event up to the end of that span goes in, so
// the replay rebuilds the same view; the span itself is named in the header. Nothing is paused or changed
// for anyone else.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import type { Recorder } from '../recorder/recorder';
import { RECORDING_FORMAT } from './recording-format';
import type { RecordingGap, RecordingHeader } from './recording-format';

export interface RecordingSource {
  cluster: ClusterInfo;
  controllers: string[];
}

export function recordingHeader(recorder: Recorder, source: RecordingSource, createdAt: number): RecordingHeader {
  return {
    type: 'header',
    format: RECORDING_FORMAT,
    protocolVersion: PROTOCOL_VERSION,
    createdAt,
    serverEpoch: recorder.serverEpoch,
    cluster: source.cluster,
    controllers: source.controllers,
    viewLimits: recorder.view.limits,
  };
}

export interface ExportRange {
  /** First seq the viewer recorded (for the header). Default: the first event held. */
  fromSeq?: number;
  /** Last seq to include. Default: the newest. */
  toSeq?: number;
}

/** JSON lines: header, a gap marker when the ring already evicted the session's start, then the events. */
export function exportRecording(
  recorder: Recorder,
  source: RecordingSource,
  range: ExportRange,
  createdAt: number,
): string {
  const bounds = recorder.ringBounds();
  const toSeq = Math.min(range.toSeq ?? bounds.lastSeq, bounds.lastSeq);
  const events = (recorder.eventsAfter(Math.max(0, bounds.firstSeq - 1)) ?? []).filter((e) => e.seq <= toSeq);
  const first = events[0] as StampedEvent | undefined;
  const header: RecordingHeader = {
    ...recordingHeader(recorder, source, createdAt),
    range: { fromSeq: Math.max(range.fromSeq ?? first?.seq ?? 0, first?.seq ?? 0), toSeq },
  };
  let text = `${JSON.stringify(header)}\n`;
  if (first && first.seq > 1) {
    const gap: RecordingGap = { type: 'gap', dropped: first.seq - 1, afterSeq: 0 };
    text += `${JSON.stringify(gap)}\n`;
  }
  for (const ev of events) text += `${JSON.stringify(ev)}\n`;
  return text;
}
