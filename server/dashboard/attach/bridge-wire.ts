// Reading what a Go bridge sends: its hello and its NDJSON event lines, checked before they reach the
// recorder (they arrive from the network).
import type { BridgeHello } from '../../../shared/protocol/events-bridge';
import type { RuntimeEvent } from '../../../shared/protocol/events';

export interface WireEvent {
  seq: number;
  event: RuntimeEvent;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The hello, or an error saying what is wrong with it. */
export function parseHello(body: unknown): BridgeHello {
  if (!isRecord(body) || typeof body.protocolVersion !== 'number' || typeof body.epoch !== 'string') {
    throw new Error('not a controller-scope bridge (its /hello has no protocolVersion and epoch)');
  }
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    protocolVersion: body.protocolVersion,
    epoch: body.epoch,
    process: typeof body.process === 'string' && body.process ? body.process : 'unknown',
    ...(typeof body.controllerRuntime === 'string' ? { controllerRuntime: body.controllerRuntime } : {}),
    controllers: strings(body.controllers),
    seq: num(body.seq),
    firstSeq: num(body.firstSeq),
    dropped: num(body.dropped),
    steppable: strings(body.steppable),
  };
}

/** One stream line: undefined for a heartbeat (empty line) or a line that is not an event. */
export function parseEventLine(line: string): WireEvent | undefined {
  if (line.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || typeof v.seq !== 'number' || typeof v.kind !== 'string' || !v.kind.includes('.'))
    return undefined;
  const { seq, ts: _ts, ...event } = v;
  // The recorder stamps its own seq and time; the process's seq only orders and resumes the stream.
  return { seq, event: event as unknown as RuntimeEvent };
}

/** Splits a byte stream into lines, keeping a partial last line for the next chunk. */
export class LineSplitter {
  private rest = '';
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): string[] {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return lines;
  }
}
