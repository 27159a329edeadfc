// A recording made from what the recorder already holds, for one viewer: the browser's "● Rec" asks for the
// span it recorded and gets a file `--replay` opens. It starts with the state right before the span (rebuilt
// from the recorder's nearest keyframe, so it is exact even after the ring wrapped), then the span's events,
// with the recorder's keyframes inside the span. Nothing is paused or changed for anyone else.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { KEYFRAME_EVERY, RECORDING_FORMAT, RECORDING_VERSION } from '../../../shared/protocol/recording';
import type { RecordingHeader, StateRecord } from '../../../shared/protocol/recording';
import type { Keyframe } from '../recorder/keyframes';
import type { Recorder } from '../recorder/recorder';

const gzipAsync = promisify(gzip);

export interface RecordingSource {
  cluster: ClusterInfo;
  controllers: string[];
}

export function recordingHeader(recorder: Recorder, source: RecordingSource, createdAt: number): RecordingHeader {
  return {
    type: 'header',
    format: RECORDING_FORMAT,
    formatVersion: RECORDING_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    createdAt,
    serverEpoch: recorder.serverEpoch,
    cluster: source.cluster,
    controllers: source.controllers,
    viewLimits: recorder.view.limits,
  };
}

/** A state as one line of the file. */
export function stateLine(type: StateRecord['type'], state: Keyframe): string {
  const record: StateRecord = { type, seq: state.seq, ts: state.ts, view: state.view, caches: state.caches.table() };
  return `${JSON.stringify(record)}\n`;
}

export interface ExportRange {
  /** First seq the viewer recorded. Default: the first event held. */
  fromSeq?: number;
  /** Last seq to include. Default: the newest. */
  toSeq?: number;
  /** Fewest events between the keyframes written (the recorder keeps more). Default KEYFRAME_EVERY. */
  keyframeEvery?: number;
}

/** The recording's JSON lines: header, the state before fromSeq, the events up to toSeq and keyframes among them. */
export function exportLines(
  recorder: Recorder,
  source: RecordingSource,
  range: ExportRange,
  createdAt: number,
): string {
  return exportSpan(recorder, source, range, createdAt).text;
}

/** The span a recording holds: later than asked when the recorder can no longer rebuild the asked start. */
export interface ExportedSpan {
  text: string;
  range: { fromSeq: number; toSeq: number };
}

function exportSpan(recorder: Recorder, source: RecordingSource, range: ExportRange, createdAt: number): ExportedSpan {
  const bounds = recorder.ringBounds();
  const toSeq = Math.min(range.toSeq ?? bounds.lastSeq, bounds.lastSeq);
  const fromSeq = Math.min(range.fromSeq ?? bounds.firstSeq, toSeq + 1);
  const start = recorder.stateAt(Math.max(0, fromSeq - 1));
  const header: RecordingHeader = {
    ...recordingHeader(recorder, source, createdAt),
    range: { fromSeq: Math.max(fromSeq, start.seq + 1), toSeq },
  };
  const parts = [`${JSON.stringify(header)}\n`, stateLine('snapshot', start)];
  // The recorder's keyframes, spaced as a file's are: more would cost bytes without making seeks much faster.
  const every = range.keyframeEvery ?? KEYFRAME_EVERY;
  const keyframes: Keyframe[] = [];
  let lastKept = start.seq;
  for (const frame of recorder.keyframesBetween(start.seq, toSeq)) {
    if (frame.seq - lastKept < every) continue;
    keyframes.push(frame);
    lastKept = frame.seq;
  }
  let k = 0;
  for (const ev of recorder.eventsAfter(start.seq) ?? []) {
    if (ev.seq > toSeq) break;
    parts.push(`${JSON.stringify(ev)}\n`);
    while (k < keyframes.length && (keyframes[k] as Keyframe).seq <= ev.seq) {
      const frame = keyframes[k++] as Keyframe;
      if (frame.seq === ev.seq) parts.push(stateLine('keyframe', frame));
    }
  }
  return { text: parts.join(''), range: header.range ?? { fromSeq, toSeq } };
}

/** The recording file's bytes (exportLines, gzipped) and the span they hold. */
export async function exportRecording(
  recorder: Recorder,
  source: RecordingSource,
  range: ExportRange,
  createdAt: number,
): Promise<{ body: Buffer; range: ExportedSpan['range'] }> {
  const span = exportSpan(recorder, source, range, createdAt);
  return { body: await gzipAsync(span.text), range: span.range };
}
