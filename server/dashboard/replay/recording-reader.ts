// Reads a --record file back, with errors that say which line is wrong and why.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { StampedEvent } from '../../../shared/protocol/events';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { RECORDING_FORMAT } from './recording-format';
import type { Recording, RecordingGap, RecordingHeader } from './recording-format';

export async function readRecording(file: string): Promise<Recording> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let header: RecordingHeader | undefined;
  const events: StampedEvent[] = [];
  const gaps: RecordingGap[] = [];
  let n = 0;
  let lastSeq = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${n}: not JSON`);
    }
    if (!header) {
      header = checkHeader(file, value);
      continue;
    }
    const rec = value as Partial<StampedEvent> & { type?: string };
    if (rec.type === 'gap') {
      gaps.push(value as RecordingGap);
      continue;
    }
    if (typeof rec.kind !== 'string' || typeof rec.seq !== 'number' || typeof rec.ts !== 'number') {
      throw new Error(`${file}:${n}: not a stamped event (needs kind, seq and ts)`);
    }
    if (rec.seq <= lastSeq) throw new Error(`${file}:${n}: seq ${rec.seq} does not increase (previous ${lastSeq})`);
    lastSeq = rec.seq;
    events.push(rec as StampedEvent);
  }
  if (!header) throw new Error(`${file}: empty, expected a recording header on the first line`);
  return { header, events, gaps };
}

function checkHeader(file: string, value: unknown): RecordingHeader {
  const h = value as Partial<RecordingHeader>;
  if (h?.type !== 'header' || h.format !== RECORDING_FORMAT) {
    throw new Error(`${file}:1: not a controller-scope recording (no "${RECORDING_FORMAT}" header)`);
  }
  if (h.protocolVersion !== PROTOCOL_VERSION) {
    throw new Error(
      `${file}: recorded with protocol version ${String(h.protocolVersion)}, this build replays version ${PROTOCOL_VERSION}`,
    );
  }
  if (!Array.isArray(h.controllers) || !h.controllers.every((c) => typeof c === 'string')) {
    throw new Error(`${file}:1: header "controllers" must be a list of controller names`);
  }
  const limits: unknown = h.viewLimits;
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
    throw new Error(`${file}:1: header "viewLimits" must be an object of numbers`);
  }
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(
        `${file}:1: header viewLimits.${name} must be a non-negative number, got ${String(JSON.stringify(value)).slice(0, 40)}`,
      );
    }
  }
  return h as RecordingHeader;
}
